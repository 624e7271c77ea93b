"""Runs the suite against the installed wheel when there is one, else against the source tree.

Installed, the wheel's pytest11 entry point provides the fixtures and its binary is on the environment's
PATH. From the source tree, the package is imported from Bindings/python, the plugin is loaded here, and
LIMITED_LOGIN_BINARY must name a binary (e.g. .build/debug/limited-login).
"""

import importlib.util
import os
import sys

if importlib.util.find_spec("limited_login") is None:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    pytest_plugins = ["limited_login.pytest_plugin"]

# The providers listen on 127.0.0.1; a CI machine's proxy variables must not send PyJWT's key fetches there.
for _name in ("NO_PROXY", "no_proxy"):
    os.environ[_name] = ",".join(part for part in (os.environ.get(_name), "127.0.0.1", "localhost") if part)
