import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Graph API: appsecret_proof")
struct AppSecretProofTests {
    /// What a server computes: the hex HMAC-SHA256 of the access token, keyed with the app secret (written here
    /// from the real service's documentation, not with the provider's own function).
    static func proof(_ token: String, secret: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: SymmetricKey(data: Data(secret.utf8))).map { String(format: "%02x", $0) }
            .joined()
    }

    @Test("a proof given is checked whatever the app says; an app that requires it refuses a person's token without one; the app token needs none")
    func proofs() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let secret = try #require(try await provider.store.app(id: TestFixtures.appID)?.secret)
            let (access, _) = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let good = Self.proof(access, secret: secret)

            #expect(try await graph(client, "/v21.0/me?access_token=\(access)").status == .ok, "not required: no proof is fine")
            #expect(try await graph(client, "/v21.0/me?access_token=\(access)&appsecret_proof=\(good)").status == .ok)
            let wrong = try await graph(client, "/v21.0/me?access_token=\(access)&appsecret_proof=\(String(good.reversed()))")
            #expect(wrong.status == .badRequest)
            #expect(wrong.error?["message"] == "Invalid appsecret_proof provided in the API argument")
            #expect(wrong.error?["type"] == "GraphMethodException" && wrong.error?["code"] == 100)

            let required = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"require_appsecret_proof": true}"#)
            #expect(required.status == .ok && required.object["require_appsecret_proof"] == true, "\(required.object)")
            let missing = try await graph(client, "/v21.0/me?access_token=\(access)")
            #expect(missing.status == .badRequest)
            #expect(missing.error?["message"] == "API calls from the server require an appsecret_proof argument")
            #expect(missing.error?["type"] == "GraphMethodException" && missing.error?["code"] == 100)
            #expect(try await graph(client, "/v21.0/me/permissions?access_token=\(access)&appsecret_proof=\(good)").status == .ok)
            // The refresh (fb_extend_sso_token) is a call with the person's token too: it skipped the check.
            let refresh = "/v21.0/oauth/access_token?grant_type=fb_extend_sso_token&access_token=\(access)"
            let unproved = try await graph(client, refresh)
            #expect(unproved.status == .badRequest)
            #expect(unproved.error?["message"] == "API calls from the server require an appsecret_proof argument")
            let wrongRefresh = try await graph(client, refresh + "&appsecret_proof=\(String(good.reversed()))")
            #expect(wrongRefresh.error?["message"] == "Invalid appsecret_proof provided in the API argument")
            let proved = try await graph(client, refresh + "&appsecret_proof=\(good)")
            #expect(proved.status == .ok && proved.object["access_token"]?.stringValue?.hasPrefix("EAA") == true, "\(proved.object)")
            let bearer = try await graph(client, "/v21.0/me?appsecret_proof=\(good)", headers: [.authorization: "Bearer \(access)"])
            #expect(bearer.status == .ok, "the token from the Authorization header is the one proved")

            let appToken = "\(TestFixtures.appID)|\(secret)"
            let debug = try await graph(
                client,
                "/debug_token?input_token=\(access)&access_token=\(appToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
            #expect(debug.status == .ok, "the app token carries the secret: no proof")

            let exported = try await admin(client, "/_admin/export")
            let app = exported.object["apps"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == TestFixtures.appID }
            #expect(app?["require_appsecret_proof"] == true)
        }
    }
}
