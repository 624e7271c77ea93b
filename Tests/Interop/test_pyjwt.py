"""PyJWT against the provider's tokens, and PyJWT's tokens against our verifier."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from conftest import DEMO_APP, retire_past_window, rotate_now, run_verify


def flip_signature_byte(token):
    header, payload, signature = token.split(".")
    raw = jwt.utils.base64url_decode(signature)
    raw = raw[:10] + bytes([raw[10] ^ 1]) + raw[11:]
    return ".".join([header, payload, jwt.utils.base64url_encode(raw).decode()])


def decode_with_pyjwt(provider, token, nonce):
    client = jwt.PyJWKClient(provider.jwks_url, cache_keys=False)
    key = client.get_signing_key_from_jwt(token)
    claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=DEMO_APP, issuer=provider.base_url)
    assert claims["nonce"] == nonce, "PyJWT has no nonce check of its own: the test compares it"
    return claims


def test_pyjwt_accepts_the_providers_token(provider, nonce):
    token = provider.id_token(nonce)
    claims = decode_with_pyjwt(provider, token, nonce)
    assert claims["email"] == "alice@example.com"
    assert claims["aud"] == DEMO_APP


def test_pyjwt_rejects_a_flipped_byte(provider, nonce):
    token = flip_signature_byte(provider.id_token(nonce))
    with pytest.raises(jwt.InvalidSignatureError):
        decode_with_pyjwt(provider, token, nonce)


def test_pyjwt_rejects_a_token_of_a_key_retired_past_its_window(fresh_provider, nonce):
    token = fresh_provider.id_token(nonce)
    old_kid = jwt.get_unverified_header(token)["kid"]
    decode_with_pyjwt(fresh_provider, token, nonce)
    rotate_now(fresh_provider)
    decode_with_pyjwt(fresh_provider, token, nonce)  # still published during the window
    retire_past_window(fresh_provider, old_kid)
    with pytest.raises(jwt.PyJWKClientError, match="Unable to find a signing key that matches"):
        decode_with_pyjwt(fresh_provider, token, nonce)
    # And ours, for the same reason.
    from conftest import BINARY
    result = run_verify(BINARY, token, "--app-id", DEMO_APP, "--nonce", nonce, "--discovery-url", fresh_provider.discovery_url)
    assert result.returncode != 0
    assert f'no key with kid "{old_kid}"' in result.stderr, result.stderr


class KeySetServer:
    """Serves one JWKS on 127.0.0.1, as a third party would publish its keys."""

    def __init__(self, jwks):
        body = json.dumps(jwks).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/jwks"

    def close(self):
        self.server.shutdown()


ISSUER = "https://pyjwt.example"


@pytest.fixture(scope="module")
def pyjwt_key():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": "pyjwt-key", "alg": "RS256", "use": "sig"})
    server = KeySetServer({"keys": [jwk]})
    yield key, server
    server.close()


def pyjwt_claims(nonce):
    import time
    now = int(time.time())
    return {"iss": ISSUER, "aud": DEMO_APP, "sub": "1234567", "jti": "pyjwt-1", "iat": now, "exp": now + 3600, "nonce": nonce,
            "name": "Py Jwt"}


def test_our_verifier_accepts_pyjwt_rs256(binary, pyjwt_key, nonce):
    key, server = pyjwt_key
    token = jwt.encode(pyjwt_claims(nonce), key, algorithm="RS256", headers={"kid": "pyjwt-key"})
    result = run_verify(binary, token, "--app-id", DEMO_APP, "--nonce", nonce, "--jwks-url", server.url, "--issuer", ISSUER)
    assert result.returncode == 0, result.stderr
    assert "Py Jwt" in result.stdout


def test_our_verifier_refuses_pyjwt_alg_none(binary, pyjwt_key, nonce):
    _, server = pyjwt_key
    token = jwt.encode(pyjwt_claims(nonce), None, algorithm="none", headers={"kid": "pyjwt-key"})
    assert token.endswith("."), "PyJWT's unsecured token has an empty signature"
    result = run_verify(binary, token, "--app-id", DEMO_APP, "--nonce", nonce, "--jwks-url", server.url, "--issuer", ISSUER)
    assert result.returncode != 0
    assert 'algorithm "none" is not allowed; only RS256 is accepted' in result.stderr, result.stderr


def test_our_verifier_refuses_pyjwt_hs256(binary, pyjwt_key, nonce):
    key, server = pyjwt_key
    # HS256 keyed with the RSA key's public modulus, the classic key-confusion attempt (PyJWT refuses a
    # PEM as an HMAC secret, so the modulus stands in for the public key).
    secret = json.loads(RSAAlgorithm.to_jwk(key.public_key()))["n"]
    token = jwt.encode(pyjwt_claims(nonce), secret, algorithm="HS256", headers={"kid": "pyjwt-key"})
    result = run_verify(binary, token, "--app-id", DEMO_APP, "--nonce", nonce, "--jwks-url", server.url, "--issuer", ISSUER)
    assert result.returncode != 0
    assert 'algorithm "HS256" is not allowed; only RS256 is accepted' in result.stderr, result.stderr


def test_our_verifier_refuses_what_pyjwt_refuses_a_flipped_byte(binary, provider, nonce):
    token = flip_signature_byte(provider.id_token(nonce))
    result = run_verify(binary, token, "--app-id", DEMO_APP, "--nonce", nonce, "--discovery-url", provider.discovery_url)
    assert result.returncode != 0
    assert "the signature does not match the token" in result.stderr, result.stderr


def test_the_certs_endpoint_serves_certificates_whose_keys_verify_the_token(provider, nonce):
    """What the iOS SDK fetches (`/.well-known/oauth/openid/certs`): kid → PEM certificate, read here by
    the `cryptography` package, whose public key PyJWT then checks the token with."""
    import requests
    from cryptography import x509

    token = provider.id_token(nonce)
    kid = jwt.get_unverified_header(token)["kid"]
    certificates = requests.get(provider.base_url + "/.well-known/oauth/openid/certs/", timeout=10).json()
    certificate = x509.load_pem_x509_certificate(certificates[kid].encode())
    claims = jwt.decode(token, certificate.public_key(), algorithms=["RS256"], audience=DEMO_APP, issuer=provider.base_url)
    assert claims["nonce"] == nonce
