import LimitedLoginCore
import LimitedLoginVerifier
import Vapor

/// Who a request comes from, after its ID token passed verification; `req.auth` holds it.
public struct LimitedLoginIdentity: Authenticatable, Sendable {
    /// The app-scoped user ID (`sub`).
    public var userID: String { token.claims.sub }
    /// The app the token was for: one of the verifier's app IDs.
    public var appID: String { token.appID }
    /// The verified claims.
    public var claims: AuthenticationTokenClaims { token.claims }
    /// The profile the claims describe.
    public var profile: Profile { Profile(claims: token.claims, refreshDate: token.claims.iat) }
    /// The whole verified token.
    public let token: VerifiedIDToken

    public init(token: VerifiedIDToken) {
        self.token = token
    }
}
