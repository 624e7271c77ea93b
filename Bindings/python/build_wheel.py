#!/usr/bin/env python3
"""Builds the limited_login wheel: the Python package plus the limited-login binary, with the standard library.

    python3 Bindings/python/build_wheel.py --binary .build/release-artifacts/limited-login --version 0.2.0 --out dist/

writes dist/limited_login-0.2.0-py3-none-manylinux_2_35_x86_64.whl. The binary goes in as a script
(limited_login-<v>.data/scripts/limited-login, as ruff and uv ship theirs), so pip puts it in the
environment's bin/. The platform tag names the newest glibc the binary needs, so pip refuses the wheel on an
older system instead of installing a binary that cannot load; the package checks the same at import.

No `wheel`, `setuptools` or `build` is needed: a wheel is a zip with a few text files (PEP 427, PEP 491).
The output is reproducible: entries in a fixed order with a fixed time ($SOURCE_DATE_EPOCH, else 1980-01-01).
"""

import argparse
import base64
import hashlib
import mmap
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import zipfile
from typing import Iterable, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "limited_login"
DISTRIBUTION = "limited_login"  # the normalized name, as it appears in file names
SCRIPT = "limited-login"
SUMMARY = "A Facebook Limited Login provider for tests: the limited-login binary, a Python API and pytest fixtures"
VERSION_PATTERN = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$")
GLIBC_PATTERN = re.compile(rb"GLIBC_(\d+)\.(\d+)(?:\.\d+)?")

# ELF e_machine values for the architectures a manylinux tag can name.
ELF_MACHINES = {"x86_64": 62, "aarch64": 183, "i686": 3, "armv7l": 40, "ppc64le": 21, "s390x": 22}

# The libraries every manylinux system has (PEP 600's policy, abridged). Anything else the binary needs
# is missing on a plain machine: a Swift runtime linked dynamically, from a build without --static-swift-stdlib.
SYSTEM_LIBRARIES = re.compile(
    r"^(libc|libm|libdl|librt|libpthread|libutil|libresolv|libnsl|libgcc_s|libstdc\+\+|libz|ld-linux[-\w.]*)\.so"
)


class BuildError(Exception):
    """A reason the wheel cannot be built, printed as one line."""


def main(argv: Optional[Sequence[str]] = None) -> int:
    options = parse_arguments(argv)
    try:
        build(options.binary, options.version, options.out, options.arch, options.glibc)
    except BuildError as error:
        print(f"build_wheel.py: {error}", file=sys.stderr)
        return 1
    return 0


def parse_arguments(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Build the limited_login wheel around a limited-login binary.")
    parser.add_argument("--binary", required=True, help="the limited-login binary (scripts/release builds it)")
    parser.add_argument("--version", required=True, help="the wheel's version, e.g. 0.2.0")
    parser.add_argument("--out", default="dist", help="the directory to write the wheel to (default: dist)")
    parser.add_argument("--arch", help="the platform's architecture (default: uname -m)")
    parser.add_argument("--glibc", help="the glibc the binary needs, X.Y (default: read from the binary)")
    return parser.parse_args(argv)


def build(binary: str, version: str, out: str, arch: Optional[str] = None, glibc_text: Optional[str] = None) -> str:
    """Writes the wheel and prints its path, size and SHA-256; the wheel's path."""
    if not VERSION_PATTERN.match(version):
        raise BuildError(f"--version {version!r} is not a release version such as 0.2.0 or 0.3.0rc1")
    if not os.path.isfile(binary):
        raise BuildError(f"--binary {binary}: no such file")
    machine = elf_machine(binary)
    arch = arch or platform.machine()
    if ELF_MACHINES.get(arch) != machine:
        built_for = next((name for name, number in ELF_MACHINES.items() if number == machine), f"ELF machine {machine}")
        raise BuildError(f"{binary} is built for {built_for}, not {arch}; --arch names the binary's architecture")
    if glibc_text:
        glibc = parse_glibc(glibc_text)
        source = "--glibc"
    else:
        glibc, source = required_glibc(binary)
    warn_about_libraries(binary)

    tag = f"py3-none-manylinux_{glibc[0]}_{glibc[1]}_{arch}"
    name = f"{DISTRIBUTION}-{version}-{tag}.whl"
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name)
    temporary = path + ".partial"
    write_wheel(temporary, binary, version, glibc, tag)
    os.replace(temporary, path)

    digest = file_sha256(path).hexdigest()
    print(path)
    print(f"  size:   {os.path.getsize(path)} bytes")
    print(f"  sha256: {digest}")
    print(f"  glibc:  {glibc[0]}.{glibc[1]} (from {source})")
    return path


# -- reading the binary -------------------------------------------------------------------------------------


def elf_machine(binary: str) -> int:
    with open(binary, "rb") as file:
        header = file.read(20)
    if header[:4] != b"\x7fELF":
        raise BuildError(f"{binary} is not an ELF executable")
    return int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")  # EI_DATA: 1 little-endian


def parse_glibc(text: str) -> Tuple[int, int]:
    match = re.fullmatch(r"(\d+)\.(\d+)", text.strip())
    if not match:
        raise BuildError(f"--glibc {text!r} is not a version such as 2.35")
    return int(match.group(1)), int(match.group(2))


def required_glibc(binary: str) -> Tuple[Tuple[int, int], str]:
    """The newest GLIBC_x.y symbol version the binary needs, and how it was read.

    `objdump -T` lists the versions of the dynamic symbols the binary imports, which is exactly what the
    loader checks. Without binutils, the binary's bytes are scanned for GLIBC_2.NN strings: the version
    names sit in its .dynstr section, so this finds the same ones (and could only over-estimate, never miss).
    """
    objdump = shutil.which("objdump")
    if objdump:
        result = subprocess.run([objdump, "-T", binary], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if result.returncode == 0:
            versions = versions_in(GLIBC_PATTERN.finditer(result.stdout))
            if versions:
                return max(versions), "objdump -T"
    with open(binary, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as contents:
        versions = versions_in(GLIBC_PATTERN.finditer(contents))
    if not versions:
        raise BuildError(f"{binary} names no GLIBC_x.y symbol version: is it linked against glibc? (or give --glibc)")
    return max(versions), "a scan of the binary's bytes"


def versions_in(matches: Iterable["re.Match[bytes]"]) -> List[Tuple[int, int]]:
    return [(int(match.group(1)), int(match.group(2))) for match in matches]


def warn_about_libraries(binary: str) -> None:
    """Warns (does not fail: a development wheel is fine) when the binary needs libraries that a plain
    manylinux system lacks, e.g. the Swift runtime of a build without --static-swift-stdlib."""
    objdump = shutil.which("objdump")
    if not objdump:
        return
    result = subprocess.run([objdump, "-p", binary], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", result.stdout.decode("utf-8", "replace"), re.MULTILINE)
    missing = [library for library in needed if not SYSTEM_LIBRARIES.match(library)]
    if missing:
        named = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        print(
            f"build_wheel.py: warning: the binary needs {named}, which other machines lack; "
            "build it with scripts/release (--static-swift-stdlib) for a wheel to share",
            file=sys.stderr,
        )


# -- writing the wheel --------------------------------------------------------------------------------------


def write_wheel(path: str, binary: str, version: str, glibc: Tuple[int, int], tag: str) -> None:
    """The package, the binary as a script, then .dist-info with RECORD last (PEP 427's recommended order)."""
    dist_info = f"{DISTRIBUTION}-{version}.dist-info"
    data = f"{DISTRIBUTION}-{version}.data"
    record: List[str] = []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, content in package_files(version, glibc):
            record.append(add_bytes(wheel, f"{PACKAGE}/{name}", content))
        record.append(add_file(wheel, f"{data}/scripts/{SCRIPT}", binary, mode=0o755))
        for name, content in metadata_files(version, tag):
            record.append(add_bytes(wheel, f"{dist_info}/{name}", content))
        record.append(f"{dist_info}/RECORD,,")
        add_bytes(wheel, f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode("utf-8"))


def package_files(version: str, glibc: Tuple[int, int]) -> List[Tuple[str, bytes]]:
    """The package's files in name order, with _build_info.py written for this wheel."""
    source = os.path.join(HERE, PACKAGE)
    files: List[Tuple[str, bytes]] = []
    for name in sorted(os.listdir(source)):
        full = os.path.join(source, name)
        if not os.path.isfile(full) or not (name.endswith(".py") or name == "py.typed"):
            continue
        if name == "_build_info.py":
            files.append((name, build_info(version, glibc)))
        else:
            with open(full, "rb") as file:
                files.append((name, file.read()))
    return files


def build_info(version: str, glibc: Tuple[int, int]) -> bytes:
    return (
        '"""Written by build_wheel.py: this wheel\'s version and the newest glibc its binary needs."""\n\n'
        f"_VERSION = {version!r}\n"
        f"_REQUIRED_GLIBC = ({glibc[0]}, {glibc[1]})\n"
    ).encode("utf-8")


def metadata_files(version: str, tag: str) -> List[Tuple[str, bytes]]:
    readme_path = os.path.join(HERE, "README.md")
    readme = open(readme_path, encoding="utf-8").read() if os.path.exists(readme_path) else ""
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        "Name: limited-login",
        f"Version: {version}",
        f"Summary: {SUMMARY}",
        "License: Apache-2.0",
        "Requires-Python: >=3.8",
        "Classifier: Framework :: Pytest",
        "Classifier: License :: OSI Approved :: Apache Software License",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Topic :: Software Development :: Testing",
        "Classifier: Typing :: Typed",
        "Description-Content-Type: text/markdown",
        "",
        readme,
    ])
    wheel = "\n".join([
        "Wheel-Version: 1.0",
        f"Generator: limited-login build_wheel.py ({version})",
        "Root-Is-Purelib: false",
        f"Tag: {tag}",
        "",
    ])
    entry_points = "[pytest11]\nlimited_login = limited_login.pytest_plugin\n"
    files = [
        ("METADATA", metadata.encode("utf-8")),
        ("WHEEL", wheel.encode("utf-8")),
        ("entry_points.txt", entry_points.encode("utf-8")),
        ("top_level.txt", b"limited_login\n"),
    ]
    license_path = os.path.join(HERE, "..", "..", "LICENSE")
    if os.path.exists(license_path):
        with open(license_path, "rb") as file:
            files.append(("LICENSE", file.read()))
    return files


def zip_entry(name: str, mode: int) -> zipfile.ZipInfo:
    """An entry with a fixed time and Unix permissions (pip makes a script executable from these bits)."""
    info = zipfile.ZipInfo(name, date_time=fixed_time())
    info.create_system = 3  # Unix, so that external_attr carries the mode
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def fixed_time() -> Tuple[int, int, int, int, int, int]:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        moment = time.gmtime(max(int(epoch), 315532800))  # a zip cannot say anything before 1980
        return moment.tm_year, moment.tm_mon, moment.tm_mday, moment.tm_hour, moment.tm_min, moment.tm_sec
    return 1980, 1, 1, 0, 0, 0


def add_bytes(wheel: zipfile.ZipFile, name: str, content: bytes, mode: int = 0o644) -> str:
    wheel.writestr(zip_entry(name, mode), content)
    return record_line(name, hashlib.sha256(content), len(content))


def add_file(wheel: zipfile.ZipFile, name: str, path: str, mode: int) -> str:
    """Streams a large file into the wheel, hashing it on the way."""
    digest, size = hashlib.sha256(), 0
    large = os.path.getsize(path) >= zipfile.ZIP64_LIMIT
    with open(path, "rb") as source, wheel.open(zip_entry(name, mode), "w", force_zip64=large) as target:
        for chunk in iter(lambda: source.read(1 << 20), b""):
            digest.update(chunk)
            size += len(chunk)
            target.write(chunk)
    return record_line(name, digest, size)


def record_line(name: str, digest: "hashlib._Hash", size: int) -> str:
    """RECORD's ``path,sha256=<urlsafe base64 without padding>,size``."""
    encoded = base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={encoded},{size}"


def file_sha256(path: str) -> "hashlib._Hash":
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest


if __name__ == "__main__":
    sys.exit(main())
