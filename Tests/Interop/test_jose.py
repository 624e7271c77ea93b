"""panva's jose for Node (Debian's node-jose) against the provider's tokens, and jose's tokens against
our verifier."""

import json
import os
import subprocess

import pytest

from conftest import DEMO_APP, retire_past_window, rotate_now, run_verify
from test_pyjwt import KeySetServer, flip_signature_byte

SCRIPT = os.path.join(os.path.dirname(__file__), "jose_check.cjs")
ISSUER = "https://jose.example"


def jose(*arguments):
    environment = dict(os.environ, NODE_PATH="/usr/share/nodejs")
    result = subprocess.run(["node", SCRIPT, *arguments], capture_output=True, text=True, timeout=60, env=environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def jose_verify(provider, token, nonce):
    return jose("verify", provider.jwks_url, token, provider.base_url, DEMO_APP, nonce)


def test_jose_accepts_the_providers_token(provider, nonce):
    result = jose_verify(provider, provider.id_token(nonce), nonce)
    assert result["ok"], result
    assert result["payload"]["email"] == "alice@example.com"


def test_jose_checks_the_nonce(provider, nonce):
    result = jose_verify(provider, provider.id_token(nonce), nonce + "-other")
    assert result == {"ok": False, "code": "NONCE_MISMATCH", "message": "nonce does not match"}


def test_jose_rejects_a_flipped_byte(provider, nonce):
    result = jose_verify(provider, flip_signature_byte(provider.id_token(nonce)), nonce)
    assert not result["ok"]
    assert result["code"] == "ERR_JWS_SIGNATURE_VERIFICATION_FAILED", result


def test_jose_rejects_a_token_of_a_key_retired_past_its_window(fresh_provider, nonce):
    token = fresh_provider.id_token(nonce)
    old_kid = jose_verify(fresh_provider, token, nonce)["kid"]
    rotate_now(fresh_provider)
    assert jose_verify(fresh_provider, token, nonce)["ok"], "still published during the window"
    retire_past_window(fresh_provider, old_kid)
    result = jose_verify(fresh_provider, token, nonce)
    assert not result["ok"]
    assert result["code"] == "ERR_JWKS_NO_MATCHING_KEY", result


@pytest.fixture(scope="module")
def jose_tokens():
    nonce = "jose-nonce-1"
    signed = jose("sign", ISSUER, DEMO_APP, nonce)
    server = KeySetServer({"keys": [signed["jwk"]]})
    yield signed, server, nonce
    server.close()


def test_our_verifier_accepts_jose_rs256(binary, jose_tokens):
    signed, server, nonce = jose_tokens
    result = run_verify(binary, signed["rs256"], "--app-id", DEMO_APP, "--nonce", nonce, "--jwks-url", server.url, "--issuer", ISSUER)
    assert result.returncode == 0, result.stderr
    assert "Jose Node" in result.stdout


def test_our_verifier_refuses_jose_unsecured(binary, jose_tokens):
    signed, server, nonce = jose_tokens
    result = run_verify(binary, signed["none"], "--app-id", DEMO_APP, "--nonce", nonce, "--jwks-url", server.url, "--issuer", ISSUER)
    assert result.returncode != 0
    assert 'algorithm "none" is not allowed; only RS256 is accepted' in result.stderr, result.stderr


def test_our_verifier_refuses_jose_hs256_keyed_with_the_public_key(binary, jose_tokens):
    signed, server, nonce = jose_tokens
    result = run_verify(binary, signed["hs256"], "--app-id", DEMO_APP, "--nonce", nonce, "--jwks-url", server.url, "--issuer", ISSUER)
    assert result.returncode != 0
    assert 'algorithm "HS256" is not allowed; only RS256 is accepted' in result.stderr, result.stderr
