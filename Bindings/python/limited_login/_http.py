"""The admin API over HTTP, with the standard library only.

The provider listens on loopback, so requests go straight to it: proxies from ``http_proxy`` and friends
are ignored (a CI machine's proxy would otherwise be asked for 127.0.0.1 and answer with its own error).
"""

import json
import ssl
import urllib.error
import urllib.request
from typing import Any, List, Optional

from .errors import ProviderError

DEFAULT_TIMEOUT = 30.0


class AdminClient:
    """Calls ``/_admin/...`` with the admin token and turns the provider's JSON errors into ProviderError."""

    def __init__(self, base_url: str, admin_token: str, ssl_context: Optional[ssl.SSLContext] = None,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/")
        self._admin_token = admin_token
        self._timeout = timeout
        handlers: List[urllib.request.BaseHandler] = [urllib.request.ProxyHandler({})]
        if ssl_context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=ssl_context))
        self._opener = urllib.request.build_opener(*handlers)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """``method path`` with ``body`` as JSON (None: no body); the answer's JSON, None when it is empty."""
        if not path.startswith("/"):
            path = "/" + path
        headers = {"Authorization": f"Bearer {self._admin_token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers, method=method.upper())
        try:
            with self._opener.open(request, timeout=self._timeout) as response:
                return _decode(response.read(), method, path)
        except urllib.error.HTTPError as error:
            raise ProviderError(_error_message(error, method, path), status=error.code) from None
        except urllib.error.URLError as error:
            raise ProviderError(f"cannot reach the provider at {self.base_url}: {error.reason}") from None
        except OSError as error:  # a timeout or a reset connection after the request was sent
            raise ProviderError(f"{method.upper()} {path} on {self.base_url} failed: {error}") from None


def _decode(raw: bytes, method: str, path: str) -> Any:
    if not raw.strip():
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        raise ProviderError(f"{method.upper()} {path} answered something that is not JSON") from None


def _error_message(error: urllib.error.HTTPError, method: str, path: str) -> str:
    """The provider's ``{"error": {"message": ...}}``, else the status line and the start of the body."""
    try:
        raw = error.read()
    except OSError:
        raw = b""
    try:
        message = json.loads(raw.decode("utf-8"))["error"]["message"]
        if isinstance(message, str) and message:
            return message
    except (ValueError, KeyError, TypeError):
        pass
    text = raw.decode("utf-8", "replace").strip().splitlines()
    detail = f": {text[0][:200]}" if text else ""
    return f"{method.upper()} {path} failed with HTTP {error.code} {error.reason}{detail}"
