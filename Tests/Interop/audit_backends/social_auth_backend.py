"""python-social-auth's Facebook Limited Login backend (social-auth-core,
`social_core.backends.facebook_limited.FacebookLimitedLogin`) as a mobile app's server uses it: the iOS app
sends its AuthenticationToken, and the server calls `backend.do_auth(token)`, the library's "sign in with a
token the client already has" entry point. `do_auth` hands `{"access_token": token}` to
`strategy.authenticate`, whose `FacebookLimitedLogin.authenticate` validates the JWT
(`validated_response` -> `OpenIdConnectAuth.validate_and_return_id_token`) before it runs the pipeline;
the pipeline here is the library's `social_details` and `social_uid` steps and one step of this app's that
signs in a user by that uid (no user database).

Hard-coded Facebook URLs: only `OIDC_ENDPOINT = "https://www.facebook.com"` matters to validation (the
backend reads `{OIDC_ENDPOINT}/.well-known/openid-configuration` for the issuer and `jwks_uri`); the app
points it at the provider with the library's own setting `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_OIDC_ENDPOINT`
(and `..._KEY`, the app ID, as the library's documentation says). `ACCESS_TOKEN_URL` is never used here.

Nonce: none can be passed. `FacebookLimitedLogin.validate_claims` swallows the parent's `nonce_mismatch`
("We can't validate it since it's not generated server-side"), so this backend ignores `X-Nonce`."""

import sys

from social_core.backends.facebook_limited import FacebookLimitedLogin
from social_core.storage import BaseStorage
from social_core.strategy import BaseStrategy

from _serve import arguments, serve


class SignedIn:
    def __init__(self, uid):
        self.uid = uid


def signed_in_user(uid, *args, **kwargs):
    """This app's last pipeline step: the user is the uid the library validated (the library's own steps
    would look the social account up in the app's user database)."""
    return {"user": SignedIn(uid)}


class AppStrategy(BaseStrategy):
    """The least a framework strategy provides, with the settings in a dict."""

    def __init__(self, settings):
        super().__init__(storage=BaseStorage)
        self.settings = settings
        self.session = {}

    def get_setting(self, name):
        return self.settings[name]

    def get_request_data(self, merge=True):
        return {}

    def request_host(self):
        return "127.0.0.1"

    def session_get(self, name, default=None):
        return self.session.get(name, default)

    def session_set(self, name, value):
        self.session[name] = value

    def session_pop(self, name):
        return self.session.pop(name, None)

    def build_absolute_uri(self, path=None):
        return "http://127.0.0.1" + (path or "/")


def main():
    options = arguments(__doc__)
    settings = {
        "SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_KEY": options.app_id,
        "SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_OIDC_ENDPOINT": options.provider,
        "SOCIAL_AUTH_PIPELINE": [
            "social_core.pipeline.social_auth.social_details",
            "social_core.pipeline.social_auth.social_uid",
            "__main__.signed_in_user",
        ],
    }

    def verify(token, nonce):  # the nonce cannot be given to this library (see above)
        backend = FacebookLimitedLogin(AppStrategy(settings))
        user = backend.do_auth(token)
        if user is None:
            raise ValueError("not authenticated")
        return user.uid

    serve(options.port, verify)


if __name__ == "__main__":
    sys.modules.setdefault("social_auth_backend", sys.modules["__main__"])
    main()
