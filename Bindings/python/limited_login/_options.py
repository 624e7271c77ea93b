"""``Provider(**options)`` -> the ``limited-login serve`` command line.

Python names map to flags (``no_user_picker=True`` -> ``--no-user-picker``, ``id_token_lifetime=600`` ->
``--id-token-lifetime 600``). A test's provider is throwaway by default: a free port, an in-memory store, and
only warnings logged; any of those can be overridden.
"""

import os
from typing import Dict, List, Mapping

DEFAULTS: Dict[str, object] = {"port": 0, "database": ":memory:", "log_level": "warning"}

# Options the Provider sets itself: it reads the ready file, and must keep the process running until stop().
RESERVED = {
    "ready_file": "the Provider writes and reads its own ready file",
    "exec": "the Provider runs the tests itself; use limited-login serve --exec directly for that",
}

# serve reads LIMITED_LOGIN_<OPTION> variables too (ServeEnvironment.swift). A test run inside another
# provider's `serve --exec` inherits that provider's LIMITED_LOGIN_ISSUER, _ADMIN_TOKEN, ...; they are
# removed so that a Provider is configured by its arguments only.
SERVE_OPTIONS = (
    "host", "port", "database", "issuer", "public-url", "fixtures", "admin-token", "no-demo-data",
    "no-user-picker", "log-level", "log-format", "id-token-lifetime", "access-token-lifetime",
    "data-access-lifetime", "header-timeout", "idle-timeout", "body-timeout", "max-connections", "exec",
    "ready-file", "export-on-exit", "tls", "ca-file", "trusted-proxy", "exit-with-stdin", "request-log",
    "max-connections-per-address", "init",
)


# Options whose values are secrets: given to serve in its environment (readable by its owner only), never on
# its command line, which every local user can read in ``ps`` and /proc/PID/cmdline.
SECRETS = {"admin_token": "LIMITED_LOGIN_ADMIN_TOKEN"}


def flag(name: str) -> str:
    """``id_token_lifetime`` -> ``--id-token-lifetime``."""
    return "--" + name.replace("_", "-")


def serve_arguments(options: Mapping[str, object]) -> List[str]:
    """The flags for ``options`` laid over DEFAULTS. True is a bare flag; False and None leave it out."""
    for name in options:
        if name in RESERVED:
            raise ValueError(f"Provider({name}=...) is not allowed: {RESERVED[name]}")
    merged: Dict[str, object] = dict(DEFAULTS)
    merged.update(options)
    arguments: List[str] = []
    for name, value in merged.items():
        if value is None or value is False or name in SECRETS:
            continue
        if value is True:
            arguments.append(flag(name))
        else:
            text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
            arguments.append(f"{flag(name)}={text}")
    return arguments


def serve_environment(environment: Mapping[str, str], options: Mapping[str, object]) -> Dict[str, str]:
    """``environment`` without the variables ``serve`` would read as options, with the secret ``options``
    (``SECRETS``) added as the variables ``serve`` reads them from."""
    hidden = {"LIMITED_LOGIN_" + name.upper().replace("-", "_") for name in SERVE_OPTIONS}
    result = {key: value for key, value in environment.items() if key not in hidden}
    for name, variable in SECRETS.items():
        value = options.get(name)
        if value is not None and value is not False:
            result[variable] = str(value)
    return result
