import Crypto
import Foundation
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// Who is calling the Graph API, from the access token of the request.
enum GraphCaller: Sendable {
    /// A person's access token for an app.
    case user(token: String, record: AccessTokenRecord, app: AppRecord)
    /// The app access token `{app-id}|{app-secret}`.
    case app(AppRecord)

    var app: AppRecord {
        switch self {
        case .user(_, _, let app), .app(let app): return app
        }
    }
}

/// Finds and checks the access token of a Graph request: the `access_token` parameter, or an
/// `Authorization: Bearer …` / `OAuth …` header.
struct GraphCallerResolver: Sendable {
    let services: ProviderServices

    static func token(in request: Request, query: FormParameters) throws(GraphError) -> String? {
        let fromQuery: String?
        do { fromQuery = try query.single("access_token") } catch { throw .cannotParseToken }
        if let fromQuery, !fromQuery.isEmpty { return fromQuery }
        guard let header = request.headers[.authorization] else { return nil }
        for scheme in ["Bearer ", "OAuth "] where header.hasPrefix(scheme) {
            return String(header.dropFirst(scheme.count))
        }
        return nil
    }

    func resolve(_ token: String?) async throws -> GraphCaller {
        guard let token, !token.isEmpty, token.utf8.count <= 1024 else { throw GraphError.cannotParseToken }
        // An ID token (three base64url segments) is not an access token: a limited login cannot call the Graph API.
        if token.split(separator: ".", omittingEmptySubsequences: false).count == 3 { throw GraphError.cannotParseToken }
        let store = services.store
        if let bar = token.firstIndex(of: "|") {
            let appID = String(token[..<bar])
            let secret = String(token[token.index(after: bar)...])
            guard let app = try await store.app(id: appID) else { throw GraphError.cannotParseToken }
            guard constantTimeEquals(secret, app.secret) else {
                throw GraphError("Invalid OAuth access token signature.", code: 190, status: .unauthorized)
            }
            return .app(app)
        }
        guard let record = try await store.accessToken(token), let app = try await store.app(id: record.appID) else {
            throw GraphError.cannotParseToken
        }
        guard record.expiresAt > ProviderTime.now() else { throw GraphError.expiredToken }
        // Tokens die with the installation: after an uninstall (or DELETE me/permissions) the app must log in again,
        // and the tokens of that installation stay dead after the person installs it again.
        guard !record.revoked, let grant = try await store.grant(appID: app.id, userID: record.userID), grant.installed else {
            throw GraphError.invalidatedToken
        }
        guard try await store.admits(app, userID: record.userID) else { throw GraphError.developmentModeWithoutRole }
        return .user(token: token, record: record, app: app)
    }

    /// Resolves the caller, then checks `appsecret_proof` (docs/BEHAVIOUR.md, section 12): a proof given with a
    /// person's token must be the hex HMAC-SHA256 of the token keyed with the app secret; an app that
    /// requires it refuses a person's token without one. (The app token `{app-id}|{secret}` carries the secret.)
    func resolve(_ token: String?, query: FormParameters) async throws -> GraphCaller {
        let caller = try await resolve(token)
        guard case .user(let token, _, let app) = caller else { return caller }
        let proof: String?
        do { proof = try query.single("appsecret_proof") } catch { throw GraphError.invalidAppSecretProof }
        if let proof {
            guard constantTimeEquals(proof, Self.appSecretProof(token: token, secret: app.secret)) else { throw GraphError.invalidAppSecretProof }
        } else if app.requiresAppSecretProof {
            throw GraphError.appSecretProofRequired
        }
        return caller
    }

    /// `appsecret_proof`: the HMAC-SHA256 of the access token keyed with the app secret, in lowercase hex.
    static func appSecretProof(token: String, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(token.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }
}
