import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import LimitedLoginJOSE
@testable import LimitedLoginProvider
import Testing

private struct GraphReply {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let object: JSONObject

    var error: JSONObject? { object["error"]?.objectValue }
}

private func graph(_ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]) async throws -> GraphReply {
    let response = try await client.execute(uri: path, method: method, headers: headers)
    let value = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8))
    return GraphReply(status: response.status, headers: response.headers, object: try #require(value.objectValue, "\(String(buffer: response.body))"))
}

/// A classic login for `userID` with `scope`; returns the access token and the ID token.
private func classicLogin(_ client: any TestClientProtocol, as userID: String, scope: String, appID: String = TestFixtures.appID,
                          ticking: [String]? = nil) async throws -> (access: String, id: String) {
    let redirect = appID == TestFixtures.appID ? TestFixtures.registeredRedirect : "http://127.0.0.1:7000/cb"
    let page = try await DialogBrowser(client: client).logIn(
        dialogPath(appID: appID, redirectURI: redirect, scope: scope, limited: false, responseType: "token,id_token"), as: userID, ticking: ticking
    )
    let parameters = try page.redirectParameters()
    return (try #require(try parameters.single("access_token")), try #require(try parameters.single("id_token")))
}

@Suite("Graph API subset")
struct GraphTests {
    @Test("me returns id and name by default, and only the fields the grant allows")
    func meFields() async throws {
        try await withProvider { client, provider in
            _ = try await classicLogin(client, as: TestFixtures.bob, scope: "public_profile,user_friends")
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email,user_birthday,user_friends", ticking: ["email", "user_friends"])
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let bobASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)

            let basic = try await graph(client, "/v21.0/me?access_token=\(tokens.access)")
            #expect(basic.status == .ok)
            #expect(basic.object.dictionary == ["id": .string(asid), "name": "Alice Q Smith"])

            let rich = try await graph(client, "/v21.0/me?fields=id,first_name,email,birthday,friends,picture&access_token=\(tokens.access)")
            #expect(rich.object["email"] == "alice@example.com")
            #expect(rich.object["first_name"] == "Alice")
            #expect(rich.object["birthday"] == nil, "user_birthday was declined: the field is left out")
            let friends = try #require(rich.object["friends"]?.objectValue)
            #expect(friends["data"] == .array([.object(["id": .string(bobASID), "name": "Bob Jones"])]))
            #expect(rich.object["picture"]?.objectValue?["data"]?.objectValue?["url"] == .string("http://provider.test/v21.0/\(asid)/picture"))

            let header = try await graph(client, "/v21.0/me", headers: [.authorization: "Bearer \(tokens.access)"])
            #expect(header.object["id"] == .string(asid), "the token may come in an Authorization header")

            let unknown = try await graph(client, "/v21.0/me?fields=id,favorite_color&access_token=\(tokens.access)")
            #expect(unknown.status == .badRequest)
            #expect(unknown.error?["message"] == "(#100) Tried accessing nonexisting field (favorite_color) on node type (User)")
            #expect(unknown.error?["code"] == 100 && unknown.error?["type"] == "OAuthException")
        }
    }

    @Test("no token, an ID token, garbage, an expired token: code 190 with the exact message")
    func badTokens() async throws {
        try await withProvider { client, provider in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let limited = try await DialogBrowser(client: client).logIn(dialogPath(), as: TestFixtures.carol)
            let limitedIDToken = try #require(try limited.redirectParameters().single("id_token"))
            for (name, path) in [
                ("no token", "/v21.0/me"),
                ("an ID token", "/v21.0/me?access_token=\(limitedIDToken)"),
                ("a classic ID token", "/v21.0/me?access_token=\(tokens.id)"),
                ("garbage", "/v21.0/me?access_token=EAAnotatoken"),
            ] {
                let reply = try await graph(client, path)
                #expect(reply.status == .unauthorized, "\(name)")
                #expect(reply.error?["message"] == "Invalid OAuth access token - Cannot parse access token", "\(name)")
                #expect(reply.error?["code"] == 190, "\(name)")
                #expect(reply.error?["fbtrace_id"]?.stringValue?.isEmpty == false, "\(name)")
                #expect(reply.headers[.wwwAuthenticate]?.contains("invalid_token") == true, "\(name)")
            }
            let expired = "EAAexpired-token-for-the-test"
            try await provider.store.saveAccessToken(expired, AccessTokenRecord(
                appID: TestFixtures.appID, userID: TestFixtures.alice, issuedAt: 1, expiresAt: 2, dataAccessExpiresAt: 3
            ))
            let reply = try await graph(client, "/v21.0/me?access_token=\(expired)")
            #expect(reply.error?["message"] == "Error validating access token: Session has expired.")
            #expect(reply.error?["code"] == 190 && reply.error?["error_subcode"] == 463)
        }
    }

    @Test("me/permissions lists granted and declined; DELETE of one declines it; DELETE of all removes the app and kills its tokens")
    func permissions() async throws {
        try await withProvider { client, _ in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email,user_likes", ticking: ["user_likes"])
            let listed = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)")
            #expect(listed.object["data"] == .array([
                .object(["permission": "public_profile", "status": "granted"]),
                .object(["permission": "user_likes", "status": "granted"]),
                .object(["permission": "email", "status": "declined"]),
            ]))
            let one = try await graph(client, "/v21.0/me/permissions/user_likes?access_token=\(tokens.access)", method: .delete)
            #expect(one.object.dictionary == ["success": true])
            let afterOne = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)")
            #expect(afterOne.object["data"] == .array([
                .object(["permission": "public_profile", "status": "granted"]),
                .object(["permission": "email", "status": "declined"]),
                .object(["permission": "user_likes", "status": "declined"]),
            ]))
            let profile = try await graph(client, "/v21.0/me/permissions/public_profile?access_token=\(tokens.access)", method: .delete)
            #expect(profile.error?["message"] == "(#100) public_profile cannot be revoked alone; DELETE me/permissions removes the app.")
            let deleted = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)", method: .delete)
            #expect(deleted.object.dictionary == ["success": true])
            let after = try await graph(client, "/v21.0/me?access_token=\(tokens.access)")
            #expect(after.error?["code"] == 190 && after.error?["error_subcode"] == 458)
        }
    }

    @Test("another app's token cannot read a person of this app; a user token reads only its own person")
    func crossApp() async throws {
        try await withProvider { client, provider in
            let aliceHere = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let aliceThere = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile", appID: TestFixtures.otherAppID)
            _ = try await classicLogin(client, as: TestFixtures.bob, scope: "public_profile")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let bobASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)

            let own = try await graph(client, "/v21.0/\(asid)?access_token=\(aliceHere.access)")
            #expect(own.object["id"] == .string(asid))
            let other = try await graph(client, "/v21.0/\(asid)?access_token=\(aliceThere.access)")
            #expect(other.error?["code"] == 100 && other.error?["error_subcode"] == 33)
            let someoneElse = try await graph(client, "/v21.0/\(bobASID)?access_token=\(aliceHere.access)")
            #expect(someoneElse.error?["message"] == "(#100) A user access token can read only its own person.")
        }
    }

    @Test("token_for_business: equal across two apps of one business, different for a third, refused without a business")
    func tokenForBusiness() async throws {
        try await withProvider { client, provider in
            try await provider.store.createApp(AppRecord(id: "3333333333", secret: "third-secret", name: "Sister App", businessID: "77"))
            try await provider.store.createApp(AppRecord(id: "4444444444", secret: "fourth-secret", name: "Rival App", businessID: "88"))
            var tokens: [String: String] = [:]
            for (appID, secret) in [(TestFixtures.appID, TestFixtures.appSecret), ("3333333333", "third-secret"), ("4444444444", "fourth-secret")] {
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile", appID: appID)
                let credentials = try await graph(client, "/v21.0/oauth/access_token?grant_type=client_credentials&client_id=\(appID)&client_secret=\(secret)")
                #expect(credentials.object["access_token"] == .string("\(appID)|\(secret)"))
                let asid = try await provider.store.appScopedID(appID: appID, userID: TestFixtures.alice)
                let reply = try await graph(client, "/v21.0/\(asid)?fields=token_for_business&access_token=\(appID)%7C\(secret)")
                #expect(reply.object["id"] == .string(asid))
                tokens[appID] = try #require(reply.object["token_for_business"]?.stringValue)
            }
            #expect(tokens[TestFixtures.appID] == tokens["3333333333"])
            #expect(tokens[TestFixtures.appID] != tokens["4444444444"])

            let noBusiness = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile", appID: TestFixtures.otherAppID)
            _ = noBusiness
            let otherApp = try #require(try await provider.store.app(id: TestFixtures.otherAppID))
            let asid = try await provider.store.appScopedID(appID: TestFixtures.otherAppID, userID: TestFixtures.alice)
            let refused = try await graph(client, "/v21.0/\(asid)?fields=token_for_business&access_token=\(otherApp.id)%7C\(otherApp.secret)")
            #expect(refused.error?["message"] == .string("(#100) The app \(TestFixtures.otherAppID) is not associated with a business."))

            let wrongSecret = try await graph(client, "/v21.0/me?access_token=\(TestFixtures.appID)%7Cwrong")
            #expect(wrongSecret.error?["code"] == 190)
            let appOnMe = try await graph(client, "/v21.0/me?access_token=\(TestFixtures.appID)%7C\(TestFixtures.appSecret)")
            #expect(appOnMe.error?["code"] == 2500)
        }
    }

    @Test("fb_extend_sso_token refreshes, fb_exchange_token needs the app secret; both give working tokens")
    func refreshAndExchange() async throws {
        try await withProvider { client, _ in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let refreshed = try await graph(client, "/v21.0/oauth/access_token?grant_type=fb_extend_sso_token&access_token=\(tokens.access)")
            let fresh = try #require(refreshed.object["access_token"]?.stringValue)
            #expect(fresh != tokens.access)
            #expect(refreshed.object["graph_domain"] == "facebook")
            #expect(refreshed.object["expires_at"]?.numberValue != nil && refreshed.object["data_access_expiration_time"]?.numberValue != nil)
            #expect(try await graph(client, "/v21.0/me?access_token=\(fresh)").object["name"] == "Alice Q Smith")

            let wrong = try await graph(client, "/v21.0/oauth/access_token?grant_type=fb_exchange_token&client_id=\(TestFixtures.appID)&client_secret=nope&fb_exchange_token=\(tokens.access)")
            #expect(wrong.error?["message"] == "Error validating client secret.")
            let exchanged = try await graph(client, "/v21.0/oauth/access_token?grant_type=fb_exchange_token&client_id=\(TestFixtures.appID)&client_secret=\(TestFixtures.appSecret)&fb_exchange_token=\(tokens.access)")
            let longLived = try #require(exchanged.object["access_token"]?.stringValue)
            #expect(exchanged.object["expires_in"] == .number(Double(TokenLifetimes.defaultAccessToken)))
            #expect(try await graph(client, "/v21.0/me?access_token=\(longLived)").status == .ok)

            let unknownGrant = try await graph(client, "/v21.0/oauth/access_token?grant_type=password")
            #expect(unknownGrant.error?["message"] == "Unsupported grant_type password.")
        }
    }

    @Test("the picture is a generated SVG with the person's initials")
    func picture() async throws {
        try await withProvider { client, provider in
            _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let response = try await client.execute(uri: "/v21.0/\(asid)/picture", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: response.body).contains(">AS</text>"))
            let missing = try await client.execute(uri: "/v21.0/999/picture", method: .get)
            #expect(missing.status == .notFound)
        }
    }
}
