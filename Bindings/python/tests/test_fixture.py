"""The package as an app team uses it: the pytest fixtures, PyJWT verifying what the provider issues.

These run against an installed wheel (pip install limited_login-*.whl), with 127.0.0.1 as the only network.
"""

import socket
import time

import jwt
import pytest

from limited_login import Provider, ProviderError

ALICE = "alice@example.com"


def verify(provider, id_token, nonce=None):
    """What an app's backend does: the key from the JWKS, RS256, the app as audience, the issuer, the nonce."""
    key = jwt.PyJWKClient(provider.jwks_url).get_signing_key_from_jwt(id_token)
    claims = jwt.decode(id_token, key.key, algorithms=["RS256"], audience=provider.app_id, issuer=provider.issuer)
    if nonce is not None and claims.get("nonce") != nonce:
        raise jwt.InvalidTokenError(f"nonce {claims.get('nonce')!r} is not {nonce!r}")
    return claims


def test_a_minted_token_verifies_with_pyjwt(limited_login):
    token = limited_login.token(ALICE, "nonce-1", permissions=["email"])

    claims = verify(limited_login, token.id_token, nonce="nonce-1")

    assert claims == token.claims
    assert claims["email"] == ALICE
    assert token.access_token is None  # a limited login has no access token


def test_a_classic_token_carries_an_access_token(limited_login):
    token = limited_login.token(ALICE, tracking="enabled")

    assert token.access_token
    verify(limited_login, token.id_token, nonce=token.claims["nonce"])


def test_a_headless_login_on_the_real_pages(limited_login):
    result = limited_login.login_as(ALICE, nonce="nonce-2")

    claims = verify(limited_login, result["authentication_token"]["token"], nonce="nonce-2")
    assert claims["email"] == ALICE
    assert result["limited"] is True
    assert "email" in result["granted"]


def test_a_cancel_scenario_decides_the_next_login(limited_login):
    limited_login.scenario("cancel")

    assert limited_login.login_as(ALICE) == {"cancelled": True}
    assert "email" in limited_login.login_as(ALICE)["granted"]  # used once


def test_a_claims_scenario_changes_the_profile_in_the_token(limited_login):
    limited_login.scenario("claims", user=ALICE, claims={"email": "renamed@example.com"})

    result = limited_login.login_as(ALICE)

    assert verify(limited_login, result["authentication_token"]["token"])["email"] == "renamed@example.com"


@pytest.mark.parametrize("defect, rejection", [
    ("expired", jwt.ExpiredSignatureError),
    ("wrong-audience", jwt.InvalidAudienceError),
    ("wrong-issuer", jwt.InvalidIssuerError),
    ("bad-signature", jwt.InvalidSignatureError),
])
def test_a_defective_token_is_rejected_by_pyjwt(limited_login_session, defect, rejection):
    assert defect in limited_login_session.defects()
    token = limited_login_session.token(ALICE, defect=defect)

    with pytest.raises(rejection):
        verify(limited_login_session, token.id_token)


def test_the_clock_moves_what_the_provider_issues(limited_login):
    before = limited_login.token(ALICE).claims["iat"]

    limited_login.clock.advance(2 * 3600)
    after = limited_login.token(ALICE).claims["iat"]
    limited_login.clock.reset()

    assert 7200 <= after - before <= 7200 + 30
    assert abs(limited_login.clock.now() - time.time()) < 30


def test_a_token_with_its_own_claims_and_lifetime(limited_login):
    try:
        token = limited_login.token(ALICE, claims={"email": "other@example.com"}, lifetime=120)
    except ProviderError as error:
        if "may predate the option" in error.message:
            pytest.skip(f"this limited-login binary does not mint with claims= and lifetime=: {error.message}")
        raise

    claims = verify(limited_login, token.id_token)
    assert claims["email"] == "other@example.com"
    assert claims["exp"] - claims["iat"] == 120


def test_a_token_for_a_subject_no_stored_user_has(limited_login):
    token = limited_login.token(subject="10150000000000042", permissions=["email"], claims={"name": "Zed Example"})

    claims = verify(limited_login, token.id_token)
    assert claims["sub"] == "10150000000000042"
    assert claims["name"] == "Zed Example"
    assert claims["email"] == "10150000000000042@example.invalid"
    with pytest.raises(ProviderError) as caught:
        limited_login.token(ALICE, subject="10150000000000042")
    assert caught.value.status == 400
    assert caught.value.message == 'Give "user" or "subject", not both.'


def test_the_picture_in_a_token_is_a_png_a_real_decoder_reads(limited_login):
    import struct
    import urllib.request
    import zlib

    picture = limited_login.token(ALICE).claims["picture"]
    with urllib.request.urlopen(picture + "?type=normal", timeout=30) as response:
        assert response.headers["Content-Type"] == "image/png"
        data = response.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks, idat = 8, [], b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind, body = data[offset + 4:offset + 8], data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, kind
        chunks.append(kind)
        idat += body if kind == b"IDAT" else b""
        offset += 12 + length
    assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND"
    width, height, depth, color = struct.unpack(">IIBB", data[16:26])
    assert (width, height, depth, color) == (100, 100, 8, 2)
    assert len(zlib.decompress(idat)) == 100 * (100 * 3 + 1)


@pytest.mark.limited_login(id_token_lifetime=600)
def test_the_marker_passes_serve_options(limited_login):
    claims = limited_login.token(ALICE).claims

    assert claims["exp"] - claims["iat"] == 600


def test_an_unknown_user_is_the_providers_error(limited_login):
    with pytest.raises(ProviderError) as caught:
        limited_login.token("nobody@example.com")

    assert caught.value.status == 404
    assert "No test user nobody@example.com" in caught.value.message


def test_an_unknown_defect_is_the_providers_error(limited_login):
    with pytest.raises(ProviderError) as caught:
        limited_login.token(ALICE, defect="no-such-defect")

    assert caught.value.status == 400
    assert "Unknown defect" in caught.value.message
    assert "expired" in caught.value.message  # it lists the ones it knows


def test_a_port_in_use_stops_the_start_with_the_providers_message():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        with pytest.raises(ProviderError) as caught:
            Provider(port=port).start()

    assert "in use" in caught.value.message
    assert str(port) in caught.value.message


def test_the_state_comes_out_as_a_fixtures_file(limited_login):
    limited_login.token(ALICE, permissions=["email"])

    state = limited_login.export()

    assert ALICE in [user["email"] for user in state["users"]]
    assert state["apps"][0]["id"] == limited_login.app_id


@pytest.mark.limited_login(tls=True)
def test_a_tls_provider_serves_https_under_its_own_ca(limited_login):
    assert limited_login.url.startswith("https://")
    assert limited_login.ca_file

    result = limited_login.login_as(ALICE, nonce="nonce-tls")

    assert result["profile"]["email"] == ALICE
    token = limited_login.token(ALICE, "nonce-tls-2")
    assert token.claims["iss"] == "https://www.facebook.com"


def test_secrets_stay_off_the_command_lines():
    token = "a-long-enough-admin-token"
    with Provider(admin_token=token) as provider:
        with open(f"/proc/{provider._serve.process.pid}/cmdline", "rb") as file:
            command_line = file.read().decode("utf-8", "replace")
        assert "serve" in command_line
        assert token not in command_line, command_line
        assert provider.admin_token == token
        provider.admin("POST", "/_admin/users", {"first_name": "Pat", "last_name": "Secret", "email": "pat@example.com",
                                                 "password": "pat-secret-password"})
        result = provider.login_as("pat@example.com", password="pat-secret-password", nonce="n")
        assert verify(provider, result["authentication_token"]["token"], nonce="n")["email"] == "pat@example.com"


def test_a_provider_does_not_outlive_a_killed_test_process():
    """A test run killed with SIGKILL (a CI runner's timeout) takes its provider with it: serve watches its
    standard input, which the kernel closes when the parent dies."""
    import os
    import signal
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; sys.path[:0] = " + repr(sys.path) + "\n"
         "from limited_login import Provider\n"
         "p = Provider().start()\n"
         "print(p._serve.process.pid, p._serve.directory, flush=True)\n"
         "time.sleep(600)\n"],
        stdout=subprocess.PIPE, env=dict(os.environ))
    line = child.stdout.readline().decode().split()
    assert line, "the child did not start a provider"
    serve_pid, directory = int(line[0]), line[1]
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    # Wait for the event (the provider gone), with a liveness bound only.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{serve_pid}/stat") as stat:
                if stat.read().split(")")[-1].split()[0] == "Z":
                    break  # exited; its parent (gone) is not there to reap it
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        os.kill(serve_pid, signal.SIGKILL)
        raise AssertionError("the provider outlived the killed test process")
    assert not os.path.exists(os.path.join(directory, "ready.json")), "the ready file is removed as the provider stops"
    # Nothing was left to remove the folder; the next start removes it (its process is gone).
    from limited_login._serve import remove_abandoned_directories
    assert os.path.isdir(directory)
    assert directory in remove_abandoned_directories(os.path.dirname(directory))
    assert not os.path.exists(directory)
    from limited_login._serve import make_directory
    mine = make_directory()
    try:
        assert mine not in remove_abandoned_directories(os.path.dirname(mine)), "a live process keeps its folder"
        assert os.path.isdir(mine)
    finally:
        os.rmdir(mine)
