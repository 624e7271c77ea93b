"""Issue #33: the apps' Deauthorize and Data Deletion Request callbacks, posted by a real `limited-login serve`
to a real app backend (callback_receiver.py, Python's http.server) that checks each `signed_request` with the
app secret as Facebook's documentation tells apps to. Mirrors Tests/LimitedLoginProviderTests/
CallbackDeliveryTests.swift, with the provider's default retry delays (2 s, 10 s, ...)."""

import base64
import json
import time
from urllib.parse import parse_qs

import pytest
import requests

from callback_receiver import DATA_DELETION_PATH, DEAUTHORIZE_PATH, CallbackReceiver, SignedRequestError, parse_signed_request
from conftest import DEMO_APP

ALICE = "alice@example.com"


def demo_app_secret(provider):
    answer = provider.admin("GET", "/_admin/apps")
    assert answer.status_code == 200, answer.text
    [app] = [app for app in answer.json()["apps"] if app["id"] == DEMO_APP]
    return app["secret"]


def set_callbacks(provider, **urls):
    answer = provider.admin("POST", f"/_admin/apps/{DEMO_APP}", json=urls)
    assert answer.status_code == 200, answer.text
    for field, url in urls.items():
        assert answer.json()[field] == url
    return answer.json()


def classic_login(provider, user=ALICE):
    """A classic (tracking enabled) login of `user` to the demo app, minted by the harness; the grant is recorded
    as a consent records it. Returns the access token and the person's app-scoped ID, read back from the Graph API."""
    minted = provider.admin("POST", "/_admin/tokens", json={"app_id": DEMO_APP, "user": user, "tracking": "enabled",
                                                             "permissions": ["public_profile"]})
    assert minted.status_code == 201, minted.text
    access_token = minted.json()["access_token"]
    me = requests.get(provider.base_url + "/v21.0/me", params={"access_token": access_token}, timeout=20)
    assert me.status_code == 200, me.text
    asid = me.json()["id"]
    assert asid == minted.json()["claims"]["sub"], "the Graph API and the ID token name the person alike"
    return access_token, asid


def user_id(provider, email):
    [user] = [u for u in provider.admin("GET", "/_admin/users").json()["users"] if u["email"] == email]
    return user["id"]


def deliveries(provider):
    answer = provider.admin("GET", "/_admin/deliveries")
    assert answer.status_code == 200, answer.text
    return answer.json()["deliveries"]


def settled_delivery(provider, timeout=60):
    """The provider's one delivery once it is no longer pending."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        listed = deliveries(provider)
        assert len(listed) <= 1, listed
        if listed and listed[0]["status"] != "pending":
            return listed[0]
        time.sleep(0.2)
    raise AssertionError(f"the delivery is still pending after {timeout} s: {deliveries(provider)}")


def assert_recent(issued_at):
    assert isinstance(issued_at, int) and abs(issued_at - time.time()) < 300, issued_at


def test_removing_the_app_through_the_graph_api_posts_a_verified_signed_request(fresh_provider):
    secret = demo_app_secret(fresh_provider)
    with CallbackReceiver(secret) as receiver:
        set_callbacks(fresh_provider, deauthorize_callback_url=receiver.deauthorize_url)
        access_token, asid = classic_login(fresh_provider)
        assert deliveries(fresh_provider) == [], "a login posts nothing"

        removed = requests.delete(fresh_provider.base_url + "/v21.0/me/permissions", params={"access_token": access_token}, timeout=20)
        assert removed.status_code == 200 and removed.json() == {"success": True}, removed.text

        delivery = settled_delivery(fresh_provider)
        assert delivery["status"] == "delivered" and delivery["attempts"] == 1, delivery
        assert delivery["kind"] == "deauthorize" and delivery["app_id"] == DEMO_APP
        assert delivery["url"] == receiver.deauthorize_url and delivery["response_status"] == 200
        assert delivery["user_id"] == user_id(fresh_provider, ALICE), "the admin API names the test user"
        assert "last_error" not in delivery and "confirmation_code" not in delivery

        assert receiver.rejected == []
        [received] = receiver.verified
        assert received["path"] == DEAUTHORIZE_PATH
        payload = received["payload"]
        assert payload["user_id"] == asid, "the app is told its own app-scoped ID of the person"
        assert payload["algorithm"] == "HMAC-SHA256"
        assert_recent(payload["issued_at"])
        assert set(payload) == {"algorithm", "issued_at", "user_id"}, payload

    # The removal took: the token the person held no longer works (190, subcode 458: the app was uninstalled).
    after = requests.get(fresh_provider.base_url + "/v21.0/me", params={"access_token": access_token}, timeout=20)
    assert after.status_code == 401 and after.json()["error"]["code"] == 190, after.text
    assert after.json()["error"].get("error_subcode") == 458, after.text
    # Removing it again is no new removal: refused, and nothing more is posted.
    assert fresh_provider.admin("DELETE", f"/_admin/grants/{DEMO_APP}/{ALICE}").status_code == 404
    assert len(deliveries(fresh_provider)) == 1


def test_an_app_answering_500_twice_gets_the_same_request_again_until_delivered(fresh_provider):
    secret = demo_app_secret(fresh_provider)
    with CallbackReceiver(secret, failures=2) as receiver:
        set_callbacks(fresh_provider, deauthorize_callback_url=receiver.deauthorize_url)
        _, asid = classic_login(fresh_provider)
        # This time the person's installation ends through the admin API.
        removed = fresh_provider.admin("DELETE", f"/_admin/grants/{DEMO_APP}/{ALICE}")
        assert removed.status_code == 200, removed.text

        started = time.time()
        assert receiver.wait_for_posts(1, timeout=20) == 1
        first = deliveries(fresh_provider)[0]
        # The first attempt's outcome is recorded right after it; wait for it if the listing came first.
        deadline = time.time() + 10
        while first["attempts"] == 0 and time.time() < deadline:
            time.sleep(0.1)
            first = deliveries(fresh_provider)[0]
        assert first["status"] == "pending" and first["attempts"] == 1, first
        assert first["last_error"] == "answered 500" and first["response_status"] == 500, first
        assert first["next_attempt_at"] >= first["updated_at"] + 1, first

        delivery = settled_delivery(fresh_provider)
        waited = time.time() - started
        assert delivery["status"] == "delivered" and delivery["attempts"] == 3, delivery
        assert delivery["response_status"] == 200 and "last_error" not in delivery, delivery
        assert 10 <= waited < 40, f"retried after 2 s and 10 s, delivered after {waited:.1f} s"

        assert receiver.statuses == [500, 500, 200]
        assert receiver.rejected == []
        assert len(receiver.verified) == 3
        assert len({post["signed_request"] for post in receiver.verified}) == 1, "each attempt posts the same signed_request"
        assert receiver.verified[0]["payload"]["user_id"] == asid


def test_a_data_deletion_request_records_the_apps_confirmation_code(fresh_provider):
    secret = demo_app_secret(fresh_provider)
    with CallbackReceiver(secret) as receiver:
        set_callbacks(fresh_provider, data_deletion_callback_url=receiver.data_deletion_url)
        _, asid = classic_login(fresh_provider)

        # Bob never logged in to the app: it holds nothing of his; nothing is posted.
        never = fresh_provider.admin("POST", f"/_admin/apps/{DEMO_APP}/data-deletion", json={"user_id": "bob@example.com"})
        assert never.status_code == 400, never.text
        assert deliveries(fresh_provider) == []

        requested = fresh_provider.admin("POST", f"/_admin/apps/{DEMO_APP}/data-deletion", json={"user_id": ALICE})
        assert requested.status_code == 202, requested.text
        accepted = requested.json()
        assert accepted["kind"] == "data_deletion" and accepted["status"] == "pending", accepted
        assert accepted["url"] == receiver.data_deletion_url

        delivery = settled_delivery(fresh_provider)
        assert delivery["id"] == accepted["id"]
        assert delivery["status"] == "delivered" and delivery["attempts"] == 1, delivery
        [answer] = receiver.deletion_answers
        assert delivery["confirmation_code"] == answer["confirmation_code"]
        assert delivery["status_url"] == answer["url"]

        assert receiver.rejected == []
        [received] = receiver.verified
        assert received["path"] == DATA_DELETION_PATH
        assert received["payload"]["user_id"] == asid and received["payload"]["algorithm"] == "HMAC-SHA256"
        assert_recent(received["payload"]["issued_at"])

    # A data deletion leaves the app installed: the grant is still there.
    grants = fresh_provider.admin("GET", "/_admin/grants").json()["grants"]
    assert [g["installed"] for g in grants if g["app_id"] == DEMO_APP] == [True]


def test_the_receivers_check_fails_for_another_secret(fresh_provider):
    """The receiver's check is not a formality: a backend holding the wrong secret refuses the provider's real
    post (and the provider records the 400 as a failed attempt), while the right secret accepts the same
    signed_request, and a payload changed after signing is refused."""
    secret = demo_app_secret(fresh_provider)
    wrong = "0" * len(secret)
    assert wrong != secret
    with CallbackReceiver(wrong) as receiver:
        set_callbacks(fresh_provider, deauthorize_callback_url=receiver.deauthorize_url)
        _, asid = classic_login(fresh_provider)
        assert fresh_provider.admin("DELETE", f"/_admin/grants/{DEMO_APP}/{ALICE}").status_code == 200
        assert receiver.wait_for_posts(1, timeout=20) == 1
        assert receiver.verified == []
        [refused] = receiver.rejected
        assert "signature" in refused["reason"], refused

        deadline = time.time() + 10
        delivery = deliveries(fresh_provider)[0]
        while delivery["attempts"] == 0 and time.time() < deadline:
            time.sleep(0.1)
            delivery = deliveries(fresh_provider)[0]
        assert delivery["status"] == "pending" and delivery["attempts"] == 1, delivery
        assert delivery["last_error"] == "answered 400" and delivery["response_status"] == 400, delivery

    [signed_request] = parse_qs(refused["body"])["signed_request"]
    with pytest.raises(SignedRequestError, match="signature"):
        parse_signed_request(signed_request, wrong)
    assert parse_signed_request(signed_request, secret)["user_id"] == asid

    signature, payload = signed_request.split(".", 1)
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["user_id"] = "1" + claims["user_id"]
    forged = base64.urlsafe_b64encode(json.dumps(claims, separators=(",", ":")).encode()).decode().rstrip("=")
    with pytest.raises(SignedRequestError, match="signature"):
        parse_signed_request(signature + "." + forged, secret)
    with pytest.raises(SignedRequestError):
        parse_signed_request(payload, secret)
