"""joserfc-naive: joserfc written as its documentation shows (JWT guide, https://jose.authlib.org/en/guide/jwt/):
the key set imported with KeySet.import_key_set, jwt.decode(token, key_set, algorithms=["RS256"]), then a
JWTClaimsRegistry naming iss and aud (essential, with their values) validating token.claims; plus the nonce
check Limited Login requires. joserfc does not fetch key sets, so the JWKS is fetched and cached by
_remote_keys (refetched on an unknown kid). Nothing more."""

import os
import sys

from joserfc import jwt
from joserfc.errors import InvalidKeyIdError
from joserfc.jwk import KeySet

from _remote_keys import RemoteKeySet

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "audit_backends"))
from _serve import arguments, check_nonce, serve  # noqa: E402


def main():
    options = arguments(__doc__)
    keys = RemoteKeySet(options.provider + "/.well-known/oauth/openid/jwks/", KeySet.import_key_set)
    claims_requests = jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": options.provider},
        aud={"essential": True, "value": options.app_id},
    )

    def verify(value, nonce):
        try:
            token = jwt.decode(value, keys.current(), algorithms=["RS256"])
        except InvalidKeyIdError:  # the kid may be new: refetch the set once
            token = jwt.decode(value, keys.refreshed(), algorithms=["RS256"])
        claims_requests.validate(token.claims)
        check_nonce(token.claims, nonce)
        return token.claims["sub"]

    serve(options.port, verify)


if __name__ == "__main__":
    main()
