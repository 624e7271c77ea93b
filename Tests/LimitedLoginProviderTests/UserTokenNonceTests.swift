import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Dialog: user_token_nonce")
struct UserTokenNonceTests {
    @Test(
        "returned when response_type asks for it: the same for a person and an app, another for another person; sent back, the next login completes")
    func userTokenNonce() async throws {
        try await withProvider { client, _ in
            func login(_ user: String, extra: [(String, String)] = []) async throws -> FormParameters {
                try await DialogBrowser(client: client).logIn(dialogPath(extra: extra), as: user).redirectParameters()
            }
            let firstLogin = try await login(TestFixtures.alice)
            let first = try #require(try firstLogin.single("user_token_nonce"))
            #expect(first.count == 43 && first.utf8.allSatisfy { Self.base64URLAlphabet.contains($0) }, "\(first)")
            // The iOS SDK sends the value back on its next request (LoginManager's `user_token_nonce` parameter).
            let again = try await login(TestFixtures.alice, extra: [("user_token_nonce", first)])
            #expect(try again.single("user_token_nonce") == first)
            #expect(try again.single("id_token") != nil)
            let bob = try await login(TestFixtures.bob)
            #expect(try bob.single("user_token_nonce") != first)

            let classic = try await DialogBrowser(client: client).logIn(
                dialogPath(scope: "public_profile", limited: false, responseType: "token,id_token"), as: TestFixtures.alice
            )
            #expect(try classic.redirectParameters().single("user_token_nonce") == nil, "not asked for: not returned")
        }
    }

    static let base64URLAlphabet = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8))
}
