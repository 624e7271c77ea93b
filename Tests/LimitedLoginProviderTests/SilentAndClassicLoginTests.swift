import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Dialog: prompt=none, and classic login (access tokens and codes)")
struct SilentAndClassicLoginTests {
    @Test("prompt=none: login_required without a session, consent_required without a grant, success with one")
    func promptNone() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let anonymous = try await browser.get(dialogPath(extra: [("prompt", "none")]))
            #expect(anonymous.status == .found)
            let loginRequired = try anonymous.redirectParameters()
            #expect(try loginRequired.single("error") == "login_required")
            #expect(try loginRequired.single("state") == "state-xyz")

            // Signed in (to another app) but no grant for this one.
            _ = try await browser.logIn(dialogPath(appID: TestFixtures.otherAppID, redirectURI: "http://127.0.0.1:9/cb"), as: TestFixtures.alice)
            let noGrant = try await browser.get(dialogPath(extra: [("prompt", "none")]))
            #expect(try noGrant.redirectParameters().single("error") == "consent_required")

            let first = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let firstToken = try #require(try first.redirectParameters().single("id_token"))
            let silent = try await browser.get(dialogPath(nonce: "silent-nonce", extra: [("prompt", "none"), ("id_token_hint", firstToken)]))
            #expect(silent.status == .found)
            let token = try await verifyIDToken(
                try #require(try silent.redirectParameters().single("id_token")), provider: provider, nonce: "silent-nonce")
            #expect(token.claims.sub == (try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)))

            // Wider scope than granted: consent_required.
            let wider = try await browser.get(dialogPath(scope: "user_gender", extra: [("prompt", "none")]))
            #expect(try wider.redirectParameters().single("error") == "consent_required")
        }
    }

    @Test("prompt=none with the hint of another person is login_required; a forged hint is invalid_request")
    func promptNoneHints() async throws {
        try await withProvider { client, _ in
            let bob = DialogBrowser(client: client)
            let bobsLogin = try await bob.logIn(dialogPath(), as: TestFixtures.bob)
            let bobsToken = try #require(try bobsLogin.redirectParameters().single("id_token"))

            let alice = DialogBrowser(client: client)
            _ = try await alice.logIn(dialogPath(), as: TestFixtures.alice)
            let mismatch = try await alice.get(dialogPath(extra: [("prompt", "none"), ("id_token_hint", bobsToken)]))
            #expect(try mismatch.redirectParameters().single("error") == "login_required")

            var parts = bobsToken.split(separator: ".").map(String.init)
            parts[2] = Base64URL.encode(Array(repeating: UInt8(7), count: 256))
            let forged = try await alice.get(dialogPath(extra: [("prompt", "none"), ("id_token_hint", parts.joined(separator: "."))]))
            let error = try forged.redirectParameters()
            #expect(try error.single("error") == "invalid_request")
            #expect(try error.single("error_message")?.hasPrefix("The id_token_hint is not an ID token this provider issued for this app:") == true)
        }
    }

    @Test("classic token + id_token: access token, expiry, data-access expiry, and an ID token with at_hash")
    func classicToken() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let path = dialogPath(scope: "public_profile,email,user_likes", limited: false, responseType: "token,id_token,granted_scopes")
            let invalid = try await browser.get(path)
            #expect(try invalid.redirectParameters().single("error") == "unsupported_response_type", "granted_scopes is not a response type")

            let done = try await browser.logIn(
                dialogPath(scope: "public_profile,email,user_likes", limited: false, responseType: "token,id_token,signed_request"),
                as: TestFixtures.carol
            )
            let parameters = try done.redirectParameters()
            #expect(
                parameters.pairs.map(\.name) == [
                    "access_token", "data_access_expiration_time", "expires_in", "id_token", "signed_request", "state", "granted_scopes",
                    "denied_scopes", "graph_domain",
                ], "signed_request was asked for (issue #33: the iOS SDK reads the user ID from it)")
            let accessToken = try #require(try parameters.single("access_token"))
            #expect(try parameters.single("expires_in") == String(TokenLifetimes.defaultAccessToken))
            let dataAccessText = try #require(try parameters.single("data_access_expiration_time"))
            let dataAccess = try #require(Int64(dataAccessText))
            #expect(abs(dataAccess - (ProviderTime.now() + TokenLifetimes.defaultDataAccess)) < 60)
            #expect(try parameters.single("granted_scopes") == "email,openid,public_profile,user_likes")
            let record = try #require(try await provider.store.accessToken(accessToken))
            #expect(record.userID == TestFixtures.carol && record.appID == TestFixtures.appID)

            let idToken = try await verifyIDToken(try #require(try parameters.single("id_token")), provider: provider)
            let expectedHash = Base64URL.encode(Array(SHA256.hash(data: Array(accessToken.utf8))).prefix(16))
            #expect(idToken.payload["at_hash"] == .string(expectedHash))
        }
    }

    @Test("classic code flow with PKCE S256: the code exchanges once, only with the right verifier and redirect URI")
    func codeWithPKCE() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let verifier = CodeVerifier()
            let path = dialogPath(
                limited: false, responseType: "code",
                extra: [
                    ("code_challenge", verifier.challenge), ("code_challenge_method", "S256"),
                ])
            let done = try await browser.logIn(path, as: TestFixtures.alice)
            let parameters = try done.redirectParameters()
            #expect(try parameters.single("id_token") == nil && parameters.single("access_token") == nil)
            let code = try #require(try parameters.single("code"))

            func exchange(
                _ code: String, verifier: String, redirect: String = TestFixtures.registeredRedirect
            ) async throws -> (HTTPResponse.Status, JSONObject) {
                var form = FormParameters()
                form.append("client_id", TestFixtures.appID)
                form.append("redirect_uri", redirect)
                form.append("code", code)
                form.append("code_verifier", verifier)
                let response = try await client.execute(
                    uri: "/v21.0/oauth/access_token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: form.encoded)
                )
                let object = try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue)
                return (response.status, object)
            }

            let wrongVerifier = try await exchange(code, verifier: CodeVerifier().value)
            #expect(wrongVerifier.0 == .badRequest)
            #expect(wrongVerifier.1["error"]?.objectValue?["message"] == "The code_verifier does not match the code_challenge.")

            // The failed attempt used the code up: codes are single-use whatever happens.
            let second = try await browser.logIn(path, as: TestFixtures.alice)
            let secondCode = try #require(try second.redirectParameters().single("code"))
            let wrongRedirect = try await exchange(secondCode, verifier: verifier.value, redirect: "http://127.0.0.1:1/x")
            #expect(wrongRedirect.1["error"]?.objectValue?["message"] == "redirect_uri must be the one the code was issued for.")

            let third = try await browser.logIn(path, as: TestFixtures.alice)
            let thirdCode = try #require(try third.redirectParameters().single("code"))
            let good = try await exchange(thirdCode, verifier: verifier.value)
            #expect(good.0 == .ok)
            let accessToken = try #require(good.1["access_token"]?.stringValue)
            #expect(good.1["token_type"] == "bearer")
            #expect(try await provider.store.accessToken(accessToken)?.userID == TestFixtures.alice)
            _ = try await verifyIDToken(try #require(good.1["id_token"]?.stringValue), provider: provider)

            let reused = try await exchange(thirdCode, verifier: verifier.value)
            #expect(reused.0 == .badRequest)
            #expect(reused.1["error"]?.objectValue?["message"] == "This authorization code has been used or does not exist.")
            #expect(reused.1["error"]?.objectValue?["type"] == "OAuthException")
        }
    }

    @Test("a code without PKCE needs the app secret")
    func codeWithSecret() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let path = dialogPath(nonce: nil, limited: false, responseType: "code")
            let first = try await browser.logIn(path, as: TestFixtures.alice)
            let code = try #require(try first.redirectParameters().single("code"))
            let wrong = try await client.execute(
                uri:
                    "/oauth/access_token?client_id=\(TestFixtures.appID)&redirect_uri=\(FormParameters.encode(TestFixtures.registeredRedirect))&code=\(code)&client_secret=wrong",
                method: .get
            )
            #expect(wrong.status == .badRequest)
            #expect(String(buffer: wrong.body).contains("\"message\":\"Error validating client secret.\""))

            let second = try await browser.logIn(path, as: TestFixtures.alice)
            let secondCode = try #require(try second.redirectParameters().single("code"))
            let right = try await client.execute(
                uri:
                    "/oauth/access_token?client_id=\(TestFixtures.appID)&redirect_uri=\(FormParameters.encode(TestFixtures.registeredRedirect))&code=\(secondCode)&client_secret=\(TestFixtures.appSecret)",
                method: .get
            )
            #expect(right.status == .ok)
            let body = try #require(try StrictJSONParser().parse(Array(String(buffer: right.body).utf8)).objectValue)
            #expect(body["access_token"]?.stringValue?.hasPrefix("EAA") == true)
            #expect(body["id_token"] == nil, "no nonce, no ID token")
        }
    }
}
