"""DELIBERATELY WEAK audit target: PyJWT used properly (RS256 only, the key the JWKS publishes under the
header's kid, issuer, exp and iat required and checked, the nonce compared with `X-Nonce` when that header
comes) except that `verify_aud` is off, so it accepts a token minted for another app."""

import time

import jwt

from _serve import arguments, serve, check_nonce

MAX_AGE = 3600  # seconds since iat, as Facebook's SDK and the project's verifier allow


def main():
    options = arguments(__doc__)
    keys = jwt.PyJWKClient(options.provider + "/.well-known/oauth/openid/jwks/")

    def verify(token, nonce):
        key = keys.get_signing_key_from_jwt(token)
        claims = jwt.decode(
            token, key.key, algorithms=["RS256"], issuer=options.provider,
            options={"verify_aud": False, "require": ["iss", "sub", "exp", "iat"]},  # the hole: no audience check
        )
        if claims["iat"] < time.time() - MAX_AGE:
            raise ValueError("token too old")
        check_nonce(claims, nonce)
        return claims["sub"]

    serve(options.port, verify)


if __name__ == "__main__":
    main()
