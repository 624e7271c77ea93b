"""Hand checks the corrected Python backends add where their library has no option of its own (each backend's
comment says which it uses and for which audit cases).

- `check_shape(token)`: at most 8 KiB (huge-token) and three strict base64url segments, no padding, no + or /
  (signature-base64-padding, signature-standard-base64), each segment canonical, its unused low bits zero
  (non-canonical-base64url).
- `refuse_duplicates`: a json object_pairs_hook refusing a name twice (duplicate-claim).
- `check_age(claims)`: refuse a token issued more than MAX_AGE seconds ago (too-old)."""

import base64
import json
import re
import time

MAX_TOKEN_LENGTH = 8192
MAX_AGE = 3600  # seconds since iat, as Facebook's iOS SDK allows
SEGMENT = r"[A-Za-z0-9_-]+"
TOKEN_SHAPE = re.compile(rf"{SEGMENT}\.{SEGMENT}\.{SEGMENT}")


def check_shape(token, canonical=False):
    if len(token) > MAX_TOKEN_LENGTH or not TOKEN_SHAPE.fullmatch(token):
        raise ValueError("not a compact JWS in strict base64url")
    if canonical:  # re-encoding what the segment decodes to must give the segment back
        for segment in token.split("."):
            decoded = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
            if base64.urlsafe_b64encode(decoded).rstrip(b"=").decode() != segment:
                raise ValueError("non-canonical base64url")


def refuse_duplicates(pairs):
    names = [name for name, _ in pairs]
    if len(names) != len(set(names)):
        raise ValueError("a JSON name appears twice")
    return dict(pairs)


def payload_without_duplicates(token):
    """The token's payload parsed again refusing a repeated name (for a library whose parser cannot)."""
    segment = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)), object_pairs_hook=refuse_duplicates)


def check_age(claims):
    if claims["iat"] + MAX_AGE < time.time():
        raise ValueError("token too old")
