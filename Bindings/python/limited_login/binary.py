"""Where the ``limited-login`` binary is.

The wheel installs the real binary as a script (``limited_login-<v>.data/scripts/limited-login``, as ruff
and uv do), so pip puts it in the environment's ``bin/`` next to ``python``; the Python package only runs it.
"""

import os
import shutil
import sysconfig

from .errors import ProviderError

BINARY_NAME = "limited-login"
ENVIRONMENT_VARIABLE = "LIMITED_LOGIN_BINARY"


def binary_path() -> str:
    """The binary to run, first found of:

    1. ``$LIMITED_LOGIN_BINARY`` (a development build, or another version on purpose);
    2. the current environment's scripts directory (where the wheel put it), even when that directory is
       not on PATH (a venv that was not activated);
    3. ``limited-login`` on PATH.
    """
    configured = os.environ.get(ENVIRONMENT_VARIABLE)
    if configured:
        if not os.path.isfile(configured) or not os.access(configured, os.X_OK):
            raise ProviderError(f"{ENVIRONMENT_VARIABLE}={configured} is not an executable file")
        return configured
    scripts = sysconfig.get_path("scripts")
    if scripts:
        candidate = os.path.join(scripts, BINARY_NAME)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(BINARY_NAME)
    if found:
        return found
    raise ProviderError(
        f"cannot find the {BINARY_NAME} binary: install the limited_login wheel for this platform "
        f"(pip install limited_login), put {BINARY_NAME} on PATH, or set {ENVIRONMENT_VARIABLE} to its path"
    )
