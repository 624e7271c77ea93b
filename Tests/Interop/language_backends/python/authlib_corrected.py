"""authlib-corrected: authlib-naive plus what Authlib's authlib.jose needs to pass the audit with no hole and no
warning.

Library options (claims_options, then claims.validate(leeway=60)): exp and iat essential (no-exp, the naive
one's hole; no-iat), sub and jti essential, which also refuses them empty (empty-sub, empty-jti).
Hand checks, where Authlib has no option: the token's shape and canonical base64url (signature-base64-padding,
signature-standard-base64, non-canonical-base64url; huge-token, which the stdlib server already answers 431),
aud one string (audience-list: Authlib passes a list holding the app), typ JWT (typ-not-jwt), a kid in the
header (missing-kid: Authlib takes the only key of a one-key set when kid is absent), iat at most an hour ago
(too-old), and the payload parsed again refusing a name twice (duplicate-claim: Authlib's parser keeps the
last)."""

import os
import sys

from authlib.jose import JsonWebKey, JsonWebToken

from _remote_keys import RemoteKeySet
from _strict import check_age, check_shape, payload_without_duplicates

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "audit_backends"))
from _serve import arguments, check_nonce, serve  # noqa: E402


def main():
    options = arguments(__doc__)
    # recipe:begin (docs/AUDIT.md shows this part, word for word)
    keys = RemoteKeySet(options.provider + "/.well-known/oauth/openid/jwks/", JsonWebKey.import_key_set)
    jwt = JsonWebToken(["RS256"])
    claims_options = {
        "iss": {"essential": True, "value": options.provider},
        "aud": {"essential": True, "value": options.app_id},
        "exp": {"essential": True},
        "iat": {"essential": True},
        "sub": {"essential": True},
        "jti": {"essential": True},
    }

    def verify(token, nonce):
        check_shape(token, canonical=True)
        try:
            claims = jwt.decode(token, keys.current(), claims_options=claims_options)
        except ValueError:  # Authlib's "Key not found": the kid may be new, refetch the set once
            claims = jwt.decode(token, keys.refreshed(), claims_options=claims_options)
        claims.validate(leeway=60)
        if not isinstance(claims["aud"], str) or claims.header.get("typ") != "JWT" or "kid" not in claims.header:
            raise ValueError("aud not one string, typ not JWT or no kid")
        check_age(claims)
        payload_without_duplicates(token)
        check_nonce(claims, nonce)
        return claims["sub"]
    # recipe:end

    serve(options.port, verify)


if __name__ == "__main__":
    main()
