"""pytest fixtures, registered through the wheel's ``pytest11`` entry point (no import or conftest needed).

- ``limited_login``: a fresh provider for each test, so no test sees another's grants, scenarios or clock.
  ``@pytest.mark.limited_login(no_user_picker=True, ...)`` passes serve options to it.
- ``limited_login_session``: one provider for the whole run, for suites where starting one per test costs
  too much; its state carries over between tests.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from . import Provider


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "limited_login(**serve_options): options for the limited_login fixture's provider"
    )


@pytest.fixture
def limited_login(request: pytest.FixtureRequest) -> Iterator[Provider]:
    """A provider of its own for this test (port 0, an in-memory store, the demo app and users)."""
    marker = request.node.get_closest_marker("limited_login")
    options = dict(marker.kwargs) if marker is not None else {}
    with Provider(**options) as provider:
        yield provider


@pytest.fixture(scope="session")
def limited_login_session() -> Iterator[Provider]:
    """One provider shared by every test of the run."""
    with Provider() as provider:
        yield provider
