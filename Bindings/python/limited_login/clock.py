"""The provider's clock (``/_admin/clock``), which tests move instead of sleeping.

It moves everything the provider decides: token ``iat``/``exp``, access-token and data-access expiry,
sessions, codes and key rotation. Verifiers that check ``exp`` against the real time are not moved: a token
minted after ``advance(7200)`` is two hours in the future for them.
"""

import datetime
from typing import Any, Callable, Dict, Union

Seconds = Union[int, float, datetime.timedelta]
Moment = Union[int, float, datetime.datetime]
AdminCall = Callable[..., Any]


class Clock:
    """``advance``, ``set`` and ``reset`` each return the clock as the provider then shows it
    (``now``, ``iso8601``, ``offset``, ``system_now``, ``latest_issued_at``)."""

    def __init__(self, admin: AdminCall) -> None:
        self._admin = admin

    def show(self) -> Dict[str, Any]:
        """The clock as ``GET /_admin/clock`` answers."""
        return dict(self._admin("GET", "/_admin/clock"))

    def now(self) -> int:
        """The provider's time, in seconds since 1970."""
        return int(self.show()["now"])

    def advance(self, seconds: Seconds, *, force: bool = False) -> Dict[str, Any]:
        """Moves the clock forward (back, with a negative amount; ``force`` lets it go before issued tokens)."""
        return self._move({"advance": _whole(seconds)}, force)

    def set(self, epoch_seconds: Moment, *, force: bool = False) -> Dict[str, Any]:
        """Sets the clock to a time: seconds since 1970, or an aware datetime."""
        if isinstance(epoch_seconds, datetime.datetime):
            epoch_seconds = epoch_seconds.timestamp()
        return self._move({"set": _whole(epoch_seconds)}, force)

    def reset(self, force: bool = False) -> Dict[str, Any]:
        """Back to the system's time. The provider always allows this; ``force`` is sent for symmetry."""
        return self._move({"reset": True}, force)

    def _move(self, body: Dict[str, Any], force: bool) -> Dict[str, Any]:
        if force:
            body["force"] = True
        return dict(self._admin("POST", "/_admin/clock", body))


def _whole(value: Seconds) -> Union[int, float]:
    """Whole seconds as an int; a fraction is passed on for the provider to refuse in its own words."""
    if isinstance(value, datetime.timedelta):
        value = value.total_seconds()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
