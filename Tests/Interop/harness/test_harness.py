"""The provider as a non-Swift CI uses it: only the CLI and HTTP, inside `limited-login serve --exec`.

scripts/interop runs this file as
    limited-login serve --port 0 --database :memory: --exec "python3 -m pytest harness/test_harness.py"
so the provider's address and admin token arrive in LIMITED_LOGIN_* variables, as they would in any CI.
"""

import json
import os
import subprocess

import jwt
import pytest
import requests

BINARY = os.environ.get("LIMITED_LOGIN_BIN", "limited-login")
JOSE = os.path.join(os.path.dirname(__file__), "..", "jose_check.cjs")


def variable(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run this suite inside `limited-login serve --exec` (scripts/interop does)")
    return value


URL = variable("LIMITED_LOGIN_URL")
ISSUER = variable("LIMITED_LOGIN_ISSUER")
APP = variable("LIMITED_LOGIN_APP_ID")
ADMIN = variable("LIMITED_LOGIN_ADMIN_TOKEN")
DISCOVERY = variable("LIMITED_LOGIN_DISCOVERY_URL")
JWKS = requests.get(DISCOVERY, timeout=10).json()["jwks_uri"]


def mint(**body):
    body = {"app_id": APP, "user": "alice@example.com", "nonce": "harness-nonce", **body}
    answer = requests.post(f"{URL}/_admin/tokens", json=body, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def cli(*arguments):
    return subprocess.run([BINARY, *arguments], capture_output=True, text=True, timeout=60)


def pyjwt_accepts(token, nonce="harness-nonce"):
    try:
        key = jwt.PyJWKClient(JWKS).get_signing_key_from_jwt(token)
        claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=APP, issuer=ISSUER)
    except Exception:  # any refusal: PyJWT's own error types differ by cause
        return False
    return claims.get("nonce") == nonce


def jose_accepts(token, nonce="harness-nonce"):
    environment = dict(os.environ, NODE_PATH="/usr/share/nodejs")
    result = subprocess.run(["node", JOSE, "verify", JWKS, token, ISSUER, APP, nonce], capture_output=True, text=True, timeout=60, env=environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["ok"]


def ours_accepts(token, nonce="harness-nonce"):
    result = cli("verify", token, "--app-id", APP, "--nonce", nonce, "--discovery-url", DISCOVERY)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode == 0


# Which defect each verifier rejects (True) or accepts (False), as measured: docs/HARNESS.md's table says the same.
EXPECTED_REJECTIONS = {
    #  defect                     PyJWT  jose   ours
    "expired":                   (True,  True,  True),
    "issued-in-future":          (True,  False, True),
    "too-old":                   (False, False, True),
    "wrong-audience":            (True,  True,  True),
    "wrong-issuer":              (True,  True,  True),
    "wrong-nonce":               (True,  True,  True),
    "bad-signature":             (True,  True,  True),
    "unknown-key":               (True,  True,  True),
    "alg-none":                  (True,  True,  True),
    "hs256-public-key":          (True,  True,  True),
    "missing-kid":               (True,  False, True),
    "duplicate-claim":           (False, False, True),
    "non-canonical-base64url":   (True,  False, True),
    "crit-header":               (True,  True,  True),
    "rs512":                     (True,  True,  True),
    "typ-not-jwt":               (False, False, True),
    "payload-not-object":        (True,  True,  True),
}


def test_a_minted_token_is_accepted_by_pyjwt_jose_and_ours():
    token = mint(permissions=["email"])["id_token"]
    assert pyjwt_accepts(token)
    assert jose_accepts(token)
    assert ours_accepts(token)


def test_the_cli_mints_the_same_way():
    result = cli("token", "--app-id", APP, "--user", "bob@example.com", "--nonce", "harness-nonce")
    assert result.returncode == 0, result.stderr
    token = result.stdout.strip()
    assert pyjwt_accepts(token) and ours_accepts(token)
    assert cli("token", "--list-defects").stdout.count("\n") == len(EXPECTED_REJECTIONS)


@pytest.mark.parametrize("defect", sorted(EXPECTED_REJECTIONS))
def test_each_defect_is_rejected_as_the_readme_says(defect):
    token = mint(defect=defect)["id_token"]
    measured = (not pyjwt_accepts(token), not jose_accepts(token), not ours_accepts(token))
    assert measured == EXPECTED_REJECTIONS[defect], f"{defect}: PyJWT, jose, ours rejected {measured}"


def test_a_queued_cancel_and_claims_reach_a_headless_login(tmp_path):
    state = str(tmp_path / "session.json")
    assert cli("scenario", "add", "--app-id", APP, "--cancel").returncode == 0
    cancelled = cli("login", "--app-id", APP, "--tracking", "limited", "--as", "carol@example.com", "--state-file", state)
    assert cancelled.returncode == 1 and "cancelled" in cancelled.stderr
    assert cli("scenario", "add", "--app-id", APP, "--claims", '{"email":"scenario@example.com"}').returncode == 0
    login = cli("login", "--app-id", APP, "--tracking", "limited", "--permissions", "email", "--as", "carol@example.com", "--state-file", state, "--json")
    assert login.returncode == 0, login.stderr
    assert json.loads(login.stdout)["profile"]["email"] == "scenario@example.com"


def test_the_clock_expires_tokens_for_outside_verifiers():
    token = mint()["id_token"]
    assert pyjwt_accepts(token)
    moved = cli("clock", "advance", "2h")
    assert moved.returncode == 0, moved.stderr
    try:
        later = mint()["id_token"]
        claims = jwt.decode(later, options={"verify_signature": False})
        assert claims["iat"] - jwt.decode(token, options={"verify_signature": False})["iat"] >= 7200
        assert not pyjwt_accepts(later), "PyJWT runs on the system's time: a token from 2 h ahead is not yet valid"
    finally:
        assert cli("clock", "reset").returncode == 0
