"""The one exception the package raises for things that go wrong on the provider's side."""

from typing import Optional


class ProviderError(Exception):
    """The provider refused something, could not start, or could not be reached.

    ``message`` is the provider's own one-line explanation when it gave one (the admin API answers
    ``{"error": {"message": ...}}``, the CLI prints one line to standard error), so a failing test shows
    the cause rather than a stack of HTTP plumbing. ``status`` is the HTTP status of an admin API answer,
    None when no HTTP answer was involved (start-up, a headless login, a missing binary).
    """

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status

    def __str__(self) -> str:
        return self.message if self.status is None else f"{self.message} (HTTP {self.status})"
