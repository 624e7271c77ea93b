"""The README's pytest example, run as written: a reader who pastes it gets two passing tests."""

import os
import re
import subprocess
import sys

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


def readme_example():
    text = open(README, encoding="utf-8").read()
    section = text[text.index("## With pytest"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_pytest_example_passes_as_written(tmp_path):
    (tmp_path / "test_example.py").write_text(readme_example(), encoding="utf-8")
    environment = dict(os.environ)
    arguments = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_example.py")]
    try:
        import limited_login.pytest_plugin  # noqa: F401  (installed, the wheel's entry point loads it)
        import importlib.metadata

        installed = any(entry.value.startswith("limited_login") for entry in importlib.metadata.entry_points(group="pytest11"))
    except ImportError:
        installed = False
    if not installed:
        # From the source tree: the package from Bindings/python and its plugin loaded by name.
        environment["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        arguments[4:4] = ["-p", "limited_login.pytest_plugin"]
    result = subprocess.run(arguments, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"\b2 passed\b", result.stdout), result.stdout
