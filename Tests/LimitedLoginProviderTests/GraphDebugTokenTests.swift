import Foundation
import HTTPTypes
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #33, the Graph calls an app's server makes for classic tokens: `debug_token` (with the app token,
/// each refusal as the real service words it) and `me/picture` (a redirect, or its description).
@Suite("Graph API: debug_token and me/picture")
struct GraphDebugTokenTests {
    static let appToken = "\(TestFixtures.appID)|\(TestFixtures.appSecret)"

    @Test("debug_token describes a valid token with the app token: app, user, scopes, times; unversioned and versioned")
    func validToken() async throws {
        try await withProvider { client, provider in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            for prefix in ["", "/v21.0"] {
                let reply = try await graph(client, "\(prefix)/debug_token?input_token=\(tokens.access)&access_token=\(Self.appToken)")
                #expect(reply.status == .ok, "\(prefix): \(reply.object)")
                let data = try #require(reply.object["data"]?.objectValue)
                #expect(data["is_valid"] == true && data["app_id"] == .string(TestFixtures.appID) && data["type"] == "USER")
                #expect(data["user_id"] == .string(asid) && data["application"] == "Test App")
                #expect(data["scopes"] == .array(["email", "public_profile"]))
                #expect(data["expires_at"]?.numberValue ?? 0 > Double(ProviderTime.now()))
            }
        }
    }

    @Test("debug_token refusals: a user token as the caller, another app's token, no input_token, an unknown token, an uninstalled app's token")
    func refusals() async throws {
        try await withProvider { client, provider in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let withUserToken = try await graph(client, "/debug_token?input_token=\(tokens.access)&access_token=\(tokens.access)")
            #expect(withUserToken.status == .badRequest)
            #expect(withUserToken.error?["message"] == .string(DebugTokenController.appTokenRequired.message))
            #expect(withUserToken.error?["code"] == 100)

            let other = try #require(try await provider.store.app(id: TestFixtures.otherAppID))
            let otherAppToken = "\(other.id)|\(other.secret)"
            let foreign = try await graph(client, "/debug_token?input_token=\(tokens.access)&access_token=\(otherAppToken)")
            #expect(foreign.error?["message"] == "(#100) The App_id in the input_token did not match the Viewing App")

            let missing = try await graph(client, "/debug_token?access_token=\(Self.appToken)")
            #expect(missing.error?["message"] == "(#100) The parameter input_token is required")

            let unknown = try await graph(client, "/debug_token?input_token=EAAnothing&access_token=\(Self.appToken)")
            #expect(unknown.status == .ok)
            #expect(unknown.object["data"]?.objectValue?["is_valid"] == false)
            #expect(unknown.object["data"]?.objectValue?["error"]?.objectValue?["code"] == 190)

            _ = try await provider.store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let revoked = try await graph(client, "/debug_token?input_token=\(tokens.access)&access_token=\(Self.appToken)")
            let data = try #require(revoked.object["data"]?.objectValue)
            #expect(data["is_valid"] == false && data["scopes"] == .array([]))
            #expect(data["error"]?.objectValue?["subcode"] == 458)

            let noCaller = try await graph(client, "/debug_token?input_token=\(tokens.access)")
            #expect(noCaller.status == .unauthorized && noCaller.error?["code"] == 190)
        }
    }

    @Test("a token of an installation that ended stays dead when the person installs the app again; the new token works")
    func revokedStaysRevoked() async throws {
        try await withProvider { client, _ in
            let old = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email")
            let removed = try await graph(client, "/v21.0/me/permissions?access_token=\(old.access)", method: .delete)
            #expect(removed.object == ["success": true])
            let new = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email")
            #expect(try await graph(client, "/v21.0/me?access_token=\(new.access)").status == .ok)

            let me = try await graph(client, "/v21.0/me?fields=email&access_token=\(old.access)")
            #expect(me.status == .unauthorized && me.error?["code"] == 190 && me.error?["error_subcode"] == 458, "\(me.object)")
            let extended = try await graph(client, "/v21.0/oauth/access_token?grant_type=fb_extend_sso_token&access_token=\(old.access)")
            #expect(extended.error?["code"] == 190 && extended.error?["error_subcode"] == 458, "\(extended.object)")
            let described = try await graph(client, "/debug_token?input_token=\(old.access)&access_token=\(Self.appToken)")
            let data = try #require(described.object["data"]?.objectValue)
            #expect(data["is_valid"] == false && data["error"]?.objectValue?["subcode"] == 458, "\(data)")
        }
    }

    @Test("once data access expired, /{asid} with the person's token reads what /me reads: no email")
    func nodeAfterDataAccessExpired() async throws {
        try await withProvider { client, provider in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let before = try await graph(client, "/v21.0/\(asid)?fields=email&access_token=\(tokens.access)")
            #expect(before.object["email"] != nil, "\(before.object)")
            #expect(try await provider.store.expireDataAccess(appID: TestFixtures.appID, userID: TestFixtures.alice) == 1)
            let me = try await graph(client, "/v21.0/me?fields=email&access_token=\(tokens.access)")
            let node = try await graph(client, "/v21.0/\(asid)?fields=email&access_token=\(tokens.access)")
            #expect(me.status == .ok && me.object["email"] == nil, "\(me.object)")
            #expect(node.status == .ok && node.object == me.object, "\(node.object)")
        }
    }

    @Test("me/picture redirects to the person's picture with the same size, or describes it with redirect=0")
    func myPicture() async throws {
        try await withProvider { client, provider in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let redirect = try await client.execute(uri: "/v21.0/me/picture?type=large&access_token=\(tokens.access)", method: .get)
            #expect(redirect.status == .found)
            #expect(redirect.headers[.location] == "http://provider.test/v21.0/\(asid)/picture?type=large")
            let described = try await graph(client, "/v21.0/me/picture?redirect=0&width=120&access_token=\(tokens.access)")
            let data = try #require(described.object["data"]?.objectValue)
            #expect(data["width"] == 120 && data["height"] == 120 && data["is_silhouette"] == false)
            #expect(data["url"] == .string("http://provider.test/v21.0/\(asid)/picture?width=120"))
            let badRedirect = try await graph(client, "/v21.0/me/picture?redirect=maybe&access_token=\(tokens.access)")
            #expect(badRedirect.status == .badRequest && badRedirect.error?["code"] == 100)
            let noToken = try await graph(client, "/v21.0/me/picture")
            #expect(noToken.status == .unauthorized && noToken.error?["code"] == 190)
        }
    }
}
