"""Issue #20 in a real browser: headless Chromium driven by Selenium through the console and the dialog as a
tester uses them. Sign in to the console (its overview); create an app on the Apps page and a test user on
the Test users page; log in as that user with the CLI's loopback flow; find the login on Recent logins with
its claims; revoke `email` on Grants and see the next login ask again; switch account on the consent page;
add a test user from the sign-in page; a forged console form is refused (also one posted straight to the
delete action, past its confirmation page). Every page is checked with axe-core (no serious or critical
violation, no contrast failure) and saved at 1200 and 390 px wide in test-artifacts/console/. Every page and
action at 1280 and 390 px, with no axe violation of any impact: test_pages.py."""

import json
import os
import tempfile
from urllib.parse import quote

import requests
from axe_core_python.selenium import Axe
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ADMIN_TOKEN, ARTIFACTS
from test_browser import LoginCommand, browser  # noqa: F401 (the headless Chromium fixture)

SHOTS = os.path.join(ARTIFACTS, "console")
APP_ID = "7770001"
APP_NAME = "Console Test App"
WIDTHS = (1200, 390)


def login(provider, state_file, app_id, *arguments):
    """`limited-login login` for an app, as a tester runs it (test_browser's LoginCommand)."""
    return LoginCommand(provider, state_file, "--timeout", "60", *arguments, app_id=app_id)


def login_result(command):
    status, output, printed = command.finish(timeout=60)
    assert status == 0, printed
    return json.loads(output)


class ConsoleUser:
    """The browser, with the checks every page gets."""

    def __init__(self, driver, provider):
        self.driver = driver
        self.provider = provider
        self.axe = Axe()
        self.checked = []
        os.makedirs(SHOTS, exist_ok=True)

    def open(self, path):
        self.driver.get(self.provider.base_url + path)

    def wait_for(self, element_id):
        return WebDriverWait(self.driver, 20, ignored_exceptions=[WebDriverException]).until(
            expected_conditions.presence_of_element_located((By.ID, element_id)))

    def wait_title(self, title):
        WebDriverWait(self.driver, 20, ignored_exceptions=[WebDriverException]).until(lambda d: d.title == title)

    def notice(self):
        return WebDriverWait(self.driver, 20, ignored_exceptions=[WebDriverException]).until(
            lambda d: d.find_element(By.ID, "notice").text)

    def page(self, name):
        """Screenshots at each width (the whole page), then axe on the page with every <details> open."""
        driver = self.driver
        for width in WIDTHS:
            driver.set_window_size(width, 900)
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(width, min(max(height + 100, 600), 6000))
            driver.save_screenshot(os.path.join(SHOTS, f"{name}-{width}.png"))
            # The page must fit its width: nothing but an explicitly scrollable table may run past it.
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{name} is {overflow}px wider than {width}px"
            # Issue #55 item 5: on a phone the sections are one row that scrolls, not rows that push the page down.
            tabs = driver.execute_script("var n = document.querySelector('nav.console'); return n ? n.getBoundingClientRect().height : 0")
            assert width > 640 or tabs <= 60, f"{name}: the console's tabs are {tabs}px tall at {width}px"
        driver.set_window_size(1200, 900)
        driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")
        results = self.axe.run(driver)
        bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical") or v["id"] == "color-contrast"]
        assert not bad, f"{name}: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in bad)
        assert any(p["id"] == "color-contrast" for p in results["passes"]), f"{name}: axe checked no text contrast"
        driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = false; })")
        self.checked.append(name)

    def section(self, label, element_id):
        """A console section, through the navigation; it is then the one marked current."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.XPATH, f"//nav[@class='console']/a[normalize-space()='{label}']").click()
        WebDriverWait(self.driver, 20).until(page_left(page))
        self.wait_for(element_id)
        assert self.driver.find_element(By.CSS_SELECTOR, "nav.console a[aria-current=page]").text == label

    def submit(self, form_id, **fields):
        form = self.driver.find_element(By.ID, form_id)
        self.driver.execute_script("arguments[0].closest('details') && (arguments[0].closest('details').open = true)", form)
        for name, value in fields.items():
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(value)
        page = self.driver.find_element(By.TAG_NAME, "html")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # The next page, not this one: both can carry a #notice, and reading the old one as it goes is stale.
        WebDriverWait(self.driver, 20).until(page_left(page))


def page_left(page):
    """A wait condition: the browser has left the page whose <html> element is `page`.

    Selenium's `staleness_of` counts only a stale-element error; when the next page arrives while it asks,
    Chromium can answer "Node with given id does not belong to the document" instead (seen once the provider
    answered faster), which means the same thing.
    """
    def left(_driver):
        try:
            page.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
    return left


def user_by_email(provider, email):
    users = provider.admin("GET", "/_admin/users").json()["users"]
    return next(user for user in users if user["email"] == email)


def test_a_tester_drives_the_console_and_the_dialog(provider, browser):  # noqa: F811
    tester = ConsoleUser(browser, provider)

    # The home page links the console; the console asks for the admin token.
    tester.open("/")
    tester.wait_for("console-link")
    tester.page("home")
    browser.find_element(By.ID, "console-link").click()
    tester.wait_for("console-signin")
    tester.page("console-sign-in")
    tester.submit("console-signin", admin_token="not-the-token")
    assert tester.wait_for("error-message").text == "That is not this provider's admin token."
    tester.submit("console-signin", admin_token=ADMIN_TOKEN)
    tester.wait_for("console-overview")
    tester.page("console")

    # An app and a test user, made in the console: each on its section's page, reached by the navigation.
    tester.section("Apps", "apps-table")
    tester.page("console-apps")
    tester.submit("create-app-form", name=APP_NAME, id=APP_ID)
    assert tester.notice() == "The app was created."
    assert browser.find_element(By.CSS_SELECTOR, f"#apps-table tr[data-app-id='{APP_ID}']").is_displayed()
    tester.section("Test users", "users-table")
    tester.page("console-users")
    tester.submit("create-user-form", first_name="Carol", last_name="Console", email="carol.console@example.com",
                  birthday="03/04/1991", hometown="Lisbon")
    assert tester.notice() == "The test user was created."
    assert browser.find_element(By.CSS_SELECTOR, "#users-table tr[data-user-email='carol.console@example.com']").is_displayed()
    carol = user_by_email(provider, "carol.console@example.com")
    assert carol["hometown"]["name"] == "Lisbon" and carol["pickable"] is True

    # Carol logs in to the new app with the CLI's loopback flow.
    state = os.path.join(tempfile.mkdtemp(), "session.json")
    first_login = login(provider, state, APP_ID, "--tracking", "limited", "--permissions", "email")
    browser.get(first_login.url)
    tester.wait_for("password-form")
    tester.page("dialog-sign-in")
    browser.find_element(By.CSS_SELECTOR, "button[data-user-email='carol.console@example.com']").click()
    tester.wait_for("consent-form")
    tester.page("dialog-consent")
    browser.find_element(By.ID, "continue-button").click()
    tester.wait_title("Login finished")
    tester.page("sdk-login-finished")
    first = login_result(first_login)
    assert first["profile"]["email"] == "carol.console@example.com"
    nonce = first["authentication_token"]["nonce"]

    # The login is in "Recent logins", with its claims and without the token.
    tester.open("/_console/logins")
    tester.wait_for("logins-table")
    tester.page("console-logins")
    row = browser.find_element(By.CSS_SELECTOR, f"tr.login[data-app-id='{APP_ID}'][data-user-id='{carol['id']}']")
    browser.execute_script("arguments[0].querySelector('details').open = true", row)
    claims = json.loads(row.find_element(By.CSS_SELECTOR, "pre.claims").text)
    assert claims["aud"] == APP_ID and claims["nonce"] == nonce and claims["email"] == "carol.console@example.com"
    assert first["authentication_token"]["token"].split(".")[2] not in browser.page_source

    # Revoke email in the console: the next login that asks for it shows the consent page again.
    tester.section("Grants", "grants-table")
    tester.page("console-grants")
    grant = browser.find_element(By.CSS_SELECTOR, f"#grants-table tr[data-app-id='{APP_ID}'][data-user-id='{carol['id']}']")
    page = browser.find_element(By.TAG_NAME, "html")
    grant.find_element(By.CSS_SELECTOR, "button[data-revoke='email']").click()
    WebDriverWait(browser, 20).until(page_left(page))
    assert tester.notice() == "The permission was revoked."
    grants = provider.admin("GET", f"/_admin/grants?user_id={carol['id']}").json()["grants"]
    assert [g["granted"] for g in grants if g["app_id"] == APP_ID] == [["public_profile"]]
    again = login(provider, state, APP_ID, "--tracking", "limited", "--permissions", "email")
    browser.get(again.url)
    tester.wait_for("consent-form")
    assert browser.find_element(By.ID, "continue-button").text == "Continue as Carol"

    # Not Carol: switch account, then add a test user from the sign-in page, who logs in at once.
    browser.find_element(By.ID, "switch-account-button").click()
    tester.wait_for("add-user-form")
    browser.find_element(By.ID, "add-user-heading").click()
    tester.submit("add-user-form", new_user_name="Dana Added", new_user_email="dana.added@example.com")
    tester.wait_for("consent-form")
    assert browser.find_element(By.ID, "continue-button").text == "Continue as Dana"
    browser.find_element(By.ID, "continue-button").click()
    tester.wait_title("Login finished")
    second = login_result(again)
    assert second["profile"]["name"] == "Dana Added" and second["profile"]["email"] == "dana.added@example.com"

    # The demo app's dialog from the home page, cancelled: the page that says so leads back.
    tester.open("/")
    browser.find_element(By.CSS_SELECTOR, "#apps a").click()
    tester.wait_for("consent-form")
    browser.find_element(By.ID, "cancel-button").click()
    tester.wait_for("back-to-app")
    assert browser.find_element(By.ID, "title").text == "The login did not complete"
    tester.page("dialog-cancelled")
    browser.find_element(By.ID, "back-to-app").click()
    tester.wait_for("console-link")

    # A page that does not exist.
    tester.open("/no/such/page")
    tester.wait_for("home-link")
    tester.page("not-found")

    # Forged console forms change nothing: one posted from this console's own page with a foreign token,
    # one posted by another site (no cookie goes with it: SameSite=Strict). (The console's own Delete is a
    # link to a confirmation page; these post to the action itself.)
    tester.open("/_console/apps")
    tester.wait_for("apps-table")
    browser.execute_script("""
        var form = document.createElement('form');
        form.method = 'post'; form.action = '/_console/actions/delete-app';
        [['app_id', arguments[0]], ['csrf', 'AAAAforgedAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']].forEach(function (pair) {
            var input = document.createElement('input'); input.type = 'hidden'; input.name = pair[0]; input.value = pair[1];
            form.appendChild(input);
        });
        document.body.appendChild(form); form.submit();""", APP_ID)
    tester.wait_title("This form was refused")
    tester.page("console-forged-form")
    page = ("<!DOCTYPE html><html lang=en><title>elsewhere</title><form method=post action='"
            + provider.base_url + "/_console/actions/delete-app'><input name=app_id value=" + APP_ID
            + "><input name=csrf value=x></form><script>document.forms[0].submit()</script></html>")
    browser.get("data:text/html," + quote(page))
    tester.wait_for("console-signin")
    apps = [app["id"] for app in provider.admin("GET", "/_admin/apps").json()["apps"]]
    assert APP_ID in apps, "a forged form deleted the app"

    # The console itself, with everything above on it, once more.
    tester.open("/_console")
    tester.wait_for("console-overview")
    assert tester.wait_for("count-logins").text == "2"
    tester.page("console-after")
    tester.open("/_console/apps")
    tester.wait_for("apps-table")
    tester.page("console-apps-after")
    assert len(tester.checked) >= 14, tester.checked


def test_console_routes_refuse_without_a_session(provider):
    for method, path in [("GET", "/_console"), ("GET", "/_console/apps"), ("GET", "/_console/confirm/delete-app?app_id=1000000000000001"),
                         ("POST", "/_console/actions/delete-app"), ("POST", "/_console/signout")]:
        response = requests.request(method, provider.base_url + path, data={"app_id": "1000000000000001", "csrf": "x"},
                                    allow_redirects=False, timeout=20)
        if method == "GET":
            assert response.status_code == 200 and 'id="console-signin"' in response.text
        elif path.endswith("signout"):
            assert response.status_code == 303 and "ll_console" not in response.headers.get("Set-Cookie", "")
        else:
            assert response.status_code == 401 and "Sign in to the console first" in response.text
    assert "1000000000000001" in [app["id"] for app in provider.admin("GET", "/_admin/apps").json()["apps"]]
