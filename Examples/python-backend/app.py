"""A backend that trusts Facebook Limited Login ID tokens, in plain WSGI with PyJWT (no framework).

POST /login with an ID token and the nonce the app sent (JSON or a form: ``id_token``, ``nonce``) answers
200 ``{"user": sub, "name": ...}`` or 401 ``{"error": why}``. Against limited-login, its three settings are
the ones the provider exports (``limited-login serve --exec`` sets them; the pytest fixture has them as
``jwks_url``, ``issuer`` and ``app_id``); against Facebook, they are
``https://limited.facebook.com/.well-known/oauth/openid/jwks/``, ``https://www.facebook.com`` and your app ID.

    LIMITED_LOGIN_JWKS_URL=... LIMITED_LOGIN_ISSUER=... LIMITED_LOGIN_APP_ID=... python app.py   # port 9000
"""

import hmac
import json
import os
from urllib.parse import parse_qs

import jwt  # PyJWT, with its crypto extra: pip install 'pyjwt[crypto]'


def make_app(jwks_url, issuer, app_id):
    keys = jwt.PyJWKClient(jwks_url)  # fetches the published keys, caches them, refetches for a new kid

    def verify(id_token, nonce):
        key = keys.get_signing_key_from_jwt(id_token).key  # the key the token's kid names
        claims = jwt.decode(id_token, key, algorithms=["RS256"],  # RS256 only: no "none", no HS256
                            audience=app_id, issuer=issuer,  # for this app, from this provider
                            options={"require": ["exp", "iat", "iss", "aud", "sub", "nonce"]})
        # The nonce this login sent, so that a token issued for another login cannot be replayed here.
        if not hmac.compare_digest(str(claims["nonce"]).encode(), nonce.encode()):
            raise jwt.InvalidTokenError("the nonce is not the one this login sent")
        return claims

    def app(environ, start_response):
        def answer(status, body):
            start_response(status, [("Content-Type", "application/json")])
            return [json.dumps(body).encode()]

        if (environ["REQUEST_METHOD"], environ.get("PATH_INFO")) != ("POST", "/login"):
            return answer("404 Not Found", {"error": "POST /login only"})
        raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        try:
            if environ.get("CONTENT_TYPE", "").startswith("application/json"):
                form = json.loads(raw or b"{}")
            else:
                form = {name: values[0] for name, values in parse_qs(raw.decode()).items()}
        except ValueError:  # not JSON, or not UTF-8
            form = None
        if not isinstance(form, dict) or not isinstance(form.get("id_token"), str) or not isinstance(form.get("nonce"), str):
            return answer("400 Bad Request", {"error": "id_token and nonce are required"})
        try:
            claims = verify(form["id_token"], form["nonce"])
        except jwt.PyJWTError as error:  # every refusal, the key set's fetch included
            return answer("401 Unauthorized", {"error": str(error)})
        # Here a real backend finds or creates the user for claims["sub"] and starts its own session.
        return answer("200 OK", {"user": claims["sub"], "name": claims.get("name")})

    return app


if __name__ == "__main__":
    from wsgiref.simple_server import make_server

    application = make_app(os.environ["LIMITED_LOGIN_JWKS_URL"], os.environ["LIMITED_LOGIN_ISSUER"],
                           os.environ["LIMITED_LOGIN_APP_ID"])
    make_server("127.0.0.1", int(os.environ.get("PORT", "9000")), application).serve_forever()
