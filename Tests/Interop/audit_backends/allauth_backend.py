"""django-allauth's Facebook provider verifying a Limited Login token, in a minimal Django app configured
here: an in-memory SQLite database with the migrations run, a SocialApp for the app ID, and a view at /me
that does what allauth's headless "provider token" endpoint does with a token from the iOS SDK:
`provider.verify_token(request, {"id_token": token})` (allauth/socialaccount/providers/facebook/provider.py),
which calls `flows.verify_limited_login_token` -> `allauth.socialaccount.internal.jwtkit.verify_and_decode`.

Hard-coded Facebook URLs: `FacebookProvider.limited_login_jwks_url`
("https://limited.facebook.com/.well-known/oauth/openid/jwks/") and
`FacebookProvider.limited_login_expected_jwt_issuer` ("https://www.facebook.com"); this app sets both class
attributes to the provider's (its issuer is its base URL), without touching the library.

Nonce: allauth's Limited Login path checks none (the session nonce it keeps is for the JS SDK's
`auth_nonce`, checked only on classic access tokens), so this backend ignores `X-Nonce`. It is served by
Django's own threaded development server (django.core.servers.basehttp.run) on 127.0.0.1 only."""

import argparse
import sys

import django
from django.conf import settings


def parse():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--provider", required=True)
    parser.add_argument("--app-id", required=True)
    return parser.parse_args()


def configure():
    settings.configure(
        DEBUG=False,
        SECRET_KEY="audit-backend-not-secret",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        SITE_ID=1,
        INSTALLED_APPS=[
            "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "django.contrib.sites",
            "allauth", "allauth.account", "allauth.socialaccount", "allauth.socialaccount.providers.facebook",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "allauth.account.middleware.AccountMiddleware",
        ],
        # One in-memory database every request thread shares (a plain ":memory:" is one per connection).
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3",
                               "NAME": "file:allauth-audit-backend?mode=memory&cache=shared"}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        USE_TZ=True,
        LOGGING={"version": 1, "disable_existing_loggers": False,
                 "loggers": {"django.server": {"level": "CRITICAL"}}},
    )
    django.setup()


urlpatterns = []


def main():
    options = parse()
    configure()

    from django.core.management import call_command
    from django.core.servers.basehttp import run
    from django.core.wsgi import get_wsgi_application
    from django.http import JsonResponse
    from django.urls import path

    from allauth.socialaccount.adapter import get_adapter
    from allauth.socialaccount.models import SocialApp
    from allauth.socialaccount.providers.facebook.provider import FacebookProvider

    call_command("migrate", verbosity=0, interactive=False)
    app = SocialApp.objects.create(provider="facebook", name="Audit", client_id=options.app_id, secret="unused")
    app.sites.add(1)

    FacebookProvider.limited_login_jwks_url = options.provider + "/.well-known/oauth/openid/jwks/"
    FacebookProvider.limited_login_expected_jwt_issuer = options.provider

    def me(request):
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return JsonResponse({"error": "no bearer token"}, status=401)
        try:
            provider = get_adapter().get_provider(request, "facebook")
            login = provider.verify_token(request, {"id_token": token.strip()})
        except Exception as error:  # a bad token is never a 500 here (see the report on what allauth raises)
            return JsonResponse({"error": f"{type(error).__name__}: {error}"[:500]}, status=401)
        return JsonResponse({"sub": login.account.uid})

    urlpatterns.append(path("me", me))

    def ready(port):
        print(f"listening on http://127.0.0.1:{port}", flush=True)

    try:
        run("127.0.0.1", options.port, get_wsgi_application(), threading=True, on_bind=ready)
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
