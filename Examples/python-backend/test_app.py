"""The backend in app.py against a real provider: the `limited_login` fixture starts one for each test."""

import io
import json

import pytest

from app import make_app


def login(provider, id_token, nonce):
    """POST /login to the backend in process (no server): its status code and JSON answer."""
    app = make_app(provider.jwks_url, provider.issuer, provider.app_id)
    body = json.dumps({"id_token": id_token, "nonce": nonce}).encode()
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/login", "CONTENT_TYPE": "application/json",
               "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
    status = []
    answer = b"".join(app(environ, lambda line, headers: status.append(line)))
    return int(status[0].split()[0]), json.loads(answer)


def test_a_login_on_the_providers_pages_signs_alice_in(limited_login):
    result = limited_login.login_as("alice@example.com", nonce="n-1")      # the dialog, headless
    status, answer = login(limited_login, result["authentication_token"]["token"], "n-1")
    assert (status, answer) == (200, {"user": result["profile"]["user_id"], "name": "Alice Example"})


def test_a_minted_token_signs_bob_in(limited_login):
    token = limited_login.token("bob@example.com", nonce="n-1")             # no browser: POST /_admin/tokens
    assert login(limited_login, token.id_token, "n-1") == (200, {"user": token.claims["sub"], "name": "Bob Example"})


def test_a_token_for_another_app_is_refused(limited_login):
    limited_login.admin("POST", "/_admin/apps", {"id": "2000000000000002", "name": "Another App"})
    token = limited_login.token("bob@example.com", nonce="n-1", app_id="2000000000000002")
    assert login(limited_login, token.id_token, "n-1") == (401, {"error": "Audience doesn't match"})


def test_another_logins_nonce_is_refused(limited_login):
    token = limited_login.token("alice@example.com", nonce="n-1")
    assert login(limited_login, token.id_token, "n-2") == (401, {"error": "the nonce is not the one this login sent"})


@pytest.mark.parametrize("defect, reason", [
    ("wrong-audience", "audience"),        # a token for another app
    ("wrong-issuer", "issuer"),
    ("expired", "expired"),
    ("bad-signature", "signature"),
    ("unknown-key", "signing key"),        # a kid the key set does not publish
    ("alg-none", "alg"),                   # unsigned, or signed with HS256 and the public key as the secret
    ("hs256-public-key", "alg"),
])
def test_a_defective_token_is_refused(limited_login, defect, reason):
    token = limited_login.token("alice@example.com", nonce="n-1", defect=defect)
    status, answer = login(limited_login, token.id_token, "n-1")
    assert status == 401 and reason in answer["error"].lower(), answer


@pytest.mark.parametrize("claim", ["exp", "nonce"])
def test_a_token_without_a_required_claim_is_refused(limited_login, claim):
    token = limited_login.token("alice@example.com", nonce="n-1", claims={claim: None})
    assert login(limited_login, token.id_token, "n-1") == (401, {"error": f'Token is missing the "{claim}" claim'})


def test_a_token_changed_after_signing_is_refused(limited_login):
    header, payload, signature = limited_login.token("alice@example.com", nonce="n-1").id_token.split(".")
    forged = limited_login.token("bob@example.com", nonce="n-1").id_token.split(".")[1]   # bob's claims
    assert login(limited_login, f"{header}.{forged}.{signature}", "n-1") == (401, {"error": "Signature verification failed"})


@pytest.mark.parametrize("body, content_type", [
    (b"{not json", "application/json"),
    (b"[1, 2]", "application/json"),
    (b"\xff\xfe", "application/x-www-form-urlencoded"),
    (b"id_token=only", "application/x-www-form-urlencoded"),
])
def test_a_body_it_cannot_read_is_a_400_not_a_crash(limited_login, body, content_type):
    app = make_app(limited_login.jwks_url, limited_login.issuer, limited_login.app_id)
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/login", "CONTENT_TYPE": content_type,
               "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
    status = []
    answer = json.loads(b"".join(app(environ, lambda line, headers: status.append(line))))
    assert (status[0], answer) == ("400 Bad Request", {"error": "id_token and nonce are required"})
