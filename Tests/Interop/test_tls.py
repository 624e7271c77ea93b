"""Issue #21: `serve --tls` reached under the real service's host names, by real TLS clients that trust the
provider's local CA. curl (`--connect-to`, `--cacert`) on each host; Python `requests` with the CA; headless
Chromium with `--host-resolver-rules` and the CA in an NSS database (certutil) logging in on
m.facebook.com; and this project's SDK and verifier with their unchanged `.facebook` endpoints
(`limited-login login --provider facebook`, `limited-login verify` with the real key set's URL), inside a
network and mount namespace of their own where a hosts file names the provider and the system's CA bundle
holds the provider's CA, as a tester's machine would."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlencode, urlsplit

import jwt
import pytest
import requests
import urllib3.util.connection
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ADMIN_TOKEN, ARTIFACTS, BINARY, DEMO_APP
from test_browser import chromium_paths

HOSTS = ["www.facebook.com", "m.facebook.com", "limited.facebook.com", "graph.facebook.com"]


class TLSProvider:
    """`limited-login serve --tls` on a free port, with its CA written to a file."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="limited-login-tls-")
        self.ca_file = os.path.join(self.folder, "ca.pem")
        ready = os.path.join(self.folder, "ready.json")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--tls", "--port", "0", "--database", os.path.join(self.folder, "p.sqlite"),
             "--admin-token", ADMIN_TOKEN, "--ca-file", self.ca_file, "--ready-file", ready, "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        deadline = time.time() + 60
        while time.time() < deadline and not os.path.exists(ready):
            assert self.process.poll() is None, self.process.stdout.read()
            time.sleep(0.1)
        with open(ready) as file:
            self.url = json.load(file)["url"]
        self.port = urlsplit(self.url).port

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def tls_provider(binary):
    provider = TLSProvider()
    yield provider
    provider.stop()


def curl(provider, host, path):
    result = subprocess.run(
        ["curl", "-sS", "--max-time", "20", "--connect-to", f"{host}:443:127.0.0.1:{provider.port}", "--cacert", provider.ca_file,
         "-o", "-", "-w", "\n%{http_code}", f"https://{host}{path}"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 0, f"curl {host}{path}: {result.stderr}"
    body, _, status = result.stdout.rpartition("\n")
    return int(status), body


def test_curl_reaches_each_host_with_the_ca(tls_provider):
    status, body = curl(tls_provider, "limited.facebook.com", "/.well-known/openid-configuration/")
    assert status == 200
    discovery = json.loads(body)
    assert discovery["issuer"] == "https://www.facebook.com"
    assert discovery["jwks_uri"] == "https://limited.facebook.com/.well-known/oauth/openid/jwks/"
    assert curl(tls_provider, "limited.facebook.com", "/.well-known/oauth/openid/jwks/")[0] == 200
    status, body = curl(tls_provider, "m.facebook.com", "/.well-known/oauth/openid/certs/")
    assert status == 200 and "BEGIN CERTIFICATE" in body
    for host in ["www.facebook.com", "m.facebook.com"]:
        status, body = curl(tls_provider, host, f"/v21.0/dialog/oauth?client_id={DEMO_APP}&redirect_uri=fb{DEMO_APP}%3A%2F%2Fauthorize%2F&response_type=id_token&scope=openid&nonce=n1&tp=ios_14_do_not_track")
        assert status == 200 and 'id="password-form"' in body, host
    status, body = curl(tls_provider, "graph.facebook.com", "/v21.0/me")
    assert status in (400, 401) and "OAuthException" in body
    # Each host serves its own paths only; the console and the admin API only at the provider's own address.
    assert curl(tls_provider, "graph.facebook.com", "/.well-known/openid-configuration/")[0] == 404
    assert curl(tls_provider, "limited.facebook.com", "/v21.0/me")[0] == 404
    for host in HOSTS:
        assert curl(tls_provider, host, "/_console")[0] == 404
        assert curl(tls_provider, host, "/_admin/apps")[0] == 404
    # Without the CA, curl refuses the certificate.
    refused = subprocess.run(["curl", "-sS", "--max-time", "20", "--connect-to", f"www.facebook.com:443:127.0.0.1:{tls_provider.port}",
                              "https://www.facebook.com/.well-known/openid-configuration/"], capture_output=True, text=True)
    assert refused.returncode == 60, refused.stderr


def test_python_requests_trusts_the_ca(tls_provider, monkeypatch):
    original = urllib3.util.connection.create_connection

    def to_provider(address, *args, **kwargs):
        host, port = address
        if host in HOSTS and port == 443:
            address = ("127.0.0.1", tls_provider.port)
        return original(address, *args, **kwargs)

    monkeypatch.setattr(urllib3.util.connection, "create_connection", to_provider)
    keys = requests.get("https://limited.facebook.com/.well-known/oauth/openid/jwks/", verify=tls_provider.ca_file, timeout=20)
    assert keys.status_code == 200 and keys.json()["keys"][0]["alg"] == "RS256"
    with pytest.raises(requests.exceptions.SSLError):
        requests.get("https://limited.facebook.com/.well-known/oauth/openid/jwks/", timeout=20)
    # The admin API at the provider's own address, checked against the same CA.
    apps = requests.get(tls_provider.url + "/_admin/apps", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                        verify=tls_provider.ca_file, timeout=20)
    assert apps.status_code == 200 and DEMO_APP in [app["id"] for app in apps.json()["apps"]]
    # ca export prints the same certificate, and its key only when asked.
    exported = subprocess.run([BINARY, "ca", "export", "--provider", tls_provider.url, "--admin-token", ADMIN_TOKEN],
                              capture_output=True, text=True, timeout=60)
    assert exported.returncode == 0, exported.stderr
    with open(tls_provider.ca_file) as file:
        assert exported.stdout.strip() == file.read().strip()
    assert "PRIVATE KEY" not in exported.stdout
    with_key = subprocess.run([BINARY, "ca", "export", "--include-key", "--provider", tls_provider.url, "--admin-token", ADMIN_TOKEN],
                              capture_output=True, text=True, timeout=60)
    assert with_key.returncode == 0, with_key.stderr
    assert "BEGIN PRIVATE KEY" in with_key.stdout and with_key.stdout.startswith(exported.stdout.strip())


def test_graph_call_on_ep2_through_the_ca(tls_provider, monkeypatch):
    """ep2.facebook.com, where the iOS SDK sends its Graph calls on iOS 17 and later: a classic login's access
    token reads the person there over TLS (curl and requests, each trusting only the provider's CA), and a call
    without a token gets the Graph error 190."""
    users = requests.get(tls_provider.url + "/_admin/users", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                         verify=tls_provider.ca_file, timeout=20).json()["users"]
    [alice] = [user for user in users if user["email"] == "alice@example.com"]
    minted = requests.post(tls_provider.url + "/_admin/tokens", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                           json={"app_id": DEMO_APP, "user": "alice@example.com", "tracking": "enabled", "permissions": ["public_profile"]},
                           verify=tls_provider.ca_file, timeout=20)
    assert minted.status_code == 201, minted.text
    access_token, asid = minted.json()["access_token"], minted.json()["claims"]["sub"]

    status, body = curl(tls_provider, "ep2.facebook.com", f"/v21.0/me?fields=id,name&access_token={access_token}")
    assert status == 200, body
    assert json.loads(body) == {"id": asid, "name": f"{alice['first_name']} {alice['last_name']}"}
    status, body = curl(tls_provider, "ep2.facebook.com", "/v21.0/me")
    assert status == 401, body
    error = json.loads(body)["error"]
    assert error["code"] == 190 and error["type"] == "OAuthException", error

    # The same through Python's TLS stack, which also shows the headers.
    original = urllib3.util.connection.create_connection

    def to_provider(address, *args, **kwargs):
        host, port = address
        if host == "ep2.facebook.com" and port == 443:
            address = ("127.0.0.1", tls_provider.port)
        return original(address, *args, **kwargs)

    monkeypatch.setattr(urllib3.util.connection, "create_connection", to_provider)
    me = requests.get("https://ep2.facebook.com/v21.0/me", params={"access_token": access_token}, verify=tls_provider.ca_file, timeout=20)
    assert me.status_code == 200 and me.json()["id"] == asid and me.json()["name"] == "Alice Example", me.text
    anonymous = requests.get("https://ep2.facebook.com/v21.0/me", verify=tls_provider.ca_file, timeout=20)
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == 190, anonymous.text
    assert anonymous.headers["WWW-Authenticate"].startswith("OAuth "), anonymous.headers
    # The bearer header form, as the SDK sends it.
    bearer = requests.get("https://ep2.facebook.com/v21.0/me", headers={"Authorization": f"Bearer {access_token}"},
                          verify=tls_provider.ca_file, timeout=20)
    assert bearer.status_code == 200 and bearer.json()["id"] == asid, bearer.text


class _Callback(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!DOCTYPE html><html lang=en><title>app</title><p>the app</p></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_chromium_logs_in_on_the_real_host_names(tls_provider):
    if not shutil.which("certutil"):
        pytest.fail("certutil is needed (Debian's libnss3-tools; scripts/interop installs it)")
    home = tempfile.mkdtemp(prefix="limited-login-nss-")
    nssdb = os.path.join(home, ".pki", "nssdb")
    os.makedirs(nssdb)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "limited-login", "-i", tls_provider.ca_file], check=True)
    app = HTTPServer(("127.0.0.1", 0), _Callback)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    redirect = f"http://127.0.0.1:{app.server_address[1]}/cb"

    binary, driver_path = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=900,1000",
                     f"--user-data-dir={tempfile.mkdtemp(prefix='limited-login-chromium-')}",
                     f"--host-resolver-rules=MAP *.facebook.com 127.0.0.1:{tls_provider.port}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path, env={**os.environ, "HOME": home}), options=options)
    try:
        nonce = "tls-" + uuid.uuid4().hex
        query = urlencode({"client_id": DEMO_APP, "redirect_uri": redirect, "response_type": "id_token", "scope": "openid,email",
                           "nonce": nonce, "state": "s1", "tp": "ios_14_do_not_track"})
        driver.get("https://m.facebook.com/v21.0/dialog/oauth?" + query)
        WebDriverWait(driver, 20, ignored_exceptions=[WebDriverException]).until(lambda d: d.find_element(By.ID, "password-form"))
        os.makedirs(os.path.join(ARTIFACTS, "tls"), exist_ok=True)
        driver.save_screenshot(os.path.join(ARTIFACTS, "tls", "m.facebook.com-sign-in.png"))
        assert driver.current_url.startswith("https://m.facebook.com/"), driver.current_url
        [alice] = [b for b in driver.find_elements(By.CSS_SELECTOR, "button[data-user-email]") if b.get_attribute("data-user-email") == "alice@example.com"]
        alice.click()
        WebDriverWait(driver, 20, ignored_exceptions=[WebDriverException]).until(lambda d: d.find_element(By.ID, "consent-form"))
        driver.find_element(By.ID, "continue-button").click()
        WebDriverWait(driver, 20, ignored_exceptions=[WebDriverException]).until(lambda d: d.current_url.startswith(redirect))
        fragment = dict(pair.split("=", 1) for pair in urlsplit(driver.current_url).fragment.split("&"))
    finally:
        driver.quit()
        app.shutdown()
    token = fragment["id_token"]
    keys = requests.get(tls_provider.url + "/.well-known/oauth/openid/jwks/", verify=tls_provider.ca_file, timeout=20).json()
    header = jwt.get_unverified_header(token)
    key = jwt.PyJWK(next(k for k in keys["keys"] if k["kid"] == header["kid"]))
    claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=DEMO_APP, issuer="https://www.facebook.com")
    assert claims["nonce"] == nonce and claims["email"] == "alice@example.com"


def test_the_sdk_and_verifier_with_facebook_endpoints_in_a_namespace(binary):
    """The SDK and verifier as shipped (`.facebook`): the host names resolve to the provider through a hosts
    file, and the system's CA bundle trusts it: both only inside an unshared network and mount namespace."""
    if not shutil.which("unshare") or not shutil.which("ip"):
        pytest.fail("unshare (util-linux) and ip (iproute2) are needed")
    folder = tempfile.mkdtemp(prefix="limited-login-ns-")
    script = os.path.join(folder, "run.sh")
    with open(script, "w") as file:
        file.write(f"""set -e
ip link set lo up
printf '127.0.0.1 localhost\\n127.0.0.1 {' '.join(HOSTS)} facebook.com\\n' > {folder}/hosts
mount --bind {folder}/hosts /etc/hosts
exec {binary} serve --tls --host 127.0.0.1 --port 443 --database :memory: --log-level warning --exec '
  set -e
  cat /etc/ssl/certs/ca-certificates.crt "$LIMITED_LOGIN_CA_FILE" > {folder}/bundle.crt
  mount --bind {folder}/bundle.crt /etc/ssl/certs/ca-certificates.crt
  {binary} login --provider facebook --app-id {DEMO_APP} --as alice@example.com --tracking limited --permissions email --state-file {folder}/state.json --json > {folder}/login.json
  nonce=$(python3 -c "import json;print(json.load(open(\\"{folder}/login.json\\"))[\\"authentication_token\\"][\\"nonce\\"])")
  token=$(python3 -c "import json;print(json.load(open(\\"{folder}/login.json\\"))[\\"authentication_token\\"][\\"token\\"])")
  {binary} verify "$token" --app-id {DEMO_APP} --nonce "$nonce" --json > {folder}/verify.json
'
""")
    result = subprocess.run(["unshare", "-rnm", "bash", script], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    with open(os.path.join(folder, "login.json")) as file:
        login = json.load(file)
    assert login["profile"]["email"] == "alice@example.com" and login["limited"] is True
    with open(os.path.join(folder, "verify.json")) as file:
        verified = json.load(file)
    assert verified["valid"] is True and verified["claims"]["iss"] == "https://www.facebook.com", verified
