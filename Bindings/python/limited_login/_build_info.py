"""What the wheel was built for. build_wheel.py writes this file into each wheel with the version it was given
and the newest glibc the packaged binary needs; these values are the source tree's defaults (the project's
version, ProjectVersion.current, and the glibc of the release build on Debian 12's toolchain)."""

_VERSION = "0.2.0"
_REQUIRED_GLIBC = (2, 35)
