import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Logs `userID` in to the test app with `user_friends` in a fresh browser and returns the verified claims.
private func friendsLogin(
    _ client: any TestClientProtocol, _ provider: LimitedLoginProvider, as userID: String, appID: String = TestFixtures.appID
)
    async throws -> AuthenticationTokenClaims
{
    let browser = DialogBrowser(client: client)
    let redirect = appID == TestFixtures.appID ? TestFixtures.registeredRedirect : "http://127.0.0.1:7000/cb"
    let page = try await browser.logIn(dialogPath(appID: appID, redirectURI: redirect, scope: "public_profile,user_friends"), as: userID)
    let token = try #require(try page.redirectParameters().single("id_token"))
    return try await verifyIDToken(token, provider: provider, appID: appID).claims
}

private func uninstall(_ client: any TestClientProtocol, token: String, appID: String) async throws -> (HTTPResponse.Status, String) {
    var form = FormParameters()
    form.append("id_token", token)
    form.append("app_id", appID)
    let response = try await client.execute(
        uri: "/platform/uninstall", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: form.encoded)
    )
    return (response.status, String(buffer: response.body))
}

@Suite("App-scoped IDs, friends visibility and uninstall")
struct FriendsAndUninstallTests {
    @Test("friends lists follow the visibility rule: A installs, B installs, A again, B uninstalls, A again")
    func visibilityScenario() async throws {
        try await withProvider { client, provider in
            let asidA = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let asidB = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)

            let aFirst = try await friendsLogin(client, provider, as: TestFixtures.alice)
            #expect(aFirst.sub == asidA)
            #expect(aFirst.userFriends == [], "B has not installed the app")

            let bBrowser = DialogBrowser(client: client)
            let bPage = try await bBrowser.logIn(dialogPath(scope: "public_profile,user_friends"), as: TestFixtures.bob)
            let bToken = try #require(try bPage.redirectParameters().single("id_token"))
            let bClaims = try await verifyIDToken(bToken, provider: provider).claims
            #expect(bClaims.userFriends == [asidA], "A installed with user_friends")

            let aSecond = try await friendsLogin(client, provider, as: TestFixtures.alice)
            #expect(aSecond.userFriends == [asidB])
            #expect(aFirst.userFriends == [], "a token is a snapshot: the first one does not change")

            let (status, body) = try await uninstall(client, token: bToken, appID: TestFixtures.appID)
            #expect(status == .ok)
            #expect(body == "{\"success\":true}")

            let aThird = try await friendsLogin(client, provider, as: TestFixtures.alice)
            #expect(aThird.userFriends == [], "B uninstalled")
        }
    }

    @Test("a friend who declined user_friends is not listed, nor is anyone when the person declined it")
    func declinedFriends() async throws {
        try await withProvider { client, provider in
            let bob = DialogBrowser(client: client)
            _ = try await bob.logIn(dialogPath(scope: "public_profile,user_friends"), as: TestFixtures.bob, ticking: [])
            let carolClaims = try await friendsLogin(client, provider, as: TestFixtures.carol)
            #expect(carolClaims.userFriends == [], "Bob installed but declined user_friends")

            let alice = DialogBrowser(client: client)
            let page = try await alice.logIn(dialogPath(scope: "public_profile,user_friends"), as: TestFixtures.alice, ticking: [])
            let claims = try await verifyIDToken(try #require(try page.redirectParameters().single("id_token")), provider: provider).claims
            #expect(claims.userFriends == nil, "no user_friends claim without the permission")
        }
    }

    @Test("ASIDs differ between apps and stay the same for one app across logins and an uninstall")
    func appScopedIDs() async throws {
        try await withProvider { client, provider in
            let first = try await friendsLogin(client, provider, as: TestFixtures.alice)
            let other = try await friendsLogin(client, provider, as: TestFixtures.alice, appID: TestFixtures.otherAppID)
            #expect(first.sub != other.sub)
            #expect(first.sub != TestFixtures.alice && other.sub != TestFixtures.alice)
            let again = try await friendsLogin(client, provider, as: TestFixtures.alice)
            #expect(again.sub == first.sub)
            #expect(try await provider.store.userID(forAppScopedID: first.sub, appID: TestFixtures.appID) == TestFixtures.alice)
            #expect(try await provider.store.userID(forAppScopedID: first.sub, appID: TestFixtures.otherAppID) == nil)
        }
    }

    @Test("after an uninstall the status endpoint says not_authorized and the next login asks consent again, same ASID")
    func uninstallThenLogin() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let page = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let token = try #require(try page.redirectParameters().single("id_token"))
            let before = try await client.execute(uri: "/platform/oidc/status?id_token=\(token)", method: .get)
            #expect(before.status == .ok)
            #expect(before.headers[.init("fb-s")!] == "connected")

            #expect(try await uninstall(client, token: token, appID: TestFixtures.appID).0 == .ok)
            let after = try await client.execute(uri: "/platform/oidc/status?id_token=\(token)", method: .get)
            #expect(after.headers[.init("fb-s")!] == "not_authorized")

            let next = try await browser.get(dialogPath())
            #expect(next.status == .ok)
            #expect(next.body.contains("id=\"consent-form\""), "consent again after an uninstall")
            let done = try await browser.consent(on: next)
            let claims = try await verifyIDToken(try #require(try done.redirectParameters().single("id_token")), provider: provider).claims
            let original = try await verifyIDToken(token, provider: provider).claims
            #expect(claims.sub == original.sub)
        }
    }

    @Test("the status endpoint takes a token past its exp (an app asks with the token it saved): connected, then not_authorized")
    func statusWithExpiredToken() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let page = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let token = try #require(try page.redirectParameters().single("id_token"))
            let moved = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance": 7200}"#)
            #expect(moved.status == .ok, "\(moved.message ?? "")")
            let before = try await client.execute(uri: "/platform/oidc/status?id_token=\(token)", method: .get)
            #expect(before.status == .ok && before.headers[.init("fb-s")!] == "connected", "\(String(buffer: before.body))")
            #expect(try await provider.store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.alice))
            let after = try await client.execute(uri: "/platform/oidc/status?id_token=\(token)", method: .get)
            #expect(after.status == .ok && after.headers[.init("fb-s")!] == "not_authorized", "\(String(buffer: after.body))")
        }
    }

    @Test("uninstall and status take a token that has not expired however old it is (a minted two-hour token, four thousand seconds on)")
    func longLivedTokenComesBack() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            _ = try await DialogBrowser(client: client).logIn(dialogPath(), as: TestFixtures.alice)
            let minted = try await admin(
                client, "/_admin/tokens", method: .post,
                json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","lifetime":7200}"#)
            let token = try #require(minted.object["id_token"]?.stringValue, "\(minted.message ?? "")")
            let moved = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance": 4000}"#)
            #expect(moved.status == .ok, "\(moved.message ?? "")")
            let status = try await client.execute(uri: "/platform/oidc/status?id_token=\(token)", method: .get)
            #expect(status.status == .ok && status.headers[.init("fb-s")!] == "connected", "\(String(buffer: status.body))")
            let removed = try await uninstall(client, token: token, appID: TestFixtures.appID)
            #expect(removed.0 == .ok, "\(removed.1)")
            #expect(removed.1 == #"{"success":true}"#)
            #expect(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice)?.installed == false)
        }
    }

    @Test("uninstall refuses another app's token, a forged token, an unknown app and missing fields, changing nothing")
    func uninstallRefusals() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let page = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let token = try #require(try page.redirectParameters().single("id_token"))

            let otherApp = try await uninstall(client, token: token, appID: TestFixtures.otherAppID)
            #expect(otherApp.0 == .badRequest)
            #expect(otherApp.1.contains("\"message\":\"The id_token is not valid for app \(TestFixtures.otherAppID): "))
            #expect(otherApp.1.contains("\"code\":190"))

            var parts = token.split(separator: ".").map(String.init)
            var payload = try #require(try StrictJSONParser().parse(try Base64URL.decode(parts[1])).objectValue).dictionary
            payload["sub"] = .string(try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob))
            parts[1] = Base64URL.encode(JSONSerializer.serialize(.object(JSONObject(payload))))
            let forged = try await uninstall(client, token: parts.joined(separator: "."), appID: TestFixtures.appID)
            #expect(forged.0 == .badRequest)
            #expect(forged.1.contains("signature"), "\(forged.1)")

            let unknownApp = try await uninstall(client, token: token, appID: "999")
            #expect(unknownApp.1.contains("\"message\":\"No app with ID 999 is registered.\""))
            let noToken = try await uninstall(client, token: "", appID: TestFixtures.appID)
            #expect(noToken.1.contains("\"message\":\"id_token is required.\""))
            // A body that is not a form: 415 in Graph's shape too (it had no type or code).
            let json = try await client.execute(
                uri: "/platform/uninstall", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"id_token":"\#(token)","app_id":"\#(TestFixtures.appID)"}"#))
            #expect(json.status == .unsupportedMediaType)
            let refusal = try #require(try StrictJSONParser().parse(Array(String(buffer: json.body).utf8)).objectValue?["error"]?.objectValue)
            #expect(refusal["type"] == "OAuthException" && refusal["code"] == 100)
            #expect(refusal["message"] == "Send the form as application/x-www-form-urlencoded.")

            let grant = try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice)
            #expect(grant?.installed == true, "nothing changed")
            let status = try await client.execute(uri: "/platform/oidc/status?id_token=\(token)", method: .get)
            #expect(status.headers[.init("fb-s")!] == "connected")
        }
    }
}
