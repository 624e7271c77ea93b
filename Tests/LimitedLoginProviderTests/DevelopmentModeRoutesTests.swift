import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #56, item 3: Development mode holds on every route, not in the dialog only. A person who logged in
/// while the app was Live, and has no role on it, gets nothing for it once it is in Development mode; a role
/// given back lets everything work again (so each refusal below is the mode's, not something else's).
@Suite("Apps: Development mode on every route")
struct DevelopmentModeRoutesTests {
    static let appToken = "\(TestFixtures.appID)|\(TestFixtures.appSecret)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    static let refusal = "Error validating access token: The app is in development mode and this person has no role on it."

    @Test("a role-less person's token, code and ID token are refused everywhere once the app is in Development mode")
    func everyRoute() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            // While the app is Live: a classic login (access and ID token) and an unexchanged code.
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let codePage = try await DialogBrowser(client: client).logIn(
                dialogPath(nonce: nil, limited: false, responseType: "code"), as: TestFixtures.alice)
            let code = try #require(try codePage.redirectParameters().single("code"))
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            #expect(try await graph(client, "/v21.0/me?access_token=\(tokens.access)").status == .ok)

            let switched = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"mode": "development"}"#)
            #expect(switched.status == .ok)

            let me = try await graph(client, "/v21.0/me?access_token=\(tokens.access)")
            #expect(me.status == .unauthorized)
            #expect(me.error?["message"] == .string(Self.refusal) && me.error?["code"] == 190 && me.error?["error_subcode"] == 458)

            let extend = try await graph(client, "/v21.0/oauth/access_token?grant_type=fb_extend_sso_token&access_token=\(tokens.access)")
            #expect(extend.error?["message"] == .string(Self.refusal), "\(extend.object)")
            let exchange = try await graph(
                client,
                "/v21.0/oauth/access_token?grant_type=fb_exchange_token&client_id=\(TestFixtures.appID)&client_secret=\(TestFixtures.appSecret)&fb_exchange_token=\(tokens.access)"
            )
            #expect(exchange.error?["message"] == .string(Self.refusal), "\(exchange.object)")
            #expect(exchange.object["access_token"] == nil)

            let codeExchange = try await graph(
                client,
                "/oauth/access_token?client_id=\(TestFixtures.appID)&redirect_uri=\(FormParameters.encode(TestFixtures.registeredRedirect))&code=\(code)&client_secret=\(TestFixtures.appSecret)"
            )
            #expect(codeExchange.error?["message"] == .string(Self.refusal), "\(codeExchange.object)")
            #expect(codeExchange.object["access_token"] == nil)

            let debug = try await graph(client, "/debug_token?input_token=\(tokens.access)&access_token=\(Self.appToken)")
            let data = try #require(debug.object["data"]?.objectValue, "\(debug.object)")
            #expect(data["is_valid"] == false && data["scopes"] == .array([]))
            #expect(data["error"]?.objectValue?["message"] == .string(Self.refusal))

            let node = try await graph(client, "/v21.0/\(asid)?access_token=\(Self.appToken)")
            #expect(node.status == .badRequest && node.error?["code"] == 100, "the app token reads no one without a role: \(node.object)")
            #expect(node.object["name"] == nil)

            let listed = try await graph(client, "/v21.0/\(TestFixtures.appID)/accounts/test-users?access_token=\(Self.appToken)")
            let entries = (listed.object["data"]?.arrayValue ?? []).compactMap { $0.objectValue }
            let alice = try #require(entries.first { $0["id"]?.stringValue == asid })
            #expect(alice["access_token"] == nil, "no token for someone the app does not let in: \(alice)")

            let status = try await client.execute(
                uri: "/platform/oidc/status?app_id=\(TestFixtures.appID)&id_token=\(tokens.id)", method: .get)
            #expect(status.status == .ok && status.headers[.init("fb-s")!] == "not_authorized")

            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "user": "\#(TestFixtures.alice)"}"#)
            #expect(minted.status == .conflict)
            #expect(
                minted.message?.contains("is in development mode and \(TestFixtures.alice) has no role on it") == true,
                "\(minted.object)")
            let forced = try await admin(
                client, "/_admin/tokens", method: .post,
                json: #"{"app_id": "\#(TestFixtures.appID)", "user": "\#(TestFixtures.alice)", "ignore_development_mode": true}"#)
            #expect(forced.status == .created && forced.object["id_token"] != nil, "\(forced.object)")
            let badFlag = try await admin(
                client, "/_admin/tokens", method: .post,
                json: #"{"app_id": "\#(TestFixtures.appID)", "user": "\#(TestFixtures.alice)", "ignore_development_mode": "yes"}"#)
            #expect(badFlag.status == .badRequest && badFlag.message == "\"ignore_development_mode\" must be true or false.")

            // A role given: the same token and ID token work again.
            _ = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles/\(TestFixtures.alice)", method: .put, json: #"{"role": "tester"}"#)
            #expect(try await graph(client, "/v21.0/me?access_token=\(tokens.access)").status == .ok)
            let debugAgain = try await graph(client, "/debug_token?input_token=\(tokens.access)&access_token=\(Self.appToken)")
            #expect(debugAgain.object["data"]?.objectValue?["is_valid"] == true)
            #expect(try await graph(client, "/v21.0/\(asid)?access_token=\(Self.appToken)").status == .ok)
            let statusAgain = try await client.execute(
                uri: "/platform/oidc/status?app_id=\(TestFixtures.appID)&id_token=\(tokens.id)", method: .get)
            #expect(statusAgain.headers[.init("fb-s")!] == "connected")
            let mintedAgain = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "user": "\#(TestFixtures.alice)"}"#)
            #expect(mintedAgain.status == .created)
        }
    }
}
