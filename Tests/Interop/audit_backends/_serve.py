"""The HTTP side the stdlib audit backends share: `GET /me` with `Authorization: Bearer <token>` (and
`X-Nonce: <expected nonce>` where the backend checks one) answers 200 `{"sub": ...}` when the backend's
`verify(token, nonce)` returns a subject and 401 `{"error": ...}` when it raises anything at all.

Run a backend as `python3 FILE --port P --provider BASE_URL --app-id APP_ID`; it serves on 127.0.0.1 only
and prints `listening on http://127.0.0.1:P` once ready."""

import argparse
import hmac
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--provider", required=True, help="the provider's base URL, which is also its issuer")
    parser.add_argument("--app-id", required=True)
    return parser.parse_args()


def bearer_token(authorization):
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ValueError("no bearer token")
    return token.strip()


def check_nonce(claims, nonce):
    """The nonce the request carried (X-Nonce), compared in constant time with the token's; none given: not checked."""
    if nonce is not None and not hmac.compare_digest(str(claims.get("nonce", "")).encode(), nonce.encode()):
        raise ValueError("nonce mismatch")


def serve(port, verify):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.split("?", 1)[0] != "/me":
                return self.answer(404, {"error": "not found"})
            try:
                token = bearer_token(self.headers.get("Authorization"))
                subject = verify(token, self.headers.get("X-Nonce"))
            except Exception as error:  # a bad token is never a 500
                return self.answer(401, {"error": f"{type(error).__name__}: {error}"[:500]})
            self.answer(200, {"sub": subject})

        def answer(self, status, document):
            body = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    sys.exit(0)
