"""pyjwt-naive: PyJWT written as its documentation shows ("Retrieve RSA signing keys from a JWKS endpoint",
https://pyjwt.readthedocs.io/en/stable/usage.html): PyJWKClient(jwks_url), get_signing_key_from_jwt, then
jwt.decode with algorithms=["RS256"], audience = the app ID and issuer = the provider, plus the nonce check
Limited Login requires. Nothing more."""

import os
import sys

import jwt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "audit_backends"))
from _serve import arguments, check_nonce, serve  # noqa: E402


def main():
    options = arguments(__doc__)
    jwks_client = jwt.PyJWKClient(options.provider + "/.well-known/oauth/openid/jwks/")

    def verify(token, nonce):
        signing_key = jwks_client.get_signing_key_from_jwt(token)
        claims = jwt.decode(token, signing_key.key, algorithms=["RS256"], audience=options.app_id, issuer=options.provider)
        check_nonce(claims, nonce)
        return claims["sub"]

    serve(options.port, verify)


if __name__ == "__main__":
    main()
