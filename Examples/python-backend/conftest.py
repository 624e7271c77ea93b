"""Only for running this example from the repository: with the wheel installed, pytest finds the
``limited_login`` fixture by itself and this file does nothing."""

import importlib.metadata
import os
import sys

if not any(entry.value.startswith("limited_login") for entry in importlib.metadata.entry_points(group="pytest11")):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Bindings", "python"))
    pytest_plugins = ["limited_login.pytest_plugin"]

# The provider listens on 127.0.0.1: a machine's proxy variables must not send PyJWT's key fetches elsewhere.
os.environ["NO_PROXY"] = os.environ["no_proxy"] = ",".join(filter(None, (os.environ.get("NO_PROXY"), "127.0.0.1")))
