import Foundation
import LimitedLoginVapor
import LimitedLoginVerifier
import Vapor

// An app's own Vapor server that trusts a person only through a verified Limited Login ID token.
//
//     swift run limited-login serve &                       # in the repository's root
//     LIMITED_LOGIN_APP_IDS=1000000000000001 swift run limited-login-vapor-example serve --port 8082
//     curl -H "Authorization: Bearer $ID_TOKEN" -H "X-Limited-Login-Nonce: $RAW_NONCE" http://127.0.0.1:8082/me
//
// LIMITED_LOGIN_APP_IDS lists the apps this backend serves, separated by commas (an iOS app and a game, say);
// LIMITED_LOGIN_PROVIDER is the provider's base URL (default http://127.0.0.1:8080). The app logs in with the
// SHA-256 hex of a raw nonce it keeps and sends the raw nonce along: whoever holds only the token cannot.

/// What `GET /me` answers.
struct MeResponse: Content {
    var id: String
    var app: String
    var name: String?
    var email: String?
}

/// Reads the provider's discovery document and sets up the verifier, the nonce policy and the routes.
func configure(_ app: Application) async throws {
    let environment = ProcessInfo.processInfo.environment
    let appIDs = (environment["LIMITED_LOGIN_APP_IDS"] ?? "").split(separator: ",").map { String($0) }
    let provider = environment["LIMITED_LOGIN_PROVIDER"] ?? "http://127.0.0.1:8080"
    guard let discoveryURL = URL(string: provider)?.appendingPathComponent(".well-known/openid-configuration") else {
        throw Abort(.internalServerError, reason: "LIMITED_LOGIN_PROVIDER must be a URL, got \(provider)")
    }
    let discovery = try await ProviderDiscovery.fetch(discoveryURL)
    // Throws at start for an empty LIMITED_LOGIN_APP_IDS, rather than refusing every token later.
    let verifier = try TokenVerifier.provider(discovery: discovery, appIDs: appIDs)
    app.limitedLogin.use(verifier: verifier, nonce: .sha256OfRawNonce(fromHeader: .limitedLoginNonce))

    app.get("health") { _ in "ok" }
    app.grouped(try app.limitedLogin.authenticator())
        .grouped(LimitedLoginIdentity.guardMiddleware(throwing: LimitedLoginAuthenticationError.missingToken))
        .get("me") { req -> MeResponse in
            let identity = try req.limitedLogin.require()
            return MeResponse(id: identity.userID, app: identity.appID, name: identity.claims.name, email: identity.claims.email)
        }
}

let app = try await Application.make(.detect())
do {
    try await configure(app)
    try await app.execute()
} catch {
    app.logger.report(error: error)
    try? await app.asyncShutdown()
    throw error
}
try await app.asyncShutdown()
