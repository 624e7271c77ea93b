import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

/// Answers that must not log anyone in: each is refused with its precise error, and nothing is set.
@Suite("SDK: refused answers")
struct LoginRejectionTests {
    /// A real callback from the provider for Alice, with the nonce given.
    func realCallback(_ provider: SDKProvider, nonce: String, appID: String = TestFixtures.appID) async throws -> URL {
        let captured = Recorder<URL?>(nil)
        let presenter = TamperingPresenter(inner: ScriptedPresenter(person: alice)) { url in
            captured.set(url)
            return url
        }
        let (session, _) = provider.makeSession()
        let manager = LoginManager(appID: appID, endpoints: provider.endpoints, presenter: presenter, session: session)
        _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .limited, nonce: nonce)))
        return try #require(captured.value)
    }

    /// A limited login for Alice with `nonce` on a fresh saved session, its answer passed through `tamper`.
    func tamperedLogin(
        _ provider: SDKProvider, nonce: String, tamper: @escaping @Sendable (URL) -> URL
    ) throws -> (manager: LoginManager, configuration: LoginConfiguration, session: LoginSession, store: FileTokenStore) {
        let (session, store) = provider.makeSession()
        let presenter = TamperingPresenter(inner: ScriptedPresenter(person: alice), tamper: tamper)
        let manager = LoginManager(appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: presenter, session: session)
        return (manager, try #require(LoginConfiguration(tracking: .limited, nonce: nonce)), session, store)
    }

    func expectRefusal(
        _ provider: SDKProvider, _ expected: LoginError, nonce: String = "the-right-nonce",
        tamper: @escaping @Sendable (URL) -> URL
    ) async throws {
        let login = try tamperedLogin(provider, nonce: nonce, tamper: tamper)
        await #expect(throws: expected) { try await login.manager.logIn(configuration: login.configuration) }
        #expect(login.session.snapshot.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: login.store.path))
    }

    /// As ``expectRefusal(_:_:nonce:tamper:)``, for a verifier error whose details (a time) are not known
    /// in advance: `reason` says whether it is the expected one.
    func expectRefusal(
        _ provider: SDKProvider, _ label: String, nonce: String = "the-right-nonce", reason: (TokenVerificationError) -> Bool,
        tamper: @escaping @Sendable (URL) -> URL
    ) async throws {
        let login = try tamperedLogin(provider, nonce: nonce, tamper: tamper)
        do throws(LoginError) {
            _ = try await login.manager.logIn(configuration: login.configuration)
            Issue.record("\(label): the login passed")
        } catch {
            if case .invalidIDToken(let found) = error {
                #expect(reason(found), "\(label): \(found)")
            } else {
                Issue.record("\(label): \(error), not invalidIDToken")
            }
        }
        #expect(login.session.snapshot.isEmpty, "\(label)")
        #expect(!FileManager.default.fileExists(atPath: login.store.path), "\(label)")
    }

    @Test("an ID token made for another nonce: invalidIDToken(nonceMismatch)")
    func wrongNonce() async throws {
        try await withSDKProvider { provider in
            let other = try await realCallback(provider, nonce: "someone-elses-nonce")
            let foreignToken = try #require(parameter("id_token", in: other))
            try await expectRefusal(provider, .invalidIDToken(.nonceMismatch)) { url in
                replacingParameter("id_token", in: url, with: foreignToken)
            }
        }
    }

    @Test("tokens signed by the provider's own key but with a foreign iss, past exp, or older than the maximum age: each refused, nothing saved")
    func claimsTheVerifierRefuses() async throws {
        let adminToken = "sdk-rejection-admin-token-0123456789"
        var providerConfiguration = TestFixtures.configuration(publicBaseURL: nil)
        providerConfiguration.adminToken = adminToken
        try await withLiveProvider(providerConfiguration) { baseURL, client, liveProvider in
            let provider = SDKProvider(baseURL: try #require(URL(string: baseURL)), provider: liveProvider)
            /// A token for Alice with the nonce the login asks for, wrong in the one way `defect` names.
            func minted(_ defect: String) async throws -> String {
                let response = try await client.execute(
                    uri: "/_admin/tokens", method: .post,
                    headers: [.authorization: "Bearer \(adminToken)", .contentType: "application/json"],
                    body: ByteBuffer(
                        string: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","nonce":"the-right-nonce","defect":"\#(defect)"}"#)
                )
                let object = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue
                return try #require(object?["id_token"]?.stringValue, "\(defect): \(String(buffer: response.body))")
            }
            let wrongIssuer = try await minted("wrong-issuer")
            try await expectRefusal(provider, .invalidIDToken(.issuerNotAllowed("https://issuer.invalid"))) { url in
                replacingParameter("id_token", in: url, with: wrongIssuer)
            }
            let expired = try await minted("expired")
            try await expectRefusal(provider, "expired", reason: { if case .expired = $0 { true } else { false } }) { url in
                replacingParameter("id_token", in: url, with: expired)
            }
            let tooOld = try await minted("too-old")
            try await expectRefusal(provider, "too-old", reason: { if case .issuedTooLongAgo(_, 3600) = $0 { true } else { false } }) { url in
                replacingParameter("id_token", in: url, with: tooOld)
            }
        }
    }

    @Test("a tampered state: badChallengeString, even on an otherwise valid answer")
    func tamperedState() async throws {
        try await withSDKProvider { provider in
            try await expectRefusal(provider, .badChallengeString) { url in
                replacingParameter("state", in: url, with: #"{"challenge":"forged"}"#)
            }
            try await expectRefusal(provider, .badChallengeString) { url in
                replacingParameter("state", in: url, with: "not json")
            }
        }
    }

    @Test("a token with one signature byte changed: invalidIDToken(invalidSignature)")
    func tamperedSignature() async throws {
        try await withSDKProvider { provider in
            try await expectRefusal(provider, .invalidIDToken(.invalidSignature)) { url in
                guard let token = parameter("id_token", in: url) else { return url }
                var segments = token.split(separator: ".").map(String.init)
                var signature = (try? Base64URL.decode(segments[2])) ?? []
                signature[signature.count / 2] ^= 0x01
                segments[2] = Base64URL.encode(signature)
                return replacingParameter("id_token", in: url, with: segments.joined(separator: "."))
            }
        }
    }

    @Test("a token with a changed payload: invalidIDToken(invalidSignature)")
    func tamperedPayload() async throws {
        try await withSDKProvider { provider in
            try await expectRefusal(provider, .invalidIDToken(.invalidSignature)) { url in
                guard let token = parameter("id_token", in: url) else { return url }
                var segments = token.split(separator: ".").map(String.init)
                let payload = String(decoding: (try? Base64URL.decode(segments[1])) ?? [], as: UTF8.self)
                segments[1] = Base64URL.encode(Array(payload.replacingOccurrences(of: "Alice", with: "Mallory").utf8))
                return replacingParameter("id_token", in: url, with: segments.joined(separator: "."))
            }
        }
    }

    @Test("another app's token: invalidIDToken(audienceMismatch)")
    func anotherAppsToken() async throws {
        try await withSDKProvider { provider in
            let other = try await realCallback(provider, nonce: "the-right-nonce", appID: TestFixtures.otherAppID)
            let foreignToken = try #require(parameter("id_token", in: other))
            try await expectRefusal(
                provider, .invalidIDToken(.audienceMismatch(expected: TestFixtures.appID, actual: TestFixtures.otherAppID))
            ) { url in
                replacingParameter("id_token", in: url, with: foreignToken)
            }
        }
    }

    @Test("an error answer with error_message fails with the provider's message; one without is a cancel")
    func classification() throws {
        let endpoints = LoginEndpoints.provider(try #require(URL(string: "http://127.0.0.1:1")))
        let request = AuthorizationRequest(
            appID: "1", configuration: try #require(LoginConfiguration(tracking: .limited)), redirectURI: "fb1://authorize/", endpoints: endpoints
        )
        let state = FormParameters.encode(request.state)
        let failed = try #require(URL(string: "fb1://authorize/#error=invalid_scope&error_code=100&error_message=Bad+scope&state=\(state)"))
        #expect(try LoginCallback(url: failed, request: request) == .failed(code: "100", message: "Bad scope"))
        let cancelled = try #require(
            URL(
                string:
                    "fb1://authorize/#error=access_denied&error_code=200&error_description=Permissions+error&error_reason=user_denied&state=\(state)")
        )
        #expect(try LoginCallback(url: cancelled, request: request) == .cancelled)
        let noState = try #require(URL(string: "fb1://authorize/#error=access_denied&error_code=200"))
        #expect(throws: LoginError.badChallengeString) { try LoginCallback(url: noState, request: request) }
        let twoTokens = try #require(URL(string: "fb1://authorize/#id_token=a&id_token=b&state=\(state)"))
        #expect(throws: LoginError.malformedCallback("the parameter id_token is given more than once")) {
            try LoginCallback(url: twoTokens, request: request)
        }
    }

    @Test("the dialog URL: limited adds tp and no PKCE; classic adds PKCE S256; both carry nonce and JSON state")
    func dialogURL() throws {
        let endpoints = LoginEndpoints.provider(try #require(URL(string: "http://127.0.0.1:8080")))
        let limited = AuthorizationRequest(
            appID: "42", configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited, nonce: "n1")),
            redirectURI: "fb42://authorize/", endpoints: endpoints
        )
        let query = try FormParameters(encoded: try #require(limited.url.query))
        #expect(limited.url.path == "/\(LoginEndpoints.defaultGraphVersion)/dialog/oauth")
        #expect(try query.single("tp") == "ios_14_do_not_track")
        #expect(try query.single("response_type") == "id_token,graph_domain,user_token_nonce")
        #expect(try query.single("scope") == "email,openid")
        #expect(try query.single("nonce") == "n1")
        #expect(try query.single("code_challenge") == nil)
        #expect(try query.single("redirect_uri") == "fb42://authorize/")
        let state = try #require(try query.single("state"))
        #expect(LoginCallback.challenge(in: state) == limited.challenge)

        let verifier = CodeVerifier()
        let classic = AuthorizationRequest(
            appID: "42", configuration: try #require(LoginConfiguration(tracking: .enabled, nonce: "n2", codeVerifier: verifier)),
            redirectURI: "fb42://authorize/", endpoints: endpoints
        )
        let classicQuery = try FormParameters(encoded: try #require(classic.url.query))
        #expect(try classicQuery.single("tp") == nil)
        #expect(try classicQuery.single("code_challenge") == verifier.challenge)
        #expect(try classicQuery.single("code_challenge_method") == "S256")
        #expect(try classicQuery.single("response_type") == "code,id_token,signed_request,graph_domain")
    }

    @Test("a nil configuration fails with invalidConfiguration before anything is shown")
    func nilConfiguration() async throws {
        let presenter = ScriptedPresenter(person: alice)
        let manager = LoginManager(
            appID: "1", endpoints: .provider(try #require(URL(string: "http://127.0.0.1:1"))), presenter: presenter,
            session: LoginSession(store: nil)
        )
        await #expect(throws: LoginError.invalidConfiguration) {
            try await manager.logIn(configuration: LoginConfiguration(permissions: ["user_likes"], tracking: .limited))
        }
        #expect(presenter.pageTitles.isEmpty)
    }
}
