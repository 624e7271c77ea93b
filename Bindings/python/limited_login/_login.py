"""A headless login: ``limited-login login --as EMAIL`` plays the person on the provider's real pages.

Unlike a minted token, this goes through the dialog (sign-in, consent, the redirect, the code or token
answer, the ID token's verification with the published keys and the nonce), so queued scenarios and
``--no-user-picker`` apply to it as they would to a person.
"""

import json
import os
import subprocess
import tempfile
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from .errors import ProviderError

LOGIN_TIMEOUT = 120.0


def login_command(binary: str, provider_url: str, app_id: str, user: str, state_file: str, *,
                  permissions: Union[str, Iterable[str]], nonce: Optional[str], tracking: str,
                  untick: Union[str, Iterable[str], None], cancel: bool) -> List[str]:
    """The command line for one login; the saved login goes to ``state_file``, never the user's own."""
    command = [
        binary, "login", f"--app-id={app_id}", f"--provider={provider_url}", f"--as={user}",
        f"--permissions={_names(permissions) or 'public_profile'}", f"--tracking={tracking}",
        f"--state-file={state_file}", f"--timeout={LOGIN_TIMEOUT:g}", "--json",
    ]
    if nonce is not None:
        command.append(f"--nonce={nonce}")
    # ``password`` is given in the environment (LIMITED_LOGIN_PASSWORD, run by the Provider), never here: a
    # command line is readable by every local user.
    if untick:
        command.append(f"--untick={_names(untick)}")
    if cancel:
        command.append("--cancel")
    return command


def run_login(command: List[str], environment: Mapping[str, str], directory: str) -> Dict[str, Any]:
    """Runs ``command`` and returns its JSON. A cancelled login (``--cancel``, or a queued cancel scenario)
    exits non-zero but is an outcome, not an error: ``{"cancelled": true}`` is returned."""
    state_file = _argument(command, "--state-file=")
    try:
        result = subprocess.run(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(environment), timeout=LOGIN_TIMEOUT + 10,
        )
    except subprocess.TimeoutExpired:
        raise ProviderError(f"the headless login did not finish within {LOGIN_TIMEOUT + 10:g} s") from None
    except OSError as error:
        raise ProviderError(f"cannot run {command[0]}: {error.strerror or error}") from None
    finally:
        if state_file and os.path.dirname(state_file) == directory and os.path.exists(state_file):
            os.unlink(state_file)
    answer = _json_object(result.stdout)
    if result.returncode == 0 and answer is not None:
        return answer
    if answer is not None and answer.get("cancelled") is True:
        return answer
    raise ProviderError(_last_line(result.stderr) or f"limited-login login exited with status {result.returncode}")


def state_file_in(directory: str) -> str:
    """A fresh name for one login's saved state inside the provider's temporary directory."""
    handle, path = tempfile.mkstemp(prefix="login-", suffix=".json", dir=directory)
    os.close(handle)
    os.unlink(path)
    return path


def _names(value: Union[str, Iterable[str]]) -> str:
    return value if isinstance(value, str) else ",".join(value)


def _argument(command: List[str], prefix: str) -> Optional[str]:
    return next((part[len(prefix):] for part in command if part.startswith(prefix)), None)


def _json_object(raw: bytes) -> Optional[Dict[str, Any]]:
    try:
        value = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _last_line(raw: bytes) -> Optional[str]:
    """The CLI's one-line error, without its ``error:`` prefix (the exception says it is one)."""
    lines = [line.strip() for line in raw.decode("utf-8", "replace").splitlines() if line.strip()]
    if not lines:
        return None
    last = lines[-1]
    return last[len("error: "):] if last.startswith("error: ") else last
