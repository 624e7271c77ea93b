import LimitedLoginVapor
import LimitedLoginVerifier
import Vapor
import XCTVapor

/// The body of an error Vapor's error middleware renders.
struct ErrorBody: Decodable {
    var error: Bool
    var reason: String
}

/// An application as a backend of two apps would set it up: a verifier for the iOS app and the game whose
/// keys come from a key-set server on loopback, and these routes:
///
/// - `GET /me`: behind the authenticator and a guard; answers `user <sub> app <app ID>`.
/// - `GET /optional`: behind the authenticator only; answers the user or `anonymous`.
/// - `GET /verify-here`: no authenticator; verifies with `req.limitedLogin.verify()`.
func withApplication(
    nonce: LimitedLoginNoncePolicy,
    keySetURL: URL? = nil,
    _ body: (Application) async throws -> Void
) async throws {
    let keys = try await KeySetServer.start(TestTokens.keySet)
    let app = try await Application.make(.testing)
    do {
        let verifier = TokenVerifier(
            configuration: try VerifierConfiguration(appIDs: [TestTokens.iosApp, TestTokens.gameApp], allowedIssuers: [TestTokens.issuer]),
            // A short timeout: the HTTP client retries a refused connection until the request's deadline.
            keys: RemoteKeySet(url: keySetURL ?? keys.keySetURL, policy: .init(requestTimeout: 1))
        )
        app.limitedLogin.use(verifier: verifier, nonce: nonce)
        let authenticated = app.grouped(try app.limitedLogin.authenticator())
        authenticated
            .grouped(LimitedLoginIdentity.guardMiddleware(throwing: LimitedLoginAuthenticationError.missingToken))
            .get("me") { req -> String in
                let identity = try req.limitedLogin.require()
                return "user \(identity.userID) app \(identity.appID)"
            }
        authenticated.get("optional") { req -> String in
            req.limitedLogin.identity.map { "user \($0.userID)" } ?? "anonymous"
        }
        app.get("verify-here") { req -> String in
            let identity = try await req.limitedLogin.verify()
            return "user \(identity.userID) app \(identity.appID)"
        }
        try await body(app)
    } catch {
        try await app.asyncShutdown()
        try await keys.stop()
        throw error
    }
    try await app.asyncShutdown()
    try await keys.stop()
}

/// Headers with `Authorization: Bearer <token>` and, when given, the nonce header.
func headers(bearer token: String?, nonce: String? = nil) -> HTTPHeaders {
    var headers = HTTPHeaders()
    if let token { headers.add(name: .authorization, value: "Bearer \(token)") }
    if let nonce { headers.add(name: .limitedLoginNonce, value: nonce) }
    return headers
}

extension XCTHTTPResponse {
    /// The reason in an error body, or nil when the body is not one.
    var reason: String? { try? content.decode(ErrorBody.self).reason }
    /// `WWW-Authenticate`.
    var challenge: String? { headers.first(name: .wwwAuthenticate) }
}
