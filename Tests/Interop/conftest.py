"""A real `limited-login serve` for the interop suites, started from the package's built binary."""

import collections
import json
import os
import re
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from urllib.parse import urlencode

import pytest
import requests

from dialog_person import DialogPerson, callback_parameters

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("LIMITED_LOGIN_BIN", os.path.join(ROOT, ".build", "debug", "limited-login"))
DEMO_APP = "1000000000000001"
ADMIN_TOKEN = "interop-admin-token"
ARTIFACTS = os.path.join(ROOT, "test-artifacts")


class Provider:
    def __init__(self, folder):
        self.folder = folder
        self.database = os.path.join(folder, "provider.sqlite")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", "0", "--database", self.database, "--admin-token", ADMIN_TOKEN],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.base_url = None
        output = ""
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            output += line
            match = re.match(r"Limited Login provider running at (\S+)", line)
            if match:
                self.base_url = match.group(1)
            if "(Ctrl-C stops)" in line and self.base_url:
                # Keep reading what it logs (a line per request): a pipe nobody reads fills at 64 KiB and
                # then blocks the provider (seen: after a few audits, every request to it timed out).
                self.log_tail = collections.deque(maxlen=200)
                threading.Thread(target=lambda: self.log_tail.extend(self.process.stdout), daemon=True).start()
                return
        self.stop()
        raise RuntimeError(f"serve did not start: {output}")

    @property
    def jwks_url(self):
        return self.base_url + "/.well-known/oauth/openid/jwks/"

    @property
    def discovery_url(self):
        return self.base_url + "/.well-known/openid-configuration"

    def dialog_url(self, nonce, scope="openid,email", limited=True, response_type="id_token", redirect_uri=None, state="s1"):
        parameters = {
            "client_id": DEMO_APP, "redirect_uri": redirect_uri or f"fb{DEMO_APP}://authorize/",
            "response_type": response_type, "scope": scope, "nonce": nonce, "state": state,
        }
        if limited:
            parameters["tp"] = "ios_14_do_not_track"
        return self.base_url + "/v21.0/dialog/oauth?" + urlencode(parameters)

    def id_token(self, nonce, person=None):
        """Logs Alice in (limited) through the dialog over HTTP and returns the ID token."""
        person = person or DialogPerson()
        location = person.log_in(self.dialog_url(nonce), f"fb{DEMO_APP}://authorize/")
        return callback_parameters(location)["id_token"]

    def admin(self, method, path, **kwargs):
        return requests.request(method, self.base_url + path, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=20, **kwargs)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture(scope="session")
def binary():
    assert os.access(BINARY, os.X_OK), f"{BINARY} is not built: run `swift build` first (scripts/test does)"
    return BINARY


def _running_provider():
    running = Provider(tempfile.mkdtemp(prefix="limited-login-interop-"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def provider(binary):
    yield from _running_provider()


@pytest.fixture
def fresh_provider(binary):
    """A provider of its own, for a test that changes the keys."""
    yield from _running_provider()


@pytest.fixture
def nonce():
    return "interop-" + uuid.uuid4().hex


def run_verify(binary, token, *arguments):
    """Our verifier, as a user runs it: `limited-login verify`."""
    return subprocess.run([binary, "verify", token, *arguments], capture_output=True, text=True, timeout=60)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def retire_past_window(provider, old_kid):
    """Moves a retired key's retirement back past the retention window (token lifetime + 5 minutes), as
    if that much time had passed, and waits for the provider's next reread (every 5 s) to drop it."""
    import sqlite3
    connection = sqlite3.connect(provider.database, timeout=10)
    connection.execute("UPDATE ll_signing_keys SET retired_at = retired_at - 4000 WHERE key_id = ?", (old_kid,))
    connection.commit()
    connection.close()
    deadline = time.time() + 15
    while time.time() < deadline:
        kids = [key["kid"] for key in requests.get(provider.jwks_url, timeout=10).json()["keys"]]
        if old_kid not in kids:
            return
        time.sleep(0.5)
    raise AssertionError(f"{old_kid} is still published")


def rotate_now(provider):
    response = provider.admin("POST", "/_admin/keys/rotate", data={"publish_delay": "0"})
    assert response.status_code == 200, response.text
    return response.json()
