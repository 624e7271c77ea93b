"""`limited-login audit` run as a user runs it, against real backends (Tests/Interop/audit_backends/): two
deliberately weak ones written here, and two real libraries' Facebook Limited Login verification
(python-social-auth's and django-allauth's), each in a minimal app. The audit mints one token per case
through the provider, sends it to the backend's /me and judges the answers; the sets of holes and warnings
each backend really produces are pinned here, so a change in the audit or in a library shows.

huge-token comes out refused (431) for every backend here: both Python HTTP servers (http.server and
Django's, which builds on it) refuse a header line over 64 KiB before the library sees the token."""

import json
import os
import selectors
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from contextlib import contextmanager

import pytest
import requests

from conftest import ADMIN_TOKEN, DEMO_APP, free_port

BACKENDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "audit_backends")
NONCE_HEADER = "X-Nonce: {nonce}"


@contextmanager
def running_backend(script, provider):
    """Starts `audit_backends/<script>` on a free port with this interpreter (the suite's venv) and yields
    its /me URL once it prints its ready line; stops it (that Popen only) when the test ends."""
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix=f"audit-{script}-", suffix=".log", delete=False)
    process = subprocess.Popen(
        [sys.executable, os.path.join(BACKENDS, script), "--port", str(port), "--provider", provider.base_url,
         "--app-id", DEMO_APP],
        cwd=BACKENDS, stdout=subprocess.PIPE, stderr=log, text=True,
    )
    try:
        expected = f"listening on http://127.0.0.1:{port}"
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        line = ""
        deadline = time.time() + 60
        while time.time() < deadline and not line:
            if selector.select(timeout=1):
                line = process.stdout.readline() or "(exited)"
        selector.close()
        if line.strip() != expected:
            with open(log.name) as errors:
                raise RuntimeError(f"{script} did not start ({line.strip()!r}): {errors.read()[-2000:]}")
        yield f"http://127.0.0.1:{port}/me"
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()
        log.close()
        os.unlink(log.name)


def run_audit(binary, provider, endpoint, *extra):
    result = subprocess.run(
        [binary, "audit", "--endpoint", endpoint, "--provider", provider.base_url, "--admin-token", ADMIN_TOKEN,
         "--app-id", DEMO_APP, "--json", *extra],
        capture_output=True, text=True, timeout=600,
    )
    assert result.stdout.strip(), f"no JSON (exit {result.returncode}): {result.stderr}"
    report = json.loads(result.stdout)
    return result, report


def verdicts(report, verdict):
    return {case["name"] for case in report["cases"] if case["verdict"] == verdict}


def show(label, report):
    """The verdicts, on the test's output (pytest -s or a failure shows them)."""
    print(f"\n{label}: exit {report['exit_status']}, summary {report['summary']}")
    for case in report["cases"]:
        if case["verdict"] != "ok":
            print(f"  {case['verdict']:8} {case['name']:28} got {case['got']} ({case['status']}): {case['summary']}")


def check_report_shape(report, result, endpoint, provider):
    assert report["endpoint"] == endpoint
    assert report["provider"].rstrip("/") == provider.base_url.rstrip("/")
    assert report["app_id"] == DEMO_APP
    assert report["exit_status"] == result.returncode
    summary = report["summary"]
    assert summary["cases"] == len(report["cases"])
    counted = {"ok": "ok", "holes": "hole", "warnings": "warning", "unclear": "unclear", "not_run": "not-run",
               "good_tokens_refused": "fail"}
    for key, verdict in counted.items():
        assert summary[key] == len(verdicts(report, verdict)), key
    # "failed": the cases that failed the run; none exactly when it exited 0 (without --strict).
    assert (summary["failed"] == 0) == (report["exit_status"] == 0), summary
    assert summary["failed"] >= summary["holes"] + summary["good_tokens_refused"], summary
    valid = next(case for case in report["cases"] if case["name"] == "valid")
    assert valid["severity"] == "must-accept" and valid["expected"] == "accepted"
    for case in report["cases"]:
        if case["verdict"] == "hole":
            assert case["severity"] == "must-refuse" and case["got"] == "accepted", case
        if case["verdict"] == "warning":
            assert case["severity"] == "should-refuse" and case["got"] == "accepted", case
        assert case["rule"] and case["summary"], case
    huge = next(case for case in report["cases"] if case["name"] == "huge-token")
    assert (huge["got"], huge["status"]) == ("refused", 431), huge  # the HTTP server's limit (see the top)
    return valid


# --- weak_skip_aud: PyJWT with verify_aud off ----------------------------------------------------------------
# wrong-audience (hole): a token the provider signed for another app signs its user in here; with the
# audience unchecked, audience-list (warning) passes too. duplicate-claim (warning): Python's json keeps the
# last `sub`, so the second (another user's) is the one signed in. empty-sub, empty-jti: nothing here reads them;
# signature-base64-padding: PyJWT's base64url decoder takes padding. raw-nonce-unhashed is not run: the
# backend is told the nonce itself ({nonce}), not a raw one to hash.
WEAK_SKIP_AUD_HOLES = {"wrong-audience"}
WEAK_SKIP_AUD_WARNINGS = {"audience-list", "duplicate-claim", "empty-sub", "empty-jti", "signature-base64-padding", "typ-not-jwt"}
NOT_RUN_WITH_NONCE = {"raw-nonce-unhashed"}


def test_audit_finds_the_missing_audience_check(binary, provider):
    with running_backend("weak_skip_aud.py", provider) as endpoint:
        result, report = run_audit(binary, provider, endpoint, "--header", NONCE_HEADER)
    show("weak_skip_aud", report)
    valid = check_report_shape(report, result, endpoint, provider)
    assert valid["verdict"] == "ok", valid
    assert result.returncode == 1, result.stderr
    holes = verdicts(report, "hole")
    assert "wrong-audience" in holes
    assert holes == WEAK_SKIP_AUD_HOLES
    assert verdicts(report, "warning") == WEAK_SKIP_AUD_WARNINGS
    assert verdicts(report, "not-run") == NOT_RUN_WITH_NONCE, "the nonce cases run when a template uses {nonce}"
    assert verdicts(report, "unclear") | verdicts(report, "fail") == set()


# --- weak_header_alg: trusts the header's alg -----------------------------------------------------------------
# Holes: alg-none and alg-none-uppercase (no signature at all: anyone signs in as anyone);
# hs256-public-key (PEM without its final newline), hs256-public-key-pem-newline and hs512-public-key (the
# key confusion: whoever has the published key forges tokens). Its DER form is not a secret it tries, so
# hs256-public-key-der is refused. Warnings: its hand-written checks skip iat (too-old, issued-in-future,
# no-iat), sub, crit, duplicate names and canonical base64url, and Python's base64 takes padding and + /.
WEAK_HEADER_ALG_HOLES = {"alg-none", "alg-none-uppercase", "hs256-public-key", "hs256-public-key-pem-newline",
                         "hs512-public-key"}
WEAK_HEADER_ALG_WARNINGS = {"too-old", "issued-in-future", "no-iat", "empty-sub", "empty-jti", "crit-header", "duplicate-claim", "typ-not-jwt",
                            "non-canonical-base64url", "signature-base64-padding", "signature-standard-base64"}


def test_audit_finds_the_trusted_header_alg(binary, provider):
    with running_backend("weak_header_alg.py", provider) as endpoint:
        result, report = run_audit(binary, provider, endpoint, "--header", NONCE_HEADER)
    show("weak_header_alg", report)
    valid = check_report_shape(report, result, endpoint, provider)
    assert valid["verdict"] == "ok", valid
    assert result.returncode == 1, result.stderr
    holes = verdicts(report, "hole")
    assert {"alg-none", "alg-none-uppercase", "hs256-public-key"} <= holes
    assert holes == WEAK_HEADER_ALG_HOLES
    assert verdicts(report, "warning") == WEAK_HEADER_ALG_WARNINGS
    assert verdicts(report, "not-run") == NOT_RUN_WITH_NONCE
    assert verdicts(report, "unclear") | verdicts(report, "fail") == set()


# --- python-social-auth (social-auth-core) FacebookLimitedLogin -----------------------------------------------
# No holes: RS256 only (JWT_ALGORITHMS), the key from the discovery document's jwks_uri, iss, aud (a list of
# more than one without azp is refused), exp required, iat required and at most ID_TOKEN_MAX_AGE (3600 s) old,
# and PyJWT's crit and canonical base64url checks. Warnings: missing-kid (with no kid, find_valid_key tries
# every published key); empty-jti (jti is not read); duplicate-claim (json keeps the last sub: another user); signature-base64-padding
# (PyJWT's base64url decoder takes padding). The nonce cases do not run:
# FacebookLimitedLogin.validate_claims swallows the nonce mismatch, so no nonce can be given to it.
SOCIAL_AUTH_HOLES = set()
SOCIAL_AUTH_WARNINGS = {"missing-kid", "empty-jti", "duplicate-claim", "signature-base64-padding", "typ-not-jwt"}
NOT_RUN_WITHOUT_NONCE = {"wrong-nonce", "no-nonce", "raw-nonce-unhashed"}


def test_audit_of_python_social_auth(binary, provider):
    with running_backend("social_auth_backend.py", provider) as endpoint:
        result, report = run_audit(binary, provider, endpoint)
    show("social-auth-core FacebookLimitedLogin", report)
    valid = check_report_shape(report, result, endpoint, provider)
    assert valid["verdict"] == "ok", valid
    assert verdicts(report, "hole") == SOCIAL_AUTH_HOLES
    assert verdicts(report, "warning") == SOCIAL_AUTH_WARNINGS
    assert verdicts(report, "not-run") == NOT_RUN_WITHOUT_NONCE
    assert result.returncode == 0, result.stderr


# --- django-allauth's Facebook provider (Limited Login) -------------------------------------------------------
# jwtkit.verify_and_decode calls PyJWT with verify_exp but without require=["exp"], so a token with no exp
# (no-exp, hole) never expires. Warnings: too-old and no-iat (iat neither required nor limited in age); audience-list (PyJWT accepts a list
# that holds the app); rs512-same-key (algorithms=[the header's alg]: any RSA alg PyJWT knows with the
# JWK's key passes; the HS* key confusion fails only because PyJWT will not HMAC with a key object);
# duplicate-claim (json keeps the last sub). No nonce is checked on this path, so the nonce cases do not run.
# allauth keeps the jti it has seen (a replay cache): the audit sends one good token twice, sees the second
# refused, and leaves empty-jti not judged (its answer depends on whether an earlier run sent an empty jti).
ALLAUTH_HOLES = {"no-exp"}
ALLAUTH_WARNINGS = {"too-old", "no-iat", "audience-list", "rs512-same-key", "duplicate-claim", "signature-base64-padding",
                    "typ-not-jwt"}
ALLAUTH_NOT_RUN = NOT_RUN_WITHOUT_NONCE | {"empty-jti"}


def test_audit_of_django_allauth(binary, provider):
    with running_backend("allauth_backend.py", provider) as endpoint:
        result, report = run_audit(binary, provider, endpoint)
    show("django-allauth facebook", report)
    valid = check_report_shape(report, result, endpoint, provider)
    assert valid["verdict"] == "ok", valid
    assert verdicts(report, "hole") == ALLAUTH_HOLES
    assert verdicts(report, "warning") == ALLAUTH_WARNINGS
    assert verdicts(report, "not-run") == ALLAUTH_NOT_RUN
    assert result.returncode == 1, result.stderr


# --- --junit ------------------------------------------------------------------------------------------------
def test_audit_writes_junit_with_a_failure_per_hole(binary, provider, tmp_path):
    junit = tmp_path / "audit.xml"
    with running_backend("weak_skip_aud.py", provider) as endpoint:
        result, report = run_audit(binary, provider, endpoint, "--header", NONCE_HEADER, "--junit", str(junit))
    assert result.returncode == 1
    root = ElementTree.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    assert len(suites) == 1, ElementTree.tostring(root)[:500]
    suite = suites[0]
    cases = suite.findall("testcase")
    assert [case.get("name") for case in cases] == [case["name"] for case in report["cases"]]
    assert int(suite.get("tests")) == len(cases)
    failed = {case.get("name") for case in cases if case.find("failure") is not None}
    skipped = {case.get("name") for case in cases if case.find("skipped") is not None}
    assert failed == verdicts(report, "hole") == WEAK_SKIP_AUD_HOLES
    assert int(suite.get("failures")) == len(failed)
    assert skipped == verdicts(report, "not-run")


# --- could not run ------------------------------------------------------------------------------------------
def test_audit_of_an_endpoint_that_is_down_exits_3(binary, provider):
    endpoint = f"http://127.0.0.1:{free_port()}/me"
    result = subprocess.run(
        [binary, "audit", "--endpoint", endpoint, "--provider", provider.base_url, "--admin-token", ADMIN_TOKEN,
         "--app-id", DEMO_APP, "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 3, (result.stdout, result.stderr)


def test_audit_bad_usage_exits_64(binary):
    result = subprocess.run([binary, "audit", "--app-id", DEMO_APP], capture_output=True, text=True, timeout=60)
    assert result.returncode == 64, (result.stdout, result.stderr)


def listening_addresses(port):
    """The local addresses a socket listens on for this port, from /proc/net/tcp{,6} (Linux)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as rows:
            for row in list(rows)[1:]:
                local, state = row.split()[1], row.split()[3]
                address, hex_port = local.split(":")
                if int(hex_port, 16) == port and state == "0A":
                    found.append(address)
    return found


@pytest.mark.parametrize("script", ["weak_skip_aud.py", "weak_header_alg.py", "social_auth_backend.py", "allauth_backend.py"])
def test_backend_answers_a_real_token_and_refuses_garbage_on_loopback_only(provider, nonce, script):
    """The backends themselves, before any audit: the provider's own token (from its dialog) signs in,
    garbage is a 401 with JSON (never a 500), and the socket listens on 127.0.0.1 only."""
    with running_backend(script, provider) as endpoint:
        port = int(endpoint.rsplit(":", 1)[1].split("/")[0])
        if os.path.exists("/proc/net/tcp"):
            assert listening_addresses(port) == ["0100007F"], listening_addresses(port)
        token = provider.id_token(nonce)
        accepted = requests.get(endpoint, headers={"Authorization": f"Bearer {token}", "X-Nonce": nonce}, timeout=30)
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["sub"]
        for garbage in ["", "Bearer", "Bearer a.b.c", "Bearer " + token[:-10], "Basic " + token]:
            refused = requests.get(endpoint, headers={"Authorization": garbage}, timeout=30)
            assert refused.status_code == 401, (garbage, refused.status_code, refused.text)
            assert "error" in refused.json()
