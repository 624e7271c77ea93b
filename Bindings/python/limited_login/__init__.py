"""A Facebook Limited Login provider for Python tests, in one ``pip install``.

The wheel carries the ``limited-login`` binary; this package starts it (``Provider``), drives its admin
API (tokens, defective tokens, scenarios, the clock, export) and plays headless logins on its real pages.
With pytest, the ``limited_login`` and ``limited_login_session`` fixtures are there without an import.
"""

from ._build_info import _REQUIRED_GLIBC, _VERSION
from ._glibc import check as _check_glibc

_check_glibc(_REQUIRED_GLIBC)

from .binary import binary_path  # noqa: E402  (after the glibc check: nothing runs on a system that fails it)
from .clock import Clock  # noqa: E402
from .errors import ProviderError  # noqa: E402
from .provider import Provider  # noqa: E402
from .token import Token  # noqa: E402

__version__ = _VERSION

__all__ = ["Clock", "Provider", "ProviderError", "Token", "binary_path", "__version__"]
