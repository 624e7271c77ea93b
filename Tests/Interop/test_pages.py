"""Issue #35 ("Pages people enjoy") in a real browser: headless Chromium driven by Selenium through every page
of the login dialog, the demo app's callback, the CLI's relay page and the console, doing each page's
actions as a person does, at a laptop's size (1280x800) and a phone's (390x844).

Every page is checked at both sizes with axe-core (every rule axe runs by default, with every <details>
open: no violation of any impact), must not be wider than the window (shown as it comes and with its
<details> open), and is saved at each width as test-artifacts/browser/pages/<name>-<width>.png (the whole
page; a page with closed <details> also as <name>-open-<width>.png). The sign-in, consent and console pages
are checked once more in the dark color scheme.

Each test has a provider of its own (`fresh_provider`), so that a failure points at one area. Every wait
is an explicit WebDriverWait; nothing sleeps for correctness."""

import base64
import json
import os
import tempfile
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from axe_core_python.selenium import Axe
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from callback_receiver import CallbackReceiver
from conftest import ADMIN_TOKEN, ARTIFACTS, DEMO_APP
from dialog_person import DialogPerson
from test_browser import LoginCommand, browser  # noqa: F401 (the headless Chromium fixture)
from test_console import page_left

SHOTS = os.path.join(ARTIFACTS, "browser", "pages")
SIZES = ((1280, 800), (390, 844))
DESKTOP = SIZES[0]
DEMO_PASSWORD = "password"  # the seeded demo users' (FixtureLoader.seedDemoDataIfEmpty; `serve` prints it)
WAIT = 20


class Pages:
    """The browser on the provider, with the checks every page gets (`check`) and the moves a person makes."""

    def __init__(self, driver, provider):
        self.driver = driver
        self.provider = provider
        self.axe = Axe()
        self.checked = []
        os.makedirs(SHOTS, exist_ok=True)
        driver.set_window_size(*DESKTOP)

    # Getting around

    def open(self, path):
        self.driver.get(path if path.startswith("http") else self.provider.base_url + path)

    def wait(self, condition, timeout=WAIT, message=""):
        return WebDriverWait(self.driver, timeout, ignored_exceptions=[WebDriverException]).until(condition, message)

    def wait_for(self, element_id):
        return self.wait(expected_conditions.presence_of_element_located((By.ID, element_id)), message=f"no #{element_id} on {self.driver.current_url}")

    def wait_title(self, title):
        self.wait(lambda d: d.title == title, message=f"the title is not {title!r}")

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def text(self, element_id):
        return self.wait(lambda d: d.find_element(By.ID, element_id).text, message=f"#{element_id} has no text")

    def leave_by(self, action):
        """Does `action` (a click, a submit) and waits until the browser has left this page."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        action()
        self.wait(page_left(page), message=f"the browser stayed on {self.driver.current_url}")

    def click(self, selector):
        """Clicks what navigates (a link, a submit button) and waits for the next page."""
        element = self.find(selector)
        self.leave_by(element.click)

    def fill(self, form, **fields):
        """Types into a form's fields by name: a select is chosen by value, a checkbox set to a bool, a
        datetime-local set as its value (Chromium types it segment by segment), the rest typed."""
        self.driver.execute_script("arguments[0].closest('details') && (arguments[0].closest('details').open = true)", form)
        for name, value in fields.items():
            field = form.find_element(By.NAME, name)
            kind = field.get_attribute("type")
            if field.tag_name == "select":
                Select(field).select_by_value(value)
            elif kind == "checkbox":
                if field.is_selected() != bool(value):
                    field.click()
            elif kind == "datetime-local":
                self.driver.execute_script("arguments[0].value = arguments[1]", field, value)
            else:
                field.clear()
                if value:
                    field.send_keys(value)

    def submit(self, form_id, button=None, **fields):
        """Fills a form, presses its submit button (or `button`, a selector inside it) and waits for the next page."""
        form = self.driver.find_element(By.ID, form_id)
        self.fill(form, **fields)
        pressed = form.find_element(By.CSS_SELECTOR, button or "button[type=submit]")
        self.leave_by(pressed.click)

    def notice(self):
        return self.text("notice")

    def error_message(self):
        return self.text("error-message")

    def visible(self, selector):
        return [element for element in self.find_all(selector) if element.is_displayed()]

    # The checks of every page

    def rows_typed_away(self, rows):
        """The rows the page script hid (`hidden`) as a query was typed, each with the display it still has."""
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0])).filter(function (e) { return e.hidden; })"
            ".map(function (e) { return e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' display: ' + getComputedStyle(e).display; })",
            rows)

    def check(self, name, contrast=True):
        """At each size: the whole page saved (as it comes, and with its <details> open when it has closed
        ones), nothing wider than the window, no checkbox label broken into flex items, and axe-core (every
        default rule) with every <details> open: no violation of any impact. Everything found at both sizes
        is reported at once."""
        driver = self.driver
        problems = []
        for width, height in SIZES:
            driver.set_window_size(width, height)
            self.wait(lambda d: d.execute_script("return window.innerWidth") == width, message=f"the window is not {width}px wide")
            closed = driver.execute_script(
                "var closed = Array.from(document.querySelectorAll('details')).filter(function (d) { return !d.open; });"
                "return closed.length;")
            self._shoot(f"{name}-{width}.png", width)
            problems += self._overflow(f"{name} at {width}px")
            driver.execute_script(
                "document.querySelectorAll('details').forEach(function (d) { if (!d.open) { d.open = true; d.setAttribute('data-test-opened', ''); } })")
            if closed:
                self._shoot(f"{name}-open-{width}.png", width)
                problems += self._overflow(f"{name} at {width}px with its <details> open")
            problems += [f"{name} at {width}px: a checkbox label is a flex row, so its text is cut into separate items around "
                         f"each element in it (columns with gaps between the words): {label}" for label in dict.fromkeys(self._split_labels())]
            results = self.axe.run(driver)
            for violation in results["violations"]:
                nodes = "; ".join(f"{node['target']} {node['html'][:160]!r}" for node in violation["nodes"][:4])
                problems.append(f"{name} at {width}px: axe {violation['id']} ({violation['impact']}): {violation['help']}: {nodes}")
            if contrast and not any(rule["id"] == "color-contrast" for rule in results["passes"] + results["violations"]):
                problems.append(f"{name} at {width}px: axe checked no text contrast")
            driver.execute_script(
                "document.querySelectorAll('details[data-test-opened]').forEach(function (d) { d.open = false; d.removeAttribute('data-test-opened'); })")
        driver.set_window_size(*DESKTOP)
        self.wait(lambda d: d.execute_script("return window.innerWidth") == DESKTOP[0])
        self.checked.append(name)
        assert not problems, "\n".join(problems)

    def _shoot(self, file_name, width):
        """The whole page at this width (the window stays its size, so the layout is the one people see)."""
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(max(size["height"], self.driver.execute_script("return window.innerHeight")), 12000),
                     "scale": 1}})
        with open(os.path.join(SHOTS, file_name), "wb") as file:
            file.write(base64.b64decode(shot["data"]))

    def _split_labels(self):
        """The labels laid out as a flex (or grid) row whose words are more than one item: each text run and
        each element (a <code>) of such a row is an item of its own, so the sentence breaks into columns."""
        return self.driver.execute_script("""
            return Array.from(document.querySelectorAll('label')).filter(function (label) {
                var display = getComputedStyle(label).display;
                if (display.indexOf('flex') < 0 && display.indexOf('grid') < 0) { return false; }
                var items = Array.from(label.childNodes).filter(function (node) {
                    return node.nodeType === 1 ? getComputedStyle(node).display !== 'none' : node.nodeType === 3 && node.textContent.trim() !== '';
                });
                return items.length > 2;
            }).map(function (label) { return label.outerHTML.slice(0, 200); });""")

    def _overflow(self, where):
        overflow = self.driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if overflow <= 0:
            return []
        # What sticks out, to say where the fix goes.
        wide = self.driver.execute_script("""
            var limit = document.documentElement.clientWidth, found = [];
            document.querySelectorAll('body *').forEach(function (e) {
                var r = e.getBoundingClientRect();
                if (r.right > limit + 0.5 && found.length < 5) { found.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' right=' + Math.round(r.right)); }
            });
            return found;""")
        return [f"{where}: the page is {overflow}px wider than the window: {wide}"]

    def dark(self, on):
        """The dark color scheme, as a system set to dark asks for it."""
        features = [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        assert self.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") is on

    # The console

    def console_sign_in(self):
        self.open("/_console")
        self.wait_for("console-signin")
        self.submit("console-signin", admin_token=ADMIN_TOKEN)
        self.wait_for("console-overview")

    def section(self, path, element_id):
        """A console section, reached through the console's navigation (and marked as the current one)."""
        self.leave_by(self.find(f"nav.console a[href='{path}']").click)
        self.wait_for(element_id)
        current = self.find("nav.console a[aria-current=page]")
        assert current.get_attribute("href").endswith(path), current.get_attribute("href")

    def search_list(self, name, rows, query, expected):
        """The section's search: as one types, the list's rows not matching hide; the search sent shows only
        the matching rows (and says how many of how many); "Show all" brings every row back."""
        everything = len(self.find_all(rows))
        assert everything > expected, f"{name}: {everything} rows, nothing to narrow"
        field = self.find("#search")
        field.send_keys(query)
        for width, height in SIZES:
            self.driver.set_window_size(width, height)
            self.wait(lambda d: d.execute_script("return window.innerWidth") == width)
            self.wait(lambda d: len(self.visible(rows)) == expected,
                      message=f"{name} at {width}px: typing {query!r} left {len(self.visible(rows))} rows shown, not {expected} "
                              f"(hidden by the script: {self.rows_typed_away(rows)})")
        self.driver.set_window_size(*DESKTOP)
        self.wait(lambda d: d.execute_script("return window.innerWidth") == DESKTOP[0])
        self.leave_by(self.find("#search-button").click)
        self.wait_for("search-summary")
        assert len(self.find_all(rows)) == expected, f"{name}: the search for {query!r} listed {len(self.find_all(rows))} rows"
        assert self.find("#search").get_attribute("value") == query
        assert self.text("search-summary") == f"{expected} of {everything} matching \u201c{query}\u201d."
        self.check(f"{name}-search")
        assert self.find("#search-clear").text == "Show all"
        self.click("#search-clear")
        self.wait(lambda d: len(self.find_all(rows)) == everything, message=f"{name}: Show all did not show every row")

    def confirm_page(self, question):
        self.wait_for("confirm-form")
        assert self.text("confirm-question") == question
        assert self.find("#confirm-cancel").text == "Keep it"


@pytest.fixture
def pages(fresh_provider, browser):  # noqa: F811
    return Pages(browser, fresh_provider)


def admin_json(provider, method, path, **kwargs):
    answer = provider.admin(method, path, **kwargs)
    assert answer.status_code < 300, f"{method} {path}: {answer.status_code} {answer.text}"
    return answer.json()


def users_by_email(provider):
    return {user["email"]: user for user in admin_json(provider, "GET", "/_admin/users")["users"]}


def app_ids(provider):
    return {app["id"]: app for app in admin_json(provider, "GET", "/_admin/apps")["apps"]}


def full_name(user):
    return " ".join(part for part in (user["first_name"], user.get("middle_name"), user["last_name"]) if part)


def grant(provider, app_id, user_id):
    grants = admin_json(provider, "GET", f"/_admin/grants?user_id={user_id}")["grants"]
    return next((g for g in grants if g["app_id"] == app_id), None)


def open_demo_dialog(pages):
    """The demo app's dialog, from the home page's link (its redirect is the provider's /demo/callback)."""
    pages.open("/")
    pages.wait_for("apps")
    pages.click("#apps a")
    pages.wait(lambda d: d.find_elements(By.ID, "password-form") or d.find_elements(By.ID, "consent-form"),
               message="the demo dialog showed neither sign-in nor consent")


def picker_rows(pages):
    return pages.find_all("#user-list li[data-search]")


def pick(pages, email):
    pages.click(f"button.user-row[data-user-email='{email}']")


def login_command(provider, *arguments):
    state = os.path.join(tempfile.mkdtemp(prefix="limited-login-pages-"), "session.json")
    return LoginCommand(provider, state, "--timeout", "90", *arguments)


# The dialog


def test_password_sign_in_a_wrong_password_and_consent_with_a_permission_unticked(pages):
    provider = pages.provider
    alice = users_by_email(provider)["alice@example.com"]

    # `limited-login login` prints the dialog's address; the browser opens it.
    cancelled = login_command(provider, "--tracking", "limited", "--permissions", "email,user_friends")
    pages.open(cancelled.url)
    pages.wait_for("password-form")
    assert pages.text("title") == "Log in to continue to Demo App"
    assert pages.text("app-name") == "Demo App"
    assert pages.find("#limited-notice").is_displayed()
    assert pages.find("#test-users-heading").is_displayed()
    pages.check("dialog-sign-in")

    # A wrong password: the error inside the password form, the email kept, the fields marked.
    pages.submit("password-form", email="alice@example.com", **{"pass": "not-the-password"})
    assert pages.error_message() == "The email or password you entered is incorrect."
    assert pages.find("#password-form #error-message").is_displayed(), "the error stands in the password form"
    assert len(pages.find_all("#error-message")) == 1, "one error at a time"
    assert pages.find("#email").get_attribute("value") == "alice@example.com"
    assert pages.find("#email").get_attribute("aria-invalid") == "true"
    assert pages.find("#pass").get_attribute("aria-describedby") == "error-message"
    assert pages.driver.switch_to.active_element.get_attribute("id") == "pass", "the focus is on the field to correct"
    pages.check("dialog-wrong-password")

    # The right password: consent, the required permission fixed, the others optional.
    pages.submit("password-form", email="alice@example.com", **{"pass": DEMO_PASSWORD})
    pages.wait_for("consent-form")
    assert pages.text("user-name") == "Alice Example"
    assert pages.find("#continue-button").text == "Continue as Alice"
    required = pages.find("#permission-public_profile")
    assert required.is_selected() and not required.is_enabled(), "public_profile is ticked and cannot be unticked"
    tags = {item.find_element(By.CSS_SELECTOR, "input").get_attribute("value"): item.find_element(By.CSS_SELECTOR, ".tag").text
            for item in pages.find_all("ul.permissions li")}
    assert tags == {"public_profile": "Required", "email": "Optional", "user_friends": "Optional"}, tags
    for name in ("email", "user_friends"):
        assert pages.find(f"#permission-{name}").is_selected() and pages.find(f"#permission-{name}").is_enabled()
    assert pages.find("#switch-account-button").is_displayed()
    pages.check("dialog-consent")

    # Cancel: the CLI's relay page says so, and the CLI saves nothing.
    pages.click("#cancel-button")
    pages.wait_title("Login not completed")
    pages.check("cli-login-not-completed")
    status, _, printed = cancelled.finish(timeout=60)
    assert status == 1 and "the login was cancelled in the dialog" in printed, printed

    # Again, still signed in: consent at once; user_friends unticked comes back declined.
    login = login_command(provider, "--tracking", "limited", "--permissions", "email,user_friends")
    pages.open(login.url)
    pages.wait_for("consent-form")
    pages.find("#permission-user_friends").click()
    assert not pages.find("#permission-user_friends").is_selected()
    pages.click("#continue-button")
    pages.wait_title("Login finished")
    pages.check("cli-login-finished")
    status, output, printed = login.finish(timeout=60)
    assert status == 0, printed
    result = json.loads(output)
    assert result["declined"] == ["user_friends"] and "email" in result["granted"], result
    assert result["profile"]["email"] == "alice@example.com"
    recorded = grant(provider, DEMO_APP, alice["id"])
    assert recorded and "user_friends" in recorded["declined"] and "email" in recorded["granted"], recorded


def test_the_test_user_list_its_search_and_picking(pages):
    provider, driver = pages.provider, pages.driver
    # 22 more pickable test users: 25 in all, more than the page lists (20).
    for number in range(1, 23):
        admin_json(provider, "POST", "/_admin/users",
                   json={"first_name": "Pat", "last_name": f"Picker{number:02d}", "email": f"pat.picker{number:02d}@example.com"})

    pages.open("/")
    pages.wait_for("apps")
    pages.check("home")
    pages.click("#apps a")
    pages.wait_for("user-picker")
    names = [" ".join(row.find_element(By.CSS_SELECTOR, ".user-name").get_attribute("textContent").split()) for row in picker_rows(pages)]
    assert all(name.startswith("Log in as ") for name in names), names  # for a screen reader; hidden on screen
    names = [name.removeprefix("Log in as ") for name in names]
    assert len(names) == 20, names
    assert names == sorted(names, key=str.lower), f"the test users are not sorted by name: {names}"
    assert names[:3] == ["Alice Example", "Bob Example", "Carol Example"], names
    assert "Pat Picker21" not in names
    assert "search to find the others" in pages.text("more-users")
    for button in pages.find_all("button.user-row"):
        assert button.get_attribute("data-user-id") and button.get_attribute("data-user-email")
    pages.check("dialog-picker")

    # As one types, the listed rows that do not match hide; Pat Picker21 is not among the 20 listed.
    query = pages.find("#user-search-query")
    query.send_keys("bob")
    pages.wait(lambda d: len(pages.visible("#user-list li[data-search]")) == 1, message="typing 'bob' did not narrow the list to Bob")
    assert pages.visible("#user-list li[data-search]")[0].text.endswith("bob@example.com")
    query.clear()
    query.send_keys("Picker21")
    pages.wait(lambda d: not pages.visible("#user-list li[data-search]"), message="typing 'Picker21' did not hide every listed row")

    # Searching on the provider finds who is beyond the first 20.
    pages.click("#user-search-button")
    pages.wait_for("user-list")
    rows = picker_rows(pages)
    assert [row.find_element(By.CSS_SELECTOR, ".user-email").text for row in rows] == ["pat.picker21@example.com"]
    assert pages.find("#user-search-query").get_attribute("value") == "Picker21"
    assert not pages.find_all("#more-users")
    picker21 = rows[0].find_element(By.CSS_SELECTOR, "button.user-row").get_attribute("data-user-id")
    pages.check("dialog-search")

    # No match: says so, and lists nobody.
    pages.submit("user-search", q="zzz-nobody")
    assert pages.text("user-search-empty") == "No test user matches zzz-nobody."
    assert not pages.find_all("#user-list")
    pages.check("dialog-search-no-match")

    # Search again, by the whole name (a GET form sends its space as "+"), and pick from what it found.
    pages.submit("user-search", q="pat picker21")
    assert [row.get_attribute("data-search") for row in picker_rows(pages)] == [f"Pat Picker21 pat.picker21@example.com {picker21}"]
    pick(pages, "pat.picker21@example.com")
    pages.wait_for("consent-form")
    assert pages.find("#continue-button").text == "Continue as Pat"

    # Cancel on the demo app's dialog: the demo callback page says the login did not complete.
    pages.click("#cancel-button")
    pages.wait_for("try-again")
    assert pages.text("title") == "The login did not complete"
    fields = {row.find_element(By.TAG_NAME, "th").text: row.find_element(By.TAG_NAME, "td").text for row in pages.find_all("#response tr")}
    assert fields.get("error") == "access_denied" and fields.get("state") == f"demo-{DEMO_APP}", fields
    pages.check("demo-callback-cancelled")

    # Try again: the same demo dialog; still signed in, so consent. Switch account: sign-in for the same request.
    pages.click("#try-again")
    pages.wait_for("consent-form")
    assert pages.find("#continue-button").text == "Continue as Pat"
    assert parse_qs(urlsplit(driver.current_url).query)["state"] == [f"demo-{DEMO_APP}"]
    pages.click("#switch-account-button")
    pages.wait_for("user-picker")
    pick(pages, "bob@example.com")
    pages.wait_for("consent-form")
    assert pages.find("#continue-button").text == "Continue as Bob"
    pages.click("#continue-button")
    pages.wait_title("Login complete")
    assert pages.text("title") == "Login complete"
    claims = json.loads(pages.text("claims"))
    assert claims["aud"] == DEMO_APP and claims["email"] == "bob@example.com", claims
    assert not pages.find_all("#try-again"), "a completed login offers no Try again"
    pages.check("demo-callback-complete")
    pages.click("#back-to-app")
    pages.wait_for("console-link")


def test_adding_a_test_user_on_the_sign_in_page(pages):
    provider = pages.provider
    open_demo_dialog(pages)
    pages.wait_for("add-user-form")
    # Folded until opened: the sign-in page stays short (open, it made it 1,590 px tall on a desktop).
    assert pages.find("#add-user").get_attribute("open") is None and not pages.find("#new-user-name").is_displayed()
    pages.find("#add-user-heading").click()
    assert pages.find("#new-user-name").is_displayed()

    # An email that exists: refused inside the form, which keeps what was typed.
    pages.submit("add-user-form", new_user_name="Alice Again", new_user_email="alice@example.com")
    message = pages.error_message()
    assert "exists already" in message and "alice@example.com" in message, message
    assert pages.find("#add-user-form #error-message").is_displayed(), "the error stands in the Add a test user form"
    assert len(pages.find_all("#error-message")) == 1
    assert pages.find("#new-user-name").get_attribute("value") == "Alice Again"
    assert pages.find("#new-user-email").get_attribute("value") == "alice@example.com"
    assert pages.find("#new-user-email").get_attribute("aria-invalid") == "true"
    assert pages.driver.switch_to.active_element.get_attribute("id") == "new-user-name", "the focus is on the form in error"
    assert not pages.find_all("#password-form #error-message")
    assert pages.find("#add-user").get_attribute("open") is not None, "a refused form stays open"
    pages.check("dialog-add-user-refused")

    # A new one: made, and logged in at once.
    pages.submit("add-user-form", new_user_name="Dana Added", new_user_email="dana.added@example.com")
    pages.wait_for("consent-form")
    assert pages.find("#continue-button").text == "Continue as Dana"
    dana = users_by_email(provider)["dana.added@example.com"]
    assert full_name(dana) == "Dana Added" and dana["pickable"] is True, dana
    pages.click("#continue-button")
    pages.wait_title("Login complete")
    assert json.loads(pages.text("claims"))["email"] == "dana.added@example.com"


def test_a_form_sent_twice_or_too_late_offers_try_again(pages):
    provider, driver = pages.provider, pages.driver

    # The same sign-in form sent twice: a wrong password, then Back (the browser shows the page it kept, with
    # the form's token already spent) and the right password in that form.
    open_demo_dialog(pages)
    pages.wait_for("password-form")
    dialog_url = driver.current_url
    token = pages.find("#password-form input[name=csrf_token]").get_attribute("value")
    pages.submit("password-form", email="alice@example.com", **{"pass": "not-the-password"})
    assert pages.error_message() == "The email or password you entered is incorrect."
    pages.leave_by(driver.back)
    pages.wait_for("password-form")
    assert pages.find("#password-form input[name=csrf_token]").get_attribute("value") == token, \
        "Back showed a fresh sign-in page (a new form token), not the one already sent"
    pages.submit("password-form", email="alice@example.com", **{"pass": DEMO_PASSWORD})
    pages.wait_title("This form was already sent")
    assert pages.text("title") == "This form was already sent"
    assert "can be sent once" in pages.error_message()
    pages.check("dialog-already-sent")

    # Try again: the sign-in page of the same request.
    pages.click("#try-again")
    pages.wait_for("password-form")
    assert parse_qs(urlsplit(driver.current_url).query) == parse_qs(urlsplit(dialog_url).query), "Try again opened another request"

    # A form kept open past its hour (the provider's clock moved on): expired, with Try again.
    admin_json(provider, "POST", "/_admin/clock", json={"advance": 3700})
    pick(pages, "alice@example.com")
    pages.wait_title("This page has expired")
    assert "longer than an hour" in pages.error_message()
    pages.check("dialog-expired")
    pages.click("#try-again")
    pages.wait_for("user-picker")
    pick(pages, "alice@example.com")
    pages.wait_for("consent-form")
    assert pages.find("#continue-button").text == "Continue as Alice"

    # A page that does not exist.
    pages.open("/no/such/page")
    pages.wait_for("home-link")
    pages.check("not-found")


# The console


def test_console_sign_in_overview_and_sign_out(pages):
    provider = pages.provider
    pages.open("/")
    pages.wait_for("console-link")
    pages.click("#console-link")
    pages.wait_for("console-signin")
    pages.check("console-sign-in")
    pages.submit("console-signin", admin_token="not-the-token")
    assert pages.error_message() == "That is not this provider's admin token."
    assert pages.find("#console-signin #error-message").is_displayed()
    assert pages.find("#admin-token").get_attribute("aria-invalid") == "true"
    pages.check("console-sign-in-refused")
    pages.submit("console-signin", admin_token=ADMIN_TOKEN)
    pages.wait_for("console-overview")
    assert pages.text("title") == "Overview"
    counts = {card: pages.text(f"count-{card}") for card in ("apps", "users", "friends", "grants", "keys", "logins")}
    assert counts == {"apps": "1", "users": "3", "friends": "3", "grants": "0", "keys": "1", "logins": "0"}, counts
    current = pages.find("nav.console a[aria-current=page]")
    assert current.text == "Overview"
    labels = [link.text for link in pages.find_all("nav.console a")]
    assert labels[:10] == ["Overview", "Apps", "Test users", "Friendships", "Grants", "Signing keys",
                           "Clock, scenarios and state", "Tokens", "Recent logins", "Callback deliveries"], labels
    pages.check("console-overview")

    # A card leads to its section.
    pages.click("#card-users a")
    pages.wait_for("users-table")

    # Sign out: the console asks for the token again.
    pages.click("#console-signout")
    pages.wait_for("console-signin")
    pages.open("/_console/apps")
    pages.wait_for("console-signin")
    assert not pages.find_all("#apps-table")
    assert DEMO_APP in app_ids(provider)


def test_console_apps_create_edit_search_and_delete(pages):
    provider = pages.provider
    pages.console_sign_in()
    pages.section("/_console/apps", "apps-table")
    assert len(pages.find_all("#apps-table tr[data-app-id]")) == 1
    pages.check("console-apps")

    # A refused create: the message, and the form open with what was typed.
    pages.submit("create-app-form", name="Pages Test App", id="abc")
    assert pages.error_message() == 'App ID "abc" must be digits.'
    assert pages.find("#new-app-name").get_attribute("value") == "Pages Test App"
    assert pages.find("#new-app-id").get_attribute("value") == "abc"
    assert pages.find("details#create-app").get_attribute("open") is not None, "the refused form stays open"
    assert "abc" not in app_ids(provider)
    pages.check("console-apps-refused")

    # Created.
    pages.submit("create-app-form", name="Pages Test App", id="7770002", redirect_uris="https://app.example/callback")
    assert pages.notice() == "The app was created."
    assert pages.find("details#create-app").get_attribute("open") is None
    row = pages.find("#apps-table tr[data-app-id='7770002']")
    assert "Pages Test App" in row.text and "https://app.example/callback" in row.text
    assert app_ids(provider)["7770002"]["redirect_uris"] == ["https://app.example/callback"]
    pages.check("console-apps-created")

    # Edited in its row's form.
    row = pages.find("#apps-table tr[data-app-id='7770002']")
    summary = row.find_element(By.CSS_SELECTOR, "details summary")
    assert summary.text == "Edit Pages Test App"
    summary.click()
    form = row.find_element(By.CSS_SELECTOR, "form.edit-app")
    pages.fill(form, name="Pages Renamed App")
    pages.leave_by(form.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
    assert pages.notice() == "The app was changed."
    assert "Pages Renamed App" in pages.find("#apps-table tr[data-app-id='7770002']").text
    assert app_ids(provider)["7770002"]["name"] == "Pages Renamed App"

    # The search narrows the rows.
    pages.search_list("console-apps", "#apps-table tr[data-app-id]", "renamed", 1)

    # Delete asks first; "Keep it" changes nothing.
    pages.click("a[data-delete-app='7770002']")
    pages.confirm_page("Delete the app Pages Renamed App (7770002)?")
    assert pages.find("#confirm-button").text == "Delete Pages Renamed App"
    pages.check("console-confirm-delete-app")
    pages.click("#confirm-cancel")
    pages.wait_for("apps-table")
    assert pages.find_all("#apps-table tr[data-app-id='7770002']") and "7770002" in app_ids(provider)
    pages.click("a[data-delete-app='7770002']")
    pages.confirm_page("Delete the app Pages Renamed App (7770002)?")
    pages.click("#confirm-button")
    assert pages.notice() == "The app was deleted."
    assert not pages.find_all("#apps-table tr[data-app-id='7770002']")
    assert "7770002" not in app_ids(provider)


def test_console_users_and_friendships(pages):
    provider = pages.provider
    pages.console_sign_in()
    pages.section("/_console/users", "users-table")
    pages.check("console-users")

    # Created from the form, generated with a button.
    pages.submit("create-user-form", first_name="Erin", last_name="Pages", email="erin.pages@example.com",
                 birthday="03/04/1991", hometown="Porto")
    assert pages.notice() == "The test user was created."
    erin = users_by_email(provider)["erin.pages@example.com"]
    assert erin["birthday"] == "03/04/1991" and erin["hometown"]["name"] == "Porto" and erin["pickable"] is True, erin
    assert pages.find(f"#users-table tr[data-user-id='{erin['id']}']").get_attribute("data-user-email") == "erin.pages@example.com"
    pages.click("#generate-user-button")
    assert pages.notice() == "A test user was generated."
    assert len(pages.find_all("#users-table tr[data-user-id]")) == 5
    assert len(users_by_email(provider)) == 5
    pages.check("console-users-generated")

    # By name, and on a phone a compact table: a user a row of two lines (name and email, friends; Edit and
    # Delete), not a card of every column (nine users made a 4,148 px page).
    names = [cell.text.split("\n")[0].strip().lower() for cell in pages.find_all("#users-table tr[data-user-id] td.name")]
    assert names == sorted(names), names
    pages.driver.set_window_size(390, 844)
    pages.wait(lambda d: d.execute_script("return window.innerWidth") == 390)
    heights = pages.driver.execute_script(
        "return Array.from(document.querySelectorAll('#users-table tr[data-user-id]')).map(function (r) { return r.getBoundingClientRect().height; })")
    pages.driver.set_window_size(*DESKTOP)
    pages.wait(lambda d: d.execute_script("return window.innerWidth") == DESKTOP[0])
    assert len(heights) == 5 and max(heights) <= 130, heights

    # A refused create keeps what was typed.
    pages.submit("create-user-form", first_name="Frank", last_name="Pages", email="frank.pages@example.com", birthday="31/31/1990")
    assert pages.error_message()
    assert pages.find("#new-user-first").get_attribute("value") == "Frank"
    assert pages.find("#new-user-birthday").get_attribute("value") == "31/31/1990"
    assert pages.find("details#create-user").get_attribute("open") is not None
    assert "frank.pages@example.com" not in users_by_email(provider)
    pages.check("console-users-refused")

    pages.search_list("console-users", "#users-table tr[data-user-id]", "erin", 1)

    # Deleted after the question.
    pages.click(f"a[data-delete-user='{erin['id']}']")
    pages.confirm_page("Delete the test user Erin Pages (erin.pages@example.com)?")
    pages.check("console-confirm-delete-user")
    pages.click("#confirm-button")
    assert pages.notice() == "The test user was deleted."
    assert not pages.find_all(f"#users-table tr[data-user-id='{erin['id']}']")
    assert "erin.pages@example.com" not in users_by_email(provider)

    # Friendships: the demo users are all friends; the generated user makes friends with Alice, then stops.
    demo = ("alice@example.com", "bob@example.com", "carol@example.com")
    users = users_by_email(provider)
    alice = users["alice@example.com"]
    generated = next(user for email, user in users.items() if email not in demo)
    generated_name = full_name(generated)
    pages.section("/_console/friends", "add-friends-form")
    assert len(pages.find_all("#friendships li[data-search]")) == 3
    pages.check("console-friends")
    pages.submit("add-friends-form", user_id=alice["id"], friend_id=generated["id"])
    assert pages.notice() == "They are friends now."
    assert len(pages.find_all("#friendships li[data-search]")) == 4
    assert generated["id"] in users_by_email(provider)["alice@example.com"]["friends"]

    pages.search_list("console-friends", "#friendships li[data-search]", generated_name, 1)

    item = next(li for li in pages.find_all("#friendships li[data-search]") if generated_name in li.text)
    pages.leave_by(item.find_element(By.LINK_TEXT, "Remove").click)
    pages.wait_for("confirm-form")
    assert pages.text("confirm-question") in (f"End the friendship of Alice Example and {generated_name}?",
                                              f"End the friendship of {generated_name} and Alice Example?")
    pages.check("console-confirm-remove-friends")
    pages.click("#confirm-button")
    assert pages.notice() == "They are no longer friends."
    assert len(pages.find_all("#friendships li[data-search]")) == 3
    assert generated["id"] not in users_by_email(provider)["alice@example.com"]["friends"]


def test_console_grants_recent_logins_and_callback_deliveries(pages):
    provider, driver = pages.provider, pages.driver
    secret = app_ids(provider)[DEMO_APP]["secret"]
    with CallbackReceiver(secret) as receiver:
        # The demo app's callbacks, set in its edit form.
        pages.console_sign_in()
        pages.section("/_console/apps", "apps-table")
        row = pages.find(f"#apps-table tr[data-app-id='{DEMO_APP}']")
        row.find_element(By.CSS_SELECTOR, "details summary").click()
        form = row.find_element(By.CSS_SELECTOR, "form.edit-app")
        pages.fill(form, deauthorize_callback_url=receiver.deauthorize_url, data_deletion_callback_url=receiver.data_deletion_url)
        pages.leave_by(form.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
        assert pages.notice() == "The app was changed."
        demo = app_ids(provider)[DEMO_APP]
        assert demo["deauthorize_callback_url"] == receiver.deauthorize_url, demo

        # Alice logs in to the demo app in this browser; Bob through plain HTTP.
        open_demo_dialog(pages)
        pick(pages, "alice@example.com")
        pages.wait_for("consent-form")
        pages.click("#continue-button")
        pages.wait_title("Login complete")
        nonce = json.loads(pages.text("claims"))["nonce"]
        provider.id_token("pages-" + nonce, DialogPerson(email="bob@example.com"))
        users = users_by_email(provider)
        alice, bob = users["alice@example.com"], users["bob@example.com"]

        # Recent logins: a row each, with the claims and without the token.
        pages.open("/_console")
        pages.wait_for("console-overview")
        assert pages.text("count-logins") == "2" and pages.text("count-grants") == "2"
        pages.section("/_console/logins", "logins-table")
        row = pages.find(f"tr.login[data-app-id='{DEMO_APP}'][data-user-id='{alice['id']}']")
        assert "Alice Example" in row.text and "Demo App" in row.text
        row.find_element(By.CSS_SELECTOR, "details summary").click()
        claims = json.loads(row.find_element(By.CSS_SELECTOR, "details pre.claims").text)
        assert claims["aud"] == DEMO_APP and claims["nonce"] == nonce and claims["email"] == "alice@example.com", claims
        pages.check("console-logins")
        pages.search_list("console-logins", "tr.login", "Bob", 1)

        # Grants: revoke one permission.
        pages.section("/_console/grants", "grants-table")
        assert len(pages.find_all("#grants-table tr[data-app-id]")) == 2
        pages.check("console-grants")
        pages.search_list("console-grants", "#grants-table tr[data-app-id]", "bob", 1)
        row = pages.find(f"#grants-table tr[data-app-id='{DEMO_APP}'][data-user-id='{alice['id']}']")
        assert not row.find_elements(By.CSS_SELECTOR, "button[data-revoke='public_profile']"), "public_profile goes only with an uninstall"
        pages.leave_by(row.find_element(By.CSS_SELECTOR, "button[data-revoke='email']").click)
        assert pages.notice() == "The permission was revoked."
        assert "email" not in grant(provider, DEMO_APP, alice["id"])["granted"]
        row = pages.find(f"#grants-table tr[data-app-id='{DEMO_APP}'][data-user-id='{alice['id']}']")
        assert not row.find_elements(By.CSS_SELECTOR, "button[data-revoke='email']")

        # Expire data access.
        row = pages.find(f"#grants-table tr[data-app-id='{DEMO_APP}'][data-user-id='{alice['id']}']")
        pages.leave_by(row.find_element(By.XPATH, ".//button[normalize-space()='Expire data access']").click)
        assert pages.notice() == "Their data access has expired."

        # A data deletion request: delivered to the app's callback, on Callback deliveries.
        row = pages.find(f"#grants-table tr[data-app-id='{DEMO_APP}'][data-user-id='{alice['id']}']")
        pages.leave_by(row.find_element(By.XPATH, ".//button[normalize-space()='Request data deletion']").click)
        assert pages.notice() == "The app's data deletion callback is being delivered; see Callback deliveries."
        assert pages.find("nav.console a[aria-current=page]").text == "Callback deliveries"
        assert receiver.wait_for_posts(1, timeout=30) == 1

        # Uninstall asks first; "Keep it" changes nothing.
        pages.section("/_console/grants", "grants-table")
        pages.click(f"a[href='/_console/confirm/uninstall?app_id={DEMO_APP}&user_id={bob['id']}']")
        pages.confirm_page("Uninstall Demo App for Bob Example?")
        pages.check("console-confirm-uninstall")
        pages.click("#confirm-cancel")
        pages.wait_for("grants-table")
        assert grant(provider, DEMO_APP, bob["id"])["installed"] is True
        pages.click(f"a[href='/_console/confirm/uninstall?app_id={DEMO_APP}&user_id={bob['id']}']")
        pages.confirm_page("Uninstall Demo App for Bob Example?")
        pages.click("#confirm-button")
        assert pages.notice() == "The app was uninstalled for that person."
        row = pages.find(f"#grants-table tr[data-app-id='{DEMO_APP}'][data-user-id='{bob['id']}']")
        assert "uninstalled" in row.text
        recorded = grant(provider, DEMO_APP, bob["id"])
        assert recorded is None or recorded["installed"] is False, recorded
        assert receiver.wait_for_posts(2, timeout=30) == 2

        # Callback deliveries: both posts, delivered.
        pages.section("/_console/deliveries", "deliveries-table")

        def delivered(driver):
            driver.refresh()
            rows = driver.find_elements(By.CSS_SELECTOR, "#deliveries-table tr.delivery")
            return len(rows) == 2 and all(row.get_attribute("data-status") == "delivered" for row in rows)

        pages.wait(delivered, timeout=60, message="the two callback posts are not both delivered")
        kinds = sorted(row.find_element(By.CSS_SELECTOR, "td[data-label='Callback']").text for row in pages.find_all("tr.delivery"))
        assert kinds == ["Data deletion", "Deauthorize"], kinds
        assert receiver.deletion_answers[0]["confirmation_code"] in pages.find("#deliveries-table").text
        pages.check("console-deliveries")
        pages.search_list("console-deliveries", "tr.delivery", "deauthorize", 1)


def test_console_signing_keys(pages):
    provider = pages.provider
    pages.console_sign_in()
    pages.section("/_console/keys", "keys-table")
    assert len(pages.find_all("#keys-table tbody tr")) == 1
    pages.check("console-keys")
    before = {key["kid"] for key in admin_json(provider, "GET", "/_admin/keys")["keys"]}
    pages.submit("rotate-key-form", publish_delay="0")
    assert pages.notice() == "A new signing key was scheduled."
    after = {key["kid"] for key in admin_json(provider, "GET", "/_admin/keys")["keys"]}
    assert len(after - before) == 1, (before, after)
    [new] = after - before
    assert len(pages.find_all("#keys-table tbody tr")) == 2
    assert new in pages.find("#keys-table").text
    pages.check("console-keys-rotated")
    pages.search_list("console-keys", "#keys-table tbody tr", new, 1)


def test_console_clock_scenarios_export_and_import(pages):
    provider, driver = pages.provider, pages.driver
    pages.console_sign_in()
    pages.section("/_console/harness", "advance-clock-form")
    assert pages.text("no-scenarios") == "None queued."
    pages.check("console-harness")

    # The clock: moved by an hour, set to a date, back to the system's.
    pages.submit("advance-clock-form", seconds="3600")
    assert pages.notice() == "The clock moved."
    assert abs(admin_json(provider, "GET", "/_admin/clock")["offset"] - 3600) <= 5
    pages.submit("set-clock-form", time="2030-01-31T12:00:00")
    assert pages.notice() == "The clock was set."
    assert pages.text("clock-now").startswith("2030-01-31T12:00"), pages.text("clock-now")
    assert admin_json(provider, "GET", "/_admin/clock")["iso8601"].startswith("2030-01-31T12:00")
    pages.check("console-harness-clock-set")
    pages.click("#reset-clock-button")
    assert pages.notice() == "The clock follows the system's again."
    assert admin_json(provider, "GET", "/_admin/clock")["offset"] == 0

    # A time that is not one: refused, with the reason.
    pages.submit("set-clock-form", time="")
    assert "Give the date and time" in pages.error_message()
    assert admin_json(provider, "GET", "/_admin/clock")["offset"] == 0

    # Scenarios: queued, removed, queued again and cleared after the question.
    pages.submit("queue-scenario-form", app_id=DEMO_APP, user="alice@example.com", outcome="error", code="190",
                 message="Scenario says no")
    assert pages.notice() == "The scenario was queued."
    [queued] = admin_json(provider, "GET", "/_admin/scenarios")["scenarios"]
    item = pages.find(f"ul#scenarios li[data-scenario-id='{queued['id']}']")
    assert "Scenario says no" in item.text
    pages.check("console-harness-scenario")
    pages.leave_by(item.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
    assert pages.notice() == "The scenario was removed."
    assert not pages.find_all("ul#scenarios li[data-scenario-id]")
    assert admin_json(provider, "GET", "/_admin/scenarios")["scenarios"] == []
    pages.submit("queue-scenario-form", app_id=DEMO_APP, outcome="cancel")
    pages.submit("queue-scenario-form", app_id=DEMO_APP, outcome="claims", claims='{"email": "scenario@example.com"}')
    assert len(pages.find_all("ul#scenarios li[data-scenario-id]")) == 2
    pages.click("#clear-scenarios-link")
    pages.confirm_page("Clear every queued scenario?")
    pages.check("console-confirm-clear-scenarios")
    pages.click("#confirm-button")
    assert pages.notice() == "The queued scenarios were cleared."
    assert pages.text("no-scenarios") == "None queued."
    assert admin_json(provider, "GET", "/_admin/scenarios")["scenarios"] == []

    # Export: the links, and the document they download (with this browser's console cookie; without one, refused).
    assert pages.find("#export-link").get_attribute("href") == provider.base_url + "/_console/export"
    assert pages.find("#export-keys-link").get_attribute("href") == provider.base_url + "/_console/export?include_keys=true"
    cookies = {cookie["name"]: cookie["value"] for cookie in driver.get_cookies()}
    exported = requests.get(provider.base_url + "/_console/export", cookies=cookies, timeout=20)
    assert exported.status_code == 200, exported.text
    assert exported.headers["Content-Disposition"].startswith("attachment;")
    document = exported.json()
    assert DEMO_APP in [app["id"] for app in document["apps"]]
    assert "alice@example.com" in [user["email"] for user in document["users"]]
    with_keys = requests.get(provider.base_url + "/_console/export?include_keys=true", cookies=cookies, timeout=20)
    assert with_keys.status_code == 200 and "with-keys" in with_keys.headers["Content-Disposition"]
    assert requests.get(provider.base_url + "/_console/export", timeout=20).status_code == 401

    # Import: a refused document stays in the form; a good one adds its app.
    pages.submit("import-state-form", document='{"apps": [{"id": "77x", "name": "Bad"}]}')
    assert pages.error_message()
    assert pages.find("#import-document").get_attribute("value") == '{"apps": [{"id": "77x", "name": "Bad"}]}'
    assert pages.find("details#import-state").get_attribute("open") is not None
    pages.check("console-harness-import-refused")
    pages.submit("import-state-form", document='{"apps": [{"id": "7770009", "name": "Imported App"}]}')
    assert pages.notice() == "The document was imported."
    assert app_ids(provider)["7770009"]["name"] == "Imported App"
    pages.section("/_console/apps", "apps-table")
    assert "Imported App" in pages.find("#apps-table tr[data-app-id='7770009']").text


def test_console_tokens_mint_copy_and_inspect(pages):
    provider = pages.provider
    pages.console_sign_in()
    pages.section("/_console/tokens", "mint-form")
    assert not pages.find_all("#token-view")
    pages.check("console-tokens")

    # Minted: shown once, verified, to copy.
    pages.submit("mint-form", app_id=DEMO_APP, user=users_by_email(provider)["alice@example.com"]["id"], permissions="email",
                 nonce="pages-nonce")
    assert pages.notice() == "A token was minted; it is below, to copy."
    verdict = pages.text("token-verdict")
    assert verdict.startswith(f"Valid for app {DEMO_APP}"), verdict
    token = pages.find("#token-text").get_attribute("value")
    assert token.count(".") == 2
    assert json.loads(pages.text("token-header"))["alg"] == "RS256"
    claims = json.loads(pages.text("token-claims"))
    assert claims["aud"] == DEMO_APP and claims["nonce"] == "pages-nonce" and claims["email"] == "alice@example.com", claims
    copy = pages.find("#copy-token")
    assert copy.text == "Copy the ID token"
    copy.click()
    pages.wait(lambda d: d.find_element(By.ID, "copy-token").text == "Copied", message="the copy button did not say Copied")
    pages.check("console-tokens-minted")

    # Pasted into "Decode and verify" (from the clipboard the copy button filled).
    inspect = pages.find("#inspect-token")
    inspect.click()
    inspect.send_keys(Keys.CONTROL, "v")
    pages.wait(lambda d: d.find_element(By.ID, "inspect-token").get_attribute("value").strip() == token,
               message="the copied token did not paste")
    pages.submit("inspect-form")
    assert pages.notice() == "The token is below, decoded."
    assert pages.text("token-verdict").startswith(f"Valid for app {DEMO_APP}")
    assert json.loads(pages.text("token-claims"))["nonce"] == "pages-nonce"
    pages.check("console-tokens-inspected")

    # The same token for another app: refused, and why.
    pages.submit("inspect-form", token=token, app_id="7770001")
    assert pages.text("token-verdict").startswith("Refused for app 7770001"), pages.text("token-verdict")
    assert pages.find("#inspect-token").get_attribute("value").strip() == token, "the inspected token stays in the form"

    # A defect: the verifier's refusal, in words.
    pages.submit("mint-form", app_id=DEMO_APP, defect="expired")
    verdict = pages.text("token-verdict")
    assert verdict.startswith(f"Refused for app {DEMO_APP}:"), verdict
    assert "error" in pages.find("#token-verdict").get_attribute("class").split()
    assert Select(pages.find("#mint-defect")).first_selected_option.get_attribute("value") == "expired", "the minting form keeps its choices"
    pages.check("console-tokens-refused")


def test_dark_mode(pages):
    pages.dark(True)
    try:
        open_demo_dialog(pages)
        pages.wait_for("password-form")
        background = pages.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(24, 25, 26)", f"the dark scheme's background is not used: {background}"
        pages.submit("password-form", email="alice@example.com", **{"pass": "not-the-password"})
        pages.error_message()
        pages.check("dark-dialog-sign-in-error")
        pages.submit("password-form", email="alice@example.com", **{"pass": DEMO_PASSWORD})
        pages.wait_for("consent-form")
        pages.check("dark-dialog-consent")

        pages.console_sign_in()
        pages.check("dark-console-overview")
        pages.section("/_console/apps", "apps-table")
        pages.submit("create-app-form", name="Dark App", id="abc")
        pages.error_message()
        pages.check("dark-console-apps-refused")
        pages.section("/_console/tokens", "mint-form")
        pages.submit("mint-form", app_id=DEMO_APP)
        assert pages.text("token-verdict").startswith("Valid")
        pages.check("dark-console-tokens-valid")
        pages.submit("mint-form", app_id=DEMO_APP, defect="bad-signature")
        assert pages.text("token-verdict").startswith("Refused")
        pages.check("dark-console-tokens-refused")
        pages.click("nav.console a[href='/_console/apps']")
        pages.click(f"a[data-delete-app='{DEMO_APP}']")
        pages.wait_for("confirm-form")
        pages.check("dark-console-confirm")
    finally:
        pages.dark(False)
