"""``Provider``: a throwaway ``limited-login serve`` for one test (or one session), driven from Python."""

import os
import ssl
import weakref
from typing import Any, Callable, Dict, List, Mapping, Optional

from ._http import AdminClient
from ._login import login_command, run_login, state_file_in
from ._minting import Permissions, check_applied, mint_body
from ._options import serve_arguments, serve_environment
from ._serve import ServeProcess, make_directory
from .binary import binary_path
from .clock import Clock
from .errors import ProviderError
from .token import Token

DEFAULT_START_TIMEOUT = 30.0


class Provider:
    """A provider process on a free port with an in-memory store, the demo app and its three test users.

    ``Provider(**serve_options)`` takes ``limited-login serve``'s options with underscores
    (``Provider(no_user_picker=True, id_token_lifetime=600, fixtures="f.json")``); ``binary`` runs another
    binary than the installed one, ``start_timeout`` bounds the wait for it to accept connections.
    Use it in a ``with`` block, or call ``start()`` and ``stop()``; a provider left running is stopped when
    the object is collected or the interpreter exits.
    """

    def __init__(self, *, binary: Optional[str] = None, start_timeout: float = DEFAULT_START_TIMEOUT,
                 **serve_options: Any) -> None:
        self._binary = binary
        self._start_timeout = start_timeout
        self._options = dict(serve_options)
        self._arguments = serve_arguments(self._options)  # refuses reserved options before anything runs
        self._serve: Optional[ServeProcess] = None
        self._client: Optional[AdminClient] = None
        self._ready: Dict[str, Any] = {}
        self._ca_file: Optional[str] = None
        self._finalizer: Optional[Callable[[], object]] = None  # a weakref.finalize: stops it at most once
        self.clock = Clock(self.admin)

    # -- lifecycle --------------------------------------------------------------------------------------

    def start(self) -> "Provider":
        """Starts the provider and waits until it accepts connections; raises ProviderError with the
        provider's own message when it cannot start (a port in use, a bad fixtures file, ...)."""
        if self._serve is not None:
            raise ProviderError("this provider is already started; stop() it first")
        binary = self._binary or binary_path()
        directory = make_directory()
        arguments = list(self._arguments)
        if self._options.get("tls"):
            # With --tls the provider serves HTTPS under its own CA: have it written out, to trust it here.
            self._ca_file = os.fspath(self._options.get("ca_file") or os.path.join(directory, "ca.pem"))
            if not self._options.get("ca_file"):
                arguments.append(f"--ca-file={self._ca_file}")
        serve = ServeProcess(binary, arguments, serve_environment(os.environ, self._options), self._start_timeout, directory)
        self._serve = serve
        self._finalizer = weakref.finalize(self, serve.close)
        self._ready = serve.ready
        context = ssl.create_default_context(cafile=self._ca_file) if self._ca_file else None
        self._client = AdminClient(str(serve.ready["url"]), str(serve.ready["admin_token"]), context)
        return self

    def stop(self) -> None:
        """Stops the provider (SIGTERM, then SIGKILL after 5 s) and removes its temporary files."""
        if self._finalizer is not None:
            self._finalizer()
        self._finalizer = None
        self._serve = None
        self._client = None

    def __enter__(self) -> "Provider":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """Whether the provider process is still alive."""
        return self._serve is not None and self._serve.running()

    def __repr__(self) -> str:
        if self._serve is None:
            return "<limited_login.Provider (not started)>"
        return f"<limited_login.Provider {self.url} ({'running' if self.running else 'exited'})>"

    # -- what the ready file says -----------------------------------------------------------------------

    @property
    def ready(self) -> Dict[str, Any]:
        """The whole ready file: url, issuer, discovery_url, jwks_url, certs_url, admin_token, apps, users."""
        self._require_started()
        return dict(self._ready)

    @property
    def url(self) -> str:
        """The base URL, e.g. ``http://127.0.0.1:41234``."""
        return str(self.ready["url"])

    @property
    def issuer(self) -> str:
        """The ``iss`` of the tokens it issues (the base URL unless ``issuer=`` was given)."""
        return str(self.ready["issuer"])

    @property
    def discovery_url(self) -> str:
        return str(self.ready["discovery_url"])

    @property
    def jwks_url(self) -> str:
        return str(self.ready["jwks_url"])

    @property
    def certs_url(self) -> str:
        return str(self.ready["certs_url"])

    @property
    def admin_token(self) -> str:
        return str(self.ready["admin_token"])

    @property
    def apps(self) -> List[Dict[str, Any]]:
        """The apps at start: ``{"id", "name", "secret"}`` each."""
        return list(self.ready.get("apps") or [])

    @property
    def users(self) -> List[Dict[str, Any]]:
        """The test users at start: ``{"id", "email", "name"}`` each, oldest first."""
        return list(self.ready.get("users") or [])

    @property
    def app_id(self) -> str:
        """The first app's ID (the demo app, 1000000000000001, unless fixtures or no_demo_data say otherwise)."""
        apps = self.apps
        if not apps:
            raise ProviderError("the provider has no apps: load some with fixtures=, or create one with admin()")
        return str(apps[0]["id"])

    @property
    def ca_file(self) -> Optional[str]:
        """With ``tls=True``: the provider's CA certificate (PEM), for clients that must trust it."""
        return self._ca_file

    # -- the admin API ----------------------------------------------------------------------------------

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        """Any admin API call: ``admin("POST", "/_admin/users", {...})``; the answer's JSON."""
        self._require_started()
        assert self._client is not None
        return self._client.call(method, path, body)

    def token(self, user: Optional[str] = None, nonce: Optional[str] = None, *, app_id: Optional[str] = None,
              permissions: Optional[Permissions] = None, tracking: str = "limited", defect: Optional[str] = None,
              claims: Optional[Mapping[str, Any]] = None, lifetime: Optional[int] = None,
              raw_nonce: Optional[str] = None, iat: Optional[int] = None, exp: Optional[int] = None,
              subject: Optional[str] = None) -> Token:
        """An ID token without a browser (``POST /_admin/tokens``), recorded as a consent would be.

        ``user`` is an ID or email (default: the first test user); ``defect`` one of ``defects()`` for a token
        wrong in that one way; ``tracking="enabled"`` adds an access token. ``claims`` adds or replaces claims
        (None removes one), ``lifetime`` sets ``exp`` from ``iat``, ``iat``/``exp`` set those times,
        ``raw_nonce`` puts its SHA-256 hex in the token. ``subject`` (in place of ``user``) mints for a ``sub``
        no stored user has, with a stand-in "Test User" profile (limited tracking only). A provider that does not apply one of these raises
        ProviderError rather than handing back a token that silently differs from the one asked for.
        """
        body = mint_body(
            app_id or self.app_id, user if user is not None or subject is not None else self._first_user_email(), tracking,
            subject=subject, nonce=nonce, raw_nonce=raw_nonce,
            permissions=permissions, defect=defect, claims=claims, lifetime=lifetime, iat=iat, exp=exp,
        )
        token = Token.from_answer(self.admin("POST", "/_admin/tokens", body))
        check_applied(body, token.claims)
        return token

    def defects(self) -> List[str]:
        """The names ``token(defect=...)`` takes (``GET /_admin/tokens/defects``)."""
        answer = self.admin("GET", "/_admin/tokens/defects")
        return [str(defect["name"]) for defect in answer["defects"]]

    def login_as(self, user: str, *, permissions: Permissions = ("email",), nonce: Optional[str] = None,
                 tracking: str = "limited", app_id: Optional[str] = None, password: Optional[str] = None,
                 untick: Optional[Permissions] = None, cancel: bool = False) -> Dict[str, Any]:
        """A login played headless on the provider's real pages (``limited-login login --as``).

        Returns the CLI's JSON: ``authentication_token.token`` (the ID token, already verified with the
        published keys and the nonce), ``profile``, ``granted``, ``declined``, ``access_token``. A cancelled
        login (``cancel=True`` or a queued cancel scenario) returns ``{"cancelled": True}``.
        """
        self._require_started()
        assert self._serve is not None
        binary = self._binary or binary_path()
        command = login_command(
            binary, self.url, app_id or self.app_id, user, state_file_in(self._serve.directory),
            permissions=permissions, nonce=nonce, tracking=tracking, untick=untick,
            cancel=cancel,
        )
        if self._ca_file:
            # A tls=True provider serves HTTPS under its own CA: the CLI trusts it with --ca-file.
            command.append(f"--ca-file={self._ca_file}")
        # The password in the login's environment, not on its command line (every local user reads those).
        environment = dict(os.environ)
        environment.pop("LIMITED_LOGIN_PASSWORD", None)
        if password is not None:
            environment["LIMITED_LOGIN_PASSWORD"] = password
        return run_login(command, environment, self._serve.directory)

    def scenario(self, outcome: str, *, app_id: Optional[str] = None, user: Optional[str] = None,
                 code: Optional[int] = None, message: Optional[str] = None,
                 claims: Optional[Mapping[str, Any]] = None, error: Optional[str] = None) -> Dict[str, Any]:
        """Queues what the next dialog for the app (and ``user``, if given) does: ``"cancel"``, ``"error"``
        (with ``message``, optionally ``code`` and ``error``) or ``"claims"`` (profile claims replaced).
        Each scenario is used once, in order."""
        body: Dict[str, Any] = {"app_id": app_id or self.app_id, "outcome": outcome}
        optional = {"user": user, "code": code, "message": message, "error": error,
                    "claims": dict(claims) if claims is not None else None}
        body.update({name: value for name, value in optional.items() if value is not None})
        return dict(self.admin("POST", "/_admin/scenarios", body))

    def scenarios(self) -> List[Dict[str, Any]]:
        """The queued scenarios, in order."""
        return list(self.admin("GET", "/_admin/scenarios")["scenarios"])

    def clear_scenarios(self, app_id: Optional[str] = None) -> int:
        """Removes the queued scenarios (only ``app_id``'s when given); how many were removed."""
        path = "/_admin/scenarios" + (f"?app_id={app_id}" if app_id else "")
        return int(self.admin("DELETE", path)["removed"])

    def export(self, include_keys: bool = False) -> Dict[str, Any]:
        """The state as a fixtures file (apps, users, friendships, grants, app-scoped IDs; keys on request),
        which ``Provider(fixtures=path)`` loads back."""
        path = "/_admin/export" + ("?include_keys=true" if include_keys else "")
        return dict(self.admin("GET", path))

    # -- helpers ----------------------------------------------------------------------------------------

    def _require_started(self) -> None:
        if self._serve is None:
            raise ProviderError("the provider is not started: use it in a with block, or call start() first")

    def _first_user_email(self) -> str:
        users = self.users
        if not users:
            raise ProviderError("the provider has no test users: give user=, or load some with fixtures=")
        return str(users[0]["email"])

