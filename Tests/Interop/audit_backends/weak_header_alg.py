"""DELIBERATELY WEAK audit target: verifies by hand the way vulnerable old JWT libraries did, trusting the
header's `alg`: `none` (any case) is accepted without a signature; `HS256`/`HS384`/`HS512` are checked as an
HMAC keyed with the provider's public key as PEM (SubjectPublicKeyInfo, as `cryptography` serializes it,
and that text without its final newline, as an app that keeps the key in a stripped string has it), the
key confusion; `RS256` is a proper RSA check with the kid's key from the JWKS. Then iss, aud and exp are
checked properly, and the nonce is compared with `X-Nonce` when that header comes."""

import base64
import hashlib
import hmac
import json
import time

import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from jwt.algorithms import RSAAlgorithm

from _serve import arguments, serve, check_nonce

HMACS = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}


def b64url(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def main():
    options = arguments(__doc__)
    jwks_url = options.provider + "/.well-known/oauth/openid/jwks/"

    def public_key(kid):
        published = requests.get(jwks_url, timeout=10).json()["keys"]
        for jwk in published:
            if kid is None or jwk.get("kid") == kid:  # no kid: the first key, as a one-key library had
                return RSAAlgorithm.from_jwk(json.dumps(jwk))
        raise ValueError(f"no key {kid!r}")

    def verify(token, nonce):
        header_segment, payload_segment, signature_segment = token.split(".")
        header = json.loads(b64url(header_segment))
        signing_input = f"{header_segment}.{payload_segment}".encode()
        signature = b64url(signature_segment)
        alg = str(header.get("alg"))
        if alg.lower() == "none":
            pass  # the hole: whatever the header says goes
        elif alg in HMACS:
            pem = public_key(header.get("kid")).public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            if not any(hmac.compare_digest(hmac.new(secret, signing_input, HMACS[alg]).digest(), signature)
                       for secret in (pem, pem.rstrip(b"\n"))):
                raise ValueError("bad HMAC")
        elif alg == "RS256":
            if "kid" not in header:
                raise ValueError("no kid")
            public_key(header["kid"]).verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        else:
            raise ValueError(f"unsupported alg {alg}")
        claims = json.loads(b64url(payload_segment))
        if claims.get("iss") != options.provider:
            raise ValueError("wrong issuer")
        if claims.get("aud") != options.app_id:
            raise ValueError("wrong audience")
        if not isinstance(claims.get("exp"), (int, float)) or claims["exp"] <= time.time():
            raise ValueError("expired or no exp")
        check_nonce(claims, nonce)
        return claims["sub"]

    serve(options.port, verify)


if __name__ == "__main__":
    main()
