"""Authlib as an OpenID Connect relying party: it reads the provider's discovery document, builds the
implicit id_token request, and validates the token by its own rules (signature from the JWKS, iss, aud,
exp, iat, nonce)."""

import warnings

import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.oidc.core import ImplicitIDToken

with warnings.catch_warnings():
    # Authlib 1.x announces that authlib.jose will move to joserfc; this is its documented 1.x API.
    warnings.simplefilter("ignore")
    from authlib.jose import JsonWebKey, jwt

from conftest import DEMO_APP
from dialog_person import DialogPerson, callback_parameters

REDIRECT = f"fb{DEMO_APP}://authorize/"


def implicit_login(provider, nonce, state):
    discovery = requests.get(provider.discovery_url, timeout=10).json()
    assert discovery["issuer"] == provider.base_url
    assert "id_token" in discovery["response_types_supported"]
    client = OAuth2Session(client_id=DEMO_APP, redirect_uri=REDIRECT, scope="openid email")
    url, sent_state = client.create_authorization_url(
        discovery["authorization_endpoint"], response_type="id_token", nonce=nonce, state=state
    )
    assert sent_state == state
    location = DialogPerson().log_in(url, REDIRECT)
    return discovery, callback_parameters(location)


def validate(discovery, token, nonce):
    keys = JsonWebKey.import_key_set(requests.get(discovery["jwks_uri"], timeout=10).json())
    claims = jwt.decode(
        token, keys, claims_cls=ImplicitIDToken,
        claims_options={"iss": {"essential": True, "value": discovery["issuer"]}},
        claims_params={"nonce": nonce, "client_id": DEMO_APP},
    )
    claims.validate(leeway=60)
    return claims


def test_authlib_implicit_flow_validates_the_id_token(provider, nonce):
    discovery, answer = implicit_login(provider, nonce, state="authlib-state")
    assert answer["state"] == "authlib-state"
    claims = validate(discovery, answer["id_token"], nonce)
    assert claims["aud"] == DEMO_APP
    assert claims["email"] == "alice@example.com"
    assert claims["nonce"] == nonce


def test_authlib_refuses_the_token_for_another_nonce(provider, nonce):
    discovery, answer = implicit_login(provider, nonce, state="s2")
    with pytest.raises(Exception) as refused:
        validate(discovery, answer["id_token"], nonce + "-other")
    # Authlib raises its (or, from 1.9, joserfc's) InvalidClaimError naming the claim.
    assert type(refused.value).__name__ == "InvalidClaimError"
    assert "'nonce'" in str(refused.value)


def test_authlib_refuses_a_flipped_byte(provider, nonce):
    from test_pyjwt import flip_signature_byte
    discovery, answer = implicit_login(provider, nonce, state="s3")
    with pytest.raises(Exception) as refused:
        validate(discovery, flip_signature_byte(answer["id_token"]), nonce)
    assert type(refused.value).__name__ == "BadSignatureError", repr(refused.value)
