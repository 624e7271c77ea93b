"""An app's backend for the Deauthorize and Data Deletion Request callbacks (issue #33), as a real app writes
it: a plain HTTP server that takes `POST` with the form body `signed_request=<signature>.<payload>` and checks
the signature with the app secret, the way Facebook's documentation shows (split at the first '.', HMAC-SHA256
of the payload segment's text keyed with the secret, a constant-time comparison, then the JSON payload with
`algorithm` "HMAC-SHA256"). Nothing of the provider's code is involved."""

import base64
import hashlib
import hmac
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

DEAUTHORIZE_PATH = "/facebook/deauthorize"
DATA_DELETION_PATH = "/facebook/data-deletion"


class SignedRequestError(ValueError):
    """The signed_request is not one this app's secret signed."""


def _base64url_decode(segment):
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (ValueError, TypeError) as error:
        raise SignedRequestError(f"not base64url: {error}") from error


def parse_signed_request(signed_request, secret):
    """The payload of `signed_request` once its signature checks with `secret`; SignedRequestError otherwise."""
    if "." not in signed_request:
        raise SignedRequestError("no '.' between the signature and the payload")
    encoded_signature, payload = signed_request.split(".", 1)
    signature = _base64url_decode(encoded_signature)
    expected = hmac.new(secret.encode("utf-8"), payload.encode("ascii"), hashlib.sha256).digest()
    if not hmac.compare_digest(signature, expected):
        raise SignedRequestError("the signature is not the HMAC-SHA256 of the payload with the app secret")
    try:
        data = json.loads(_base64url_decode(payload))
    except ValueError as error:
        raise SignedRequestError(f"the payload is not JSON: {error}") from error
    if not isinstance(data, dict):
        raise SignedRequestError("the payload is not a JSON object")
    if data.get("algorithm") != "HMAC-SHA256":
        raise SignedRequestError(f"unexpected algorithm {data.get('algorithm')!r}")
    for field in ("user_id", "issued_at"):
        if field not in data:
            raise SignedRequestError(f"no {field} in the payload")
    return data


class CallbackReceiver:
    """The app's callback endpoints on 127.0.0.1 (a free port), in a thread of its own.

    - `verified`: each payload whose signature checked, in order (`path` and the raw `signed_request` with it);
    - `rejected`: each post that did not check (`path`, `body`, `reason`), answered 400;
    - `deletion_answers`: what the data-deletion path answered (`url`, `confirmation_code`), in order.

    `failures`: how many of the first posts (of either path) answer 500 after their check, as a backend that
    is down would; those are recorded in `verified` too (the signature did check)."""

    def __init__(self, secret, failures=0):
        self.secret = secret
        self.failures_left = failures
        self.verified = []
        self.rejected = []
        self.deletion_answers = []
        self.statuses = []
        self.lock = threading.Lock()
        self.posted = threading.Condition(self.lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                receiver._handle(self)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, name="callback-receiver", daemon=True)
        self.thread.start()

    @property
    def deauthorize_url(self):
        return f"http://127.0.0.1:{self.port}{DEAUTHORIZE_PATH}"

    @property
    def data_deletion_url(self):
        return f"http://127.0.0.1:{self.port}{DATA_DELETION_PATH}"

    def _handle(self, request):
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length).decode("utf-8", "replace")
        path = request.path
        content_type = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        try:
            if path not in (DEAUTHORIZE_PATH, DATA_DELETION_PATH):
                raise SignedRequestError(f"no callback at {path}")
            if content_type != "application/x-www-form-urlencoded":
                raise SignedRequestError(f"Content-Type {content_type!r}, not a form")
            values = parse_qs(body, keep_blank_values=True, strict_parsing=True).get("signed_request", [])
            if len(values) != 1:
                raise SignedRequestError(f"{len(values)} signed_request fields")
            payload = parse_signed_request(values[0], self.secret)
        except (SignedRequestError, ValueError) as error:
            with self.lock:
                self.rejected.append({"path": path, "body": body, "reason": str(error)})
                self.statuses.append(400)
                self.posted.notify_all()
            self._answer(request, 400, {"error": str(error)})
            return
        with self.lock:
            self.verified.append({"path": path, "payload": payload, "signed_request": values[0]})
            failing = self.failures_left > 0
            if failing:
                self.failures_left -= 1
            answer = None
            if not failing and path == DATA_DELETION_PATH:
                # As the real callback must: where the person can follow the deletion, and its code.
                code = "del-" + uuid.uuid4().hex[:12]
                answer = {"url": f"https://app.example/deletion-status?id={code}", "confirmation_code": code}
                self.deletion_answers.append(answer)
            self.statuses.append(500 if failing else 200)
            self.posted.notify_all()
        if failing:
            self._answer(request, 500, {"error": "the app's backend is down"})
        else:
            self._answer(request, 200, answer if answer is not None else {"success": True})

    @staticmethod
    def _answer(request, status, body):
        data = json.dumps(body).encode()
        request.send_response(status)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data)

    def wait_for_posts(self, count, timeout):
        """Waits until `count` posts arrived (verified or not); returns how many did."""
        with self.posted:
            self.posted.wait_for(lambda: len(self.statuses) >= count, timeout=timeout)
            return len(self.statuses)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
