"""One ``limited-login serve`` process: started, awaited through its ready file, stopped.

The provider writes the ready file (a JSON object with its addresses, admin token, apps and users) once it
accepts connections, by renaming a finished file into place, so seeing the file means the provider is up
and the file is whole. Standard error goes to a file, not a pipe: a pipe nobody reads fills up and stalls a
long-running provider; the file is read for the last line when the provider fails.
"""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Any, Dict, List, Mapping, Optional

from .errors import ProviderError

POLL_INTERVAL = 0.02
STOP_GRACE = 5.0


class ServeProcess:
    """A running provider and its temporary directory (made with ``make_directory``), which holds the ready
    file and standard error and is removed with them by ``close``."""

    def __init__(self, binary: str, arguments: List[str], environment: Mapping[str, str],
                 timeout: float, directory: str) -> None:
        self.directory = directory
        self.ready_path = os.path.join(self.directory, "ready.json")
        self._stderr_path = os.path.join(self.directory, "stderr.log")
        # --exit-with-stdin: the provider stops when its standard input closes, which the kernel does when this
        # process ends however it ends (SIGKILL, a CI runner's timeout): no provider outlives its test run.
        command = [binary, "serve", *arguments, f"--ready-file={self.ready_path}", "--exit-with-stdin"]
        self.process: "Optional[subprocess.Popen[bytes]]" = None
        try:
            # The child gets its own descriptor for the file; this one is closed once it has started.
            with open(self._stderr_path, "wb") as stderr:
                self.process = subprocess.Popen(
                    command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr,
                    env=dict(environment), close_fds=True,
                )
        except OSError as error:
            self.close()
            raise ProviderError(f"cannot run {binary}: {error.strerror or error}") from None
        try:
            self.ready = self._wait_until_ready(timeout)
        except BaseException:
            self.close()
            raise

    def _wait_until_ready(self, timeout: float) -> Dict[str, Any]:
        deadline = time.monotonic() + timeout
        assert self.process is not None
        while True:
            if os.path.exists(self.ready_path):
                with open(self.ready_path, encoding="utf-8") as file:
                    return dict(json.load(file))
            status = self.process.poll()
            if status is not None:
                reason = self.last_error_line() or f"limited-login serve exited with status {status}"
                raise ProviderError(reason)
            if time.monotonic() >= deadline:
                last = self.last_error_line()
                raise ProviderError(
                    f"the provider did not start within {timeout:g} s" + (f"; its last message: {last}" if last else "")
                )
            time.sleep(POLL_INTERVAL)

    def last_error_line(self) -> Optional[str]:
        """The last non-empty line the provider wrote to standard error (its one-line errors end there)."""
        try:
            with open(self._stderr_path, "rb") as file:
                file.seek(0, os.SEEK_END)
                file.seek(max(0, file.tell() - 8192))
                lines = file.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return None
        for line in reversed(lines):
            if line.strip():
                return line.strip()
        return None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def close(self) -> None:
        """Stops the provider (SIGTERM, then SIGKILL after STOP_GRACE seconds) and removes the files."""
        stop(self.process)
        if self.process is not None and self.process.stdin is not None:
            self.process.stdin.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def make_directory() -> str:
    """A private temporary directory (mode 0700: the ready file holds the admin token), named after this
    process, so that a later start can tell it was left by a process killed before it could remove it."""
    remove_abandoned_directories()
    return tempfile.mkdtemp(prefix=f"limited-login-{os.getpid()}-")


def remove_abandoned_directories(parent: Optional[str] = None) -> List[str]:
    """Removes the directories of ``make_directory`` whose process is gone (killed with SIGKILL, its provider
    stopped with it by ``--exit-with-stdin``, nothing left to remove them); returns their paths. Only this
    user's, and only those whose process ID no process has (a reused one keeps its directory)."""
    parent = parent or tempfile.gettempdir()
    removed = []
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for name in names:
        parts = name.split("-")
        if len(parts) != 4 or parts[:2] != ["limited", "login"] or not parts[2].isdigit():
            continue
        path = os.path.join(parent, name)
        try:
            if os.lstat(path).st_uid != os.getuid() or not os.path.isdir(path) or os.path.islink(path):
                continue
            os.kill(int(parts[2]), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        except (OSError, ValueError, OverflowError):
            continue
    return removed


def stop(process: "Optional[subprocess.Popen[bytes]]") -> None:
    """SIGTERM lets requests in flight finish and the store close; SIGKILL when that takes too long."""
    if process is None or process.poll() is not None:
        return
    try:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=STOP_GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    except ProcessLookupError:
        pass
