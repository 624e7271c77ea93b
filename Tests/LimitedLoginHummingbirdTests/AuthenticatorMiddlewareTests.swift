import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginHummingbird
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

/// The middleware for an app's own server, driven through a real Hummingbird router.
@Suite("LimitedLoginHummingbird: the bearer middleware")
struct AuthenticatorMiddlewareTests {
    let factory = TokenFactory()

    /// The middleware over the factory's key and clock, checking the nonce against `X-Limited-Login-Nonce`.
    func router(
        required: Bool = true,
        nonce: LimitedLoginNoncePolicy<BasicLimitedLoginRequestContext> = .exact(fromHeader: .limitedLoginNonce)
    ) -> Router<BasicLimitedLoginRequestContext> {
        let clock = ManualClock(factory.now)
        let verifier = TokenVerifier(
            configuration: VerifierConfiguration(appID: factory.appID, allowedIssuers: [factory.issuer]),
            keys: StaticKeySet(TestKeys.keySet([(factory.keyID, factory.key)])), clock: clock
        )
        let router = Router(context: BasicLimitedLoginRequestContext.self)
        router.add(middleware: LimitedLoginAuthenticator(verifier: verifier, nonce: nonce, isRequired: required))
        router.get("/whoami") { _, context -> String in
            context.limitedLoginIdentity.map { "user \($0.userID) \($0.profile.name ?? "")" } ?? "anonymous"
        }
        return router
    }

    func get(
        _ router: Router<BasicLimitedLoginRequestContext>, authorization: String?, nonce: String? = "nonce-7f3a"
    ) async throws -> (HTTPResponse.Status, String, String?) {
        try await Application(router: router).test(.router) { client in
            var headers: HTTPFields = [:]
            if let authorization { headers[.authorization] = authorization }
            if let nonce { headers[.limitedLoginNonce] = nonce }
            let response = try await client.execute(uri: "/whoami", method: .get, headers: headers)
            return (response.status, String(buffer: response.body), response.headers[.wwwAuthenticate])
        }
    }

    @Test("a valid token reaches the route with the verified identity")
    func validToken() async throws {
        let (status, body, _) = try await get(router(), authorization: "Bearer \(factory.token())")
        #expect(status == .ok)
        #expect(body == "user 1029384756 Ada Lovelace")
    }

    @Test("no header: 401 asking for a bearer token; passes through when not required")
    func missingHeader() async throws {
        let (status, body, challenge) = try await get(router(), authorization: nil)
        #expect(status == .unauthorized)
        #expect(challenge == #"Bearer realm="limited-login""#)
        #expect(body.contains("an Authorization: Bearer <ID token> header is required"))
        let (optionalStatus, optionalBody, _) = try await get(router(required: false), authorization: nil)
        #expect(optionalStatus == .ok)
        #expect(optionalBody == "anonymous")
    }

    @Test("a forged, expired or mis-addressed token is refused with invalid_token and its reason")
    func refusedTokens() async throws {
        var forged = factory.token().split(separator: ".").map(String.init)
        forged[1] = Base64URL.encode(Array(#"{"sub":"mallory"}"#.utf8))
        let expectations: [(String, String)] = [
            (forged.joined(separator: "."), "invalid_signature"),
            (factory.token { $0["exp"] = .number(factory.now.timeIntervalSince1970 - 600) }, "expired"),
            (factory.token { $0["aud"] = "999" }, "audience_mismatch"),
            (TokenFactory(key: TestKeys.secondary).token(), "invalid_signature"),
        ]
        for (token, reason) in expectations {
            let (status, body, challenge) = try await get(router(), authorization: "Bearer \(token)")
            #expect(status == .unauthorized)
            #expect(challenge == #"Bearer realm="limited-login", error="invalid_token""#)
            #expect(body.contains(#""reason":"\#(reason)""#), "\(body)")
        }
    }

    @Test("a header that is not 'Bearer <token>' is refused with invalid_request")
    func malformedHeader() async throws {
        for header in ["Basic abc", "Bearer", "Bearer ", "Bearer a b", "Token \(factory.token())"] {
            let (status, body, challenge) = try await get(router(), authorization: header)
            #expect(status == .unauthorized, "\(header)")
            #expect(challenge == #"Bearer realm="limited-login", error="invalid_request""#)
            #expect(body.contains("must be"), "\(header): \(body)")
        }
    }
}
