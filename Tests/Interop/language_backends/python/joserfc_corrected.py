"""joserfc-corrected: joserfc-naive plus what joserfc 1.8 needs to pass the audit with no hole and no warning.

Library options: the JWTClaimsRegistry also names exp and iat essential (no-exp, the naive one's hole; no-iat)
and sub and jti essential, which refuses them blank (empty-sub, empty-jti), with leeway=60; jwt.decode's
`decoder_cls` takes a JSONDecoder refusing a name twice (duplicate-claim).
Hand checks, where joserfc has no option: aud one string (audience-list: the registry passes a list holding
the app), typ JWT (typ-not-jwt), a kid in the header (missing-kid: joserfc takes the only key of a one-key set
when kid is absent), iat at most an hour ago (too-old), and the token's length (huge-token, which the stdlib
server already answers 431; joserfc's own base64url decoding is strict)."""

import json
import os
import sys

from joserfc import jwt
from joserfc.errors import InvalidKeyIdError
from joserfc.jwk import KeySet

from _remote_keys import RemoteKeySet
from _strict import MAX_TOKEN_LENGTH, check_age, refuse_duplicates

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "audit_backends"))
from _serve import arguments, check_nonce, serve  # noqa: E402


class StrictDecoder(json.JSONDecoder):
    """json's decoder refusing a name given twice in an object."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs, object_pairs_hook=refuse_duplicates)


def main():
    options = arguments(__doc__)
    # recipe:begin (docs/AUDIT.md shows this part, word for word)
    keys = RemoteKeySet(options.provider + "/.well-known/oauth/openid/jwks/", KeySet.import_key_set)
    claims_requests = jwt.JWTClaimsRegistry(
        leeway=60,
        iss={"essential": True, "value": options.provider},
        aud={"essential": True, "value": options.app_id},
        exp={"essential": True}, iat={"essential": True}, sub={"essential": True}, jti={"essential": True},
    )

    def verify(value, nonce):
        if len(value) > MAX_TOKEN_LENGTH:
            raise ValueError("token too long")
        try:
            token = jwt.decode(value, keys.current(), algorithms=["RS256"], decoder_cls=StrictDecoder)
        except InvalidKeyIdError:  # the kid may be new: refetch the set once
            token = jwt.decode(value, keys.refreshed(), algorithms=["RS256"], decoder_cls=StrictDecoder)
        claims_requests.validate(token.claims)
        if not isinstance(token.claims["aud"], str) or token.header.get("typ") != "JWT" or "kid" not in token.header:
            raise ValueError("aud not one string, typ not JWT or no kid")
        check_age(token.claims)
        check_nonce(token.claims, nonce)
        return token.claims["sub"]
    # recipe:end

    serve(options.port, verify)


if __name__ == "__main__":
    main()
