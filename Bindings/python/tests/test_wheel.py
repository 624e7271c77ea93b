"""build_wheel.py writes a correct, installable, reproducible wheel.

It packages a small ELF binary (this Python interpreter) instead of limited-login, which takes a while
to compress; what is checked does not depend on which binary it is. Skipped where build_wheel.py is not
beside this directory (the tests run from an installed wheel alone).
"""

import base64
import hashlib
import mmap
import os
import re
import subprocess
import sys
import zipfile

import pytest

BUILD_WHEEL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build_wheel.py")
BINARY = os.path.realpath(sys.executable)

pytestmark = pytest.mark.skipif(not os.path.exists(BUILD_WHEEL), reason="build_wheel.py is not in this checkout")


def build(out, version="1.2.3"):
    result = subprocess.run([sys.executable, BUILD_WHEEL, "--binary", BINARY, "--version", version, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[0]


def newest_glibc_in(path):
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as contents:
        return max((int(major), int(minor)) for major, minor in re.findall(rb"GLIBC_(\d+)\.(\d+)", contents))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dist"))


def test_the_tag_names_the_newest_glibc_and_this_machine(wheel):
    major, minor = newest_glibc_in(BINARY)
    tag = f"py3-none-manylinux_{major}_{minor}_{os.uname().machine}"

    assert os.path.basename(wheel) == f"limited_login-1.2.3-{tag}.whl"
    with zipfile.ZipFile(wheel) as archive:
        assert f"Tag: {tag}\n" in archive.read("limited_login-1.2.3.dist-info/WHEEL").decode()
        build_info = archive.read("limited_login/_build_info.py").decode()
    assert "_VERSION = '1.2.3'" in build_info
    assert f"_REQUIRED_GLIBC = ({major}, {minor})" in build_info


def test_the_record_lists_every_file_with_its_hash_and_size(wheel):
    with zipfile.ZipFile(wheel) as archive:
        lines = archive.read("limited_login-1.2.3.dist-info/RECORD").decode().splitlines()
        rows = dict((line.split(",", 1)[0], line.split(",", 1)[1]) for line in lines)
        assert sorted(rows) == sorted(archive.namelist())
        assert rows.pop("limited_login-1.2.3.dist-info/RECORD") == ","
        for name, row in rows.items():
            content = archive.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
            assert row == f"sha256={digest},{len(content)}", name


def test_the_binary_is_an_executable_script_and_the_plugin_is_registered(wheel):
    with zipfile.ZipFile(wheel) as archive:
        script = archive.getinfo("limited_login-1.2.3.data/scripts/limited-login")
        entry_points = archive.read("limited_login-1.2.3.dist-info/entry_points.txt").decode()
        metadata = archive.read("limited_login-1.2.3.dist-info/METADATA").decode()
        assert "limited_login/py.typed" in archive.namelist()

    assert script.external_attr >> 16 == 0o100755
    assert "[pytest11]\nlimited_login = limited_login.pytest_plugin\n" in entry_points
    assert "[console_scripts]" not in entry_points
    for field in ("Metadata-Version: 2.1", "Version: 1.2.3", "Requires-Python: >=3.8", "License: Apache-2.0"):
        assert field in metadata


def test_the_same_input_makes_the_same_wheel(wheel, tmp_path):
    again = build(tmp_path)

    with open(wheel, "rb") as first, open(again, "rb") as second:
        assert hashlib.sha256(first.read()).digest() == hashlib.sha256(second.read()).digest()


def test_pip_installs_the_binary_executable(wheel, tmp_path):
    target = tmp_path / "target"
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                             "--target", str(target), wheel], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    if "No module named pip" in result.stdout:
        pytest.skip("pip is not installed")
    assert result.returncode == 0, result.stdout

    installed = target / "bin" / "limited-login"
    assert os.access(str(installed), os.X_OK)
    assert (target / "limited_login" / "pytest_plugin.py").exists()


def test_a_bad_version_is_one_line(tmp_path):
    command = [sys.executable, BUILD_WHEEL, "--binary", BINARY, "--version", "one", "--out", str(tmp_path)]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "is not a release version" in result.stderr
