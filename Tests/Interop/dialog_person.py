"""A person using the provider's login dialog through plain HTTP (requests): reads the real pages and
submits the real forms, as a browser without JavaScript would. Our own SDK is not involved."""

from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit, parse_qsl

import requests


class DialogError(Exception):
    """The dialog showed a page that is neither sign-in nor consent (an error page)."""

    def __init__(self, status, message):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self.title = None
        self.error_message = None
        self._in_title = False
        self._in_error = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"id": attrs.get("id"), "action": attrs.get("action", ""), "fields": []})
        elif tag in ("input", "button") and self.forms:
            self.forms[-1]["fields"].append({
                "tag": tag, "type": attrs.get("type", "submit" if tag == "button" else "text"),
                "name": attrs.get("name"), "value": attrs.get("value", ""),
                "checked": "checked" in attrs, "disabled": "disabled" in attrs,
            })
        elif tag == "title":
            self._in_title = True
        elif attrs.get("id") == "error-message":
            self._in_error = True

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        self._in_error = False

    def handle_data(self, data):
        if self._in_title:
            self.title = (self.title or "") + data
        if self._in_error:
            self.error_message = (self.error_message or "") + data


def parse_page(html):
    parser = _Forms()
    parser.feed(html)
    return parser


def callback_parameters(location):
    """The parameters of a dialog redirect: the fragment, else the query."""
    parts = urlsplit(location)
    return dict(parse_qsl(parts.fragment or parts.query, keep_blank_values=True))


class DialogPerson:
    def __init__(self, email="alice@example.com", password="password"):
        self.http = requests.Session()
        self.email = email
        self.password = password
        self.pages = []

    def log_in(self, url, redirect_prefix, untick=(), action="continue"):
        """Follows the dialog from `url` until it redirects to `redirect_prefix`; returns that URL."""
        response = self.http.get(url, allow_redirects=False, timeout=20)
        for _ in range(12):
            if response.is_redirect:
                location = response.headers["Location"]
                if location.startswith(redirect_prefix):
                    return location
                response = self.http.get(urljoin(response.url, location), allow_redirects=False, timeout=20)
                continue
            page = parse_page(response.text)
            self.pages.append(page.title)
            forms = {form["id"]: form for form in page.forms}
            if response.status_code >= 400 or not ({"consent-form", "password-form"} & forms.keys()):
                raise DialogError(response.status_code, page.error_message or page.title)
            if "consent-form" in forms:
                form = forms["consent-form"]
                data = [(f["name"], f["value"]) for f in form["fields"]
                        if f["tag"] == "input" and f["name"] and not f["disabled"]
                        and (f["type"] != "checkbox" or (f["checked"] and f["value"] not in untick))]
                data.append(("action", action))
            else:
                form = forms["password-form"]
                data = [(f["name"], f["value"]) for f in form["fields"] if f["type"] == "hidden"]
                data += [("email", self.email), ("pass", self.password), ("login", "1")]
            response = self.http.post(urljoin(response.url, form["action"]), data=data, allow_redirects=False, timeout=20)
        raise DialogError(0, "the dialog did not finish in 12 pages")
