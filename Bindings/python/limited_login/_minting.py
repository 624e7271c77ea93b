"""The body of ``POST /_admin/tokens``, and the check that the token has what was asked for.

Only the options given are sent. ``claims``, ``lifetime``, ``iat``, ``exp`` and ``raw_nonce`` are newer than
the minting API itself: a provider that predates them ignores them without a word and signs an ordinary
token. A test that asked for ``exp`` one second away and got an hour would pass for the wrong reason, so
the answer's claims are compared with the request and a difference is an error.
"""

import hashlib
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from .errors import ProviderError

Permissions = Union[str, Iterable[str]]


def mint_body(app_id: str, user: Optional[str], tracking: str, *, subject: Optional[str] = None,
              nonce: Optional[str] = None,
              raw_nonce: Optional[str] = None, permissions: Optional[Permissions] = None,
              defect: Optional[str] = None, claims: Optional[Mapping[str, Any]] = None,
              lifetime: Optional[int] = None, iat: Optional[int] = None, exp: Optional[int] = None) -> Dict[str, Any]:
    body: Dict[str, Any] = {"app_id": app_id, "tracking": tracking}
    if user is not None:
        body["user"] = user
    if subject is not None:
        body["subject"] = subject
    if permissions is not None:
        body["permissions"] = permissions if isinstance(permissions, str) else list(permissions)
    optional = {"nonce": nonce, "raw_nonce": raw_nonce, "defect": defect, "lifetime": lifetime, "iat": iat, "exp": exp,
                "claims": dict(claims) if claims is not None else None}
    body.update({name: value for name, value in optional.items() if value is not None})
    return body


def check_applied(body: Mapping[str, Any], claims: Mapping[str, Any]) -> None:
    """Raises ProviderError naming the first option of ``body`` that ``claims`` (the answer's) do not show."""
    problems: List[str] = []
    asked = body.get("claims") or {}
    differing = sorted(name for name, value in asked.items() if claims.get(name) != value)
    if differing:
        problems.append(f"claims= (the token differs in {', '.join(differing)})")
    if "subject" in body and claims.get("sub") != body["subject"]:
        problems.append("subject= (the token's sub is not the subject)")
    if "raw_nonce" in body and claims.get("nonce") != hashlib.sha256(body["raw_nonce"].encode("utf-8")).hexdigest():
        problems.append("raw_nonce= (the nonce is not its SHA-256 hex)")
    if "defect" not in body:  # a defect moves iat and exp on purpose
        problems.extend(_time_problems(body, claims))
    if problems:
        raise ProviderError(
            f"the provider did not apply {problems[0]}; this limited-login binary may predate the option"
        )


def _time_problems(body: Mapping[str, Any], claims: Mapping[str, Any]) -> List[str]:
    issued, expires = claims.get("iat"), claims.get("exp")
    if not isinstance(issued, (int, float)) or not isinstance(expires, (int, float)):
        return []
    problems = []
    if "iat" in body and issued != body["iat"]:
        problems.append(f"iat={body['iat']} (the token's iat is {int(issued)})")
    if "exp" in body and expires != body["exp"]:
        problems.append(f"exp={body['exp']} (the token's exp is {int(expires)})")
    if "lifetime" in body and expires - issued != body["lifetime"]:
        problems.append(f"lifetime={body['lifetime']} (the token lasts {int(expires - issued)} s)")
    return problems
