"""The parts that need no provider: the glibc check, the option mapping, finding the binary."""

import hashlib
import os
import pathlib
import re
import stat

import pytest

from limited_login import Provider, ProviderError, binary_path
from limited_login._glibc import problem
from limited_login._minting import check_applied, mint_body
from limited_login._options import serve_arguments, serve_environment


def test_an_older_glibc_is_one_line():
    assert problem((2, 35), "glibc", "2.31") == "limited_login needs glibc 2.35 or newer; this system has 2.31"


@pytest.mark.parametrize("library, version", [("glibc", "2.35"), ("glibc", "2.40"), ("", ""), ("glibc", "odd")])
def test_a_new_enough_or_unknown_libc_passes(library, version):
    assert problem((2, 35), library, version) is None


def test_python_names_become_serve_flags(tmp_path):
    fixtures = tmp_path / "f.json"

    arguments = serve_arguments({"no_user_picker": True, "id_token_lifetime": 600, "fixtures": fixtures,
                                 "no_demo_data": False, "port": 9000})

    assert arguments == ["--port=9000", "--database=:memory:", "--log-level=warning", "--no-user-picker",
                         "--id-token-lifetime=600", f"--fixtures={fixtures}"]


@pytest.mark.parametrize("name", ["ready_file", "exec"])
def test_options_the_provider_owns_are_refused(name):
    with pytest.raises(ValueError, match=name):
        serve_arguments({name: "x"})


def test_an_outer_providers_variables_do_not_reach_serve():
    outer = {"LIMITED_LOGIN_ISSUER": "https://outer", "LIMITED_LOGIN_ADMIN_TOKEN": "t" * 16,
             "LIMITED_LOGIN_URL": "http://outer", "PATH": "/bin"}

    assert serve_environment(outer, {}) == {"LIMITED_LOGIN_URL": "http://outer", "PATH": "/bin"}


def test_the_admin_token_goes_in_the_environment_not_the_command_line():
    token = "a-long-enough-admin-token"

    arguments = serve_arguments({"admin_token": token})
    environment = serve_environment({"PATH": "/bin", "LIMITED_LOGIN_ADMIN_TOKEN": "outer-token-000000"}, {"admin_token": token})

    assert not any(token in argument for argument in arguments), arguments
    assert environment == {"PATH": "/bin", "LIMITED_LOGIN_ADMIN_TOKEN": token}


def test_the_variable_names_the_binary(tmp_path, monkeypatch):
    binary = tmp_path / "limited-login"
    binary.write_bytes(b"#!/bin/sh\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("LIMITED_LOGIN_BINARY", str(binary))

    assert binary_path() == str(binary)


def test_a_variable_naming_nothing_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("LIMITED_LOGIN_BINARY", str(tmp_path / "missing"))

    with pytest.raises(ProviderError, match="is not an executable file"):
        binary_path()


def test_no_binary_anywhere_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.delenv("LIMITED_LOGIN_BINARY", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("sysconfig.get_path", lambda name: str(tmp_path))

    with pytest.raises(ProviderError, match="pip install"):
        binary_path()


def test_the_package_is_typed():
    import limited_login

    assert (pathlib.Path(limited_login.__file__).parent / "py.typed").exists()
    assert os.path.basename(limited_login.__file__) == "__init__.py"


def fake_binary(tmp_path, script):
    binary = tmp_path / "fake-limited-login"
    binary.write_text("#!/bin/sh\n" + script)
    binary.chmod(0o755)
    return str(binary)


def test_a_provider_that_never_gets_ready_is_stopped(tmp_path):
    pid_file = tmp_path / "pid"
    binary = fake_binary(tmp_path, f'echo "still loading" >&2\necho $$ > {pid_file}\nexec sleep 60\n')

    with pytest.raises(ProviderError, match="did not start within 0.5 s; its last message: still loading"):
        Provider(binary=binary, start_timeout=0.5).start()

    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_a_provider_that_exits_silently_gives_its_status(tmp_path):
    with pytest.raises(ProviderError, match="exited with status 3"):
        Provider(binary=fake_binary(tmp_path, "exit 3\n")).start()


def test_only_the_options_given_are_sent():
    assert mint_body("1", "alice@example.com", "limited", nonce="n", permissions=("email",)) == {
        "app_id": "1", "user": "alice@example.com", "tracking": "limited", "nonce": "n", "permissions": ["email"]}


@pytest.mark.parametrize("options, claims, complaint", [
    ({"lifetime": 60}, {"iat": 100, "exp": 3700}, "lifetime=60 (the token lasts 3600 s)"),
    ({"exp": 101}, {"iat": 100, "exp": 3700}, "exp=101"),
    ({"claims": {"email": "x@example.com"}}, {"email": "alice@example.com"}, "claims= (the token differs in email)"),
    ({"raw_nonce": "r"}, {"nonce": "r"}, "raw_nonce="),
])
def test_an_option_the_provider_ignored_is_an_error(options, claims, complaint):
    body = mint_body("1", "alice@example.com", "limited", **options)

    with pytest.raises(ProviderError, match="did not apply " + re.escape(complaint)):
        check_applied(body, claims)


def test_options_the_provider_applied_pass():
    body = mint_body("1", "a", "limited", lifetime=60, claims={"email": "x@example.com", "picture": None},
                     raw_nonce="r")

    check_applied(body, {"iat": 100, "exp": 160, "email": "x@example.com", "nonce": hashlib.sha256(b"r").hexdigest()})
    check_applied(mint_body("1", "a", "limited", lifetime=60, defect="expired"), {"iat": 100, "exp": 50})
