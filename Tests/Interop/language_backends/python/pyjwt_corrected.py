"""pyjwt-corrected: pyjwt-naive plus what PyJWT 2.15 needs to pass the audit with no hole and no warning.

Library options (jwt.decode): `options={"require": [exp, iat, iss, aud, sub, jti], "strict_aud": True}` refuses a
token without exp (no-exp, the naive one's hole) or iat (no-iat) and a list of audiences (audience-list);
`leeway=60` keeps expired-past-leeway refused. A `jwt.PyJWT` subclass overriding `_decode_payload` (the hook
PyJWT documents for subclasses) parses the payload refusing a name twice (duplicate-claim).
Hand checks, where PyJWT has no option: the token's shape (signature-base64-padding; huge-token, which the
stdlib server already answers 431), typ must be JWT (typ-not-jwt), iat at most an hour ago (too-old), sub and
jti not empty (empty-sub, empty-jti)."""

import json
import os
import sys

import jwt

from _strict import check_age, check_shape, refuse_duplicates

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "audit_backends"))
from _serve import arguments, check_nonce, serve  # noqa: E402


class StrictPyJWT(jwt.PyJWT):
    """PyJWT whose payload parser refuses a JSON name given twice."""

    def _decode_payload(self, decoded):
        try:
            payload = json.loads(decoded["payload"], object_pairs_hook=refuse_duplicates)
        except ValueError as error:
            raise jwt.DecodeError(f"Invalid payload: {error}") from error
        if not isinstance(payload, dict):
            raise jwt.DecodeError("Invalid payload: not a JSON object")
        return payload


def main():
    options = arguments(__doc__)
    # recipe:begin (docs/AUDIT.md shows this part, word for word)
    jwks_client = jwt.PyJWKClient(options.provider + "/.well-known/oauth/openid/jwks/")
    decoder = StrictPyJWT()

    def verify(token, nonce):
        check_shape(token)
        signing_key = jwks_client.get_signing_key_from_jwt(token)
        decoded = decoder.decode_complete(
            token, signing_key.key, algorithms=["RS256"], audience=options.app_id, issuer=options.provider, leeway=60,
            options={"require": ["exp", "iat", "iss", "aud", "sub", "jti"], "strict_aud": True},
        )
        claims = decoded["payload"]
        if decoded["header"].get("typ") != "JWT":
            raise ValueError("typ is not JWT")
        check_age(claims)
        if not claims["sub"] or not claims["jti"]:
            raise ValueError("empty sub or jti")
        check_nonce(claims, nonce)
        return claims["sub"]
    # recipe:end

    serve(options.port, verify)


if __name__ == "__main__":
    main()
