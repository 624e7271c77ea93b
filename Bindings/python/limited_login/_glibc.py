"""Refuse to load on a glibc older than the packaged binary needs.

The binary inside the wheel is linked against the glibc of the machine that built it. On an older glibc it
would fail at its first run with a loader message about ``GLIBC_2.NN not found``; checking at import says
the same thing once, in words, before any test starts a provider.
"""

import os
import platform
from typing import Optional, Tuple

Version = Tuple[int, int]


def parse_version(text: str) -> Optional[Version]:
    """``"2.36"`` -> ``(2, 36)``; None for anything that is not a major.minor version."""
    parts = text.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1])


def problem(required: Version, library: str, version: str) -> Optional[str]:
    """The one-line reason this system cannot run the binary, or None when it can (or cannot be told)."""
    # Only glibc can be compared: musl, macOS and the rest report another library (or none), and the wheel's
    # manylinux tag already keeps pip from installing it there; the binary's own error is the answer then.
    if library != "glibc":
        return None
    found = parse_version(version)
    if found is None or found >= required:
        return None
    return (
        f"limited_login needs glibc {required[0]}.{required[1]} or newer; "
        f"this system has {found[0]}.{found[1]}"
    )


def check(required: Version) -> None:
    """Raise ImportError when this system's glibc is older than ``required``.

    Skipped when ``LIMITED_LOGIN_BINARY`` names another binary: the packaged one is not used then.
    """
    if os.environ.get("LIMITED_LOGIN_BINARY"):
        return
    library, version = platform.libc_ver()
    reason = problem(required, library, version)
    if reason is not None:
        raise ImportError(reason)
