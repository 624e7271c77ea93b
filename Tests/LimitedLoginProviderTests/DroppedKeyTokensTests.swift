import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #56, item 8: the OIDC status and `id_token_hint` keep answering for a token whose key was dropped
/// (they only ask whom it names: each key's public part is kept in the store); the uninstall, which acts on
/// the token, does not take it.
@Suite("Keys: tokens of a dropped key at the status and id_token_hint")
struct DroppedKeyTokensTests {
    @Test("after a drop_previous rotation the status says connected and a silent login takes the hint; the uninstall refuses the token")
    func droppedKeyStillNamesThePerson() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let first = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let oldToken = try #require(try first.redirectParameters().single("id_token"))
            let oldKey = try await provider.services.keyring.current().signer.keyID

            let rotated = try await client.execute(
                uri: "/_admin/keys/rotate", method: .post,
                headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "publish_delay=0&drop_previous=true"))
            #expect(rotated.status == .ok || rotated.status == .created, "\(String(buffer: rotated.body))")
            let jwks = String(buffer: try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get).body)
            #expect(!jwks.contains(oldKey), "the old key is no longer published")

            let status = try await client.execute(uri: "/platform/oidc/status?app_id=\(TestFixtures.appID)&id_token=\(oldToken)", method: .get)
            #expect(status.status == .ok, "\(String(buffer: status.body))")
            #expect(status.headers[.init("fb-s")!] == "connected")

            let silent = try await browser.get(dialogPath(nonce: "after-drop", extra: [("prompt", "none"), ("id_token_hint", oldToken)]))
            #expect(silent.status == .found)
            let token = try await verifyIDToken(
                try #require(try silent.redirectParameters().single("id_token")), provider: provider, nonce: "after-drop")
            #expect(token.claims.sub == (try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)))

            var form = FormParameters()
            form.append("id_token", oldToken)
            form.append("app_id", TestFixtures.appID)
            let uninstall = try await client.execute(
                uri: "/platform/uninstall", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: form.encoded))
            #expect(uninstall.status == .badRequest)
            let refusal = String(buffer: uninstall.body)
            #expect(refusal.contains("no key with kid") && refusal.contains(oldKey) && refusal.contains("in the key set"), "\(refusal)")

            // A kid no key ever had is still unknown to the status.
            var parts = oldToken.split(separator: ".").map(String.init)
            parts[0] = Base64URL.encode(Array(#"{"alg":"RS256","kid":"never-a-key","typ":"JWT"}"#.utf8))
            let forged = try await client.execute(
                uri: "/platform/oidc/status?app_id=\(TestFixtures.appID)&id_token=\(parts.joined(separator: "."))", method: .get)
            #expect(forged.status == .badRequest && String(buffer: forged.body).contains("never-a-key"), "\(String(buffer: forged.body))")
        }
    }
}
