"""A minted token, as ``POST /_admin/tokens`` answers it."""

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional


@dataclass(frozen=True)
class Token:
    """An ID token (and, for a classic login, an access token) the provider issued without a browser.

    ``claims`` are the ID token's decoded claims as the provider reports them (no need to decode the JWT to
    read ``sub`` or ``nonce``); ``raw`` is the whole answer, for fields this class does not name
    (``granted_scopes``, ``expires_in``, ``defect``, ...).
    """

    id_token: str
    access_token: Optional[str] = None
    claims: Dict[str, Any] = field(default_factory=dict)
    raw: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_answer(cls, answer: Mapping[str, Any]) -> "Token":
        return cls(
            id_token=str(answer["id_token"]),
            access_token=answer.get("access_token"),
            claims=dict(answer.get("claims") or {}),
            raw=dict(answer),
        )

    def __str__(self) -> str:
        """The ID token itself, so a Token can go straight into an ``Authorization`` header."""
        return self.id_token
