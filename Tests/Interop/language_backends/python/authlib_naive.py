"""authlib-naive: Authlib's authlib.jose written as its documentation shows (JWT guide,
https://docs.authlib.org/en/latest/jose/jwt.html): the key set imported with JsonWebKey.import_key_set,
JsonWebToken(["RS256"]).decode with claims_options naming iss and aud (essential, with their values), then
claims.validate(); plus the nonce check Limited Login requires. Authlib does not fetch key sets, so the JWKS
is fetched and cached by _remote_keys (refetched on an unknown kid). Nothing more."""

import os
import sys

from authlib.jose import JsonWebKey, JsonWebToken

from _remote_keys import RemoteKeySet

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "audit_backends"))
from _serve import arguments, check_nonce, serve  # noqa: E402


def main():
    options = arguments(__doc__)
    keys = RemoteKeySet(options.provider + "/.well-known/oauth/openid/jwks/", JsonWebKey.import_key_set)
    jwt = JsonWebToken(["RS256"])
    claims_options = {
        "iss": {"essential": True, "value": options.provider},
        "aud": {"essential": True, "value": options.app_id},
    }

    def verify(token, nonce):
        try:
            claims = jwt.decode(token, keys.current(), claims_options=claims_options)
        except ValueError:  # Authlib's "Key not found": the kid may be new, refetch the set once
            claims = jwt.decode(token, keys.refreshed(), claims_options=claims_options)
        claims.validate()
        check_nonce(claims, nonce)
        return claims["sub"]

    serve(options.port, verify)


if __name__ == "__main__":
    main()
