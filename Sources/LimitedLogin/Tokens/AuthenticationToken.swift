import LimitedLoginCore
import LimitedLoginJOSE

/// The ID token of a login (an OpenID Connect JWT), as the iOS SDK's `AuthenticationToken`.
///
/// The SDK sets ``current`` only after the token passed `LimitedLoginVerifier`'s checks (signature,
/// issuer, audience, expiry, age and nonce); an app's server must check it again before trusting it.
public struct AuthenticationToken: Sendable, Equatable, Codable {
    /// The compact JWT.
    public let tokenString: String
    /// The nonce the login was made with, which the token carries.
    public let nonce: String
    /// The graph domain the login answered with (`facebook`).
    public let graphDomain: String

    public init(tokenString: String, nonce: String, graphDomain: String = "facebook") {
        self.tokenString = tokenString
        self.nonce = nonce
        self.graphDomain = graphDomain
    }

    /// The token's claims, read from its payload (not verified again: that happened at login).
    /// Nil when the payload is not a claims object.
    public func claims() -> AuthenticationTokenClaims? {
        guard let jws = try? CompactJWS(parsing: tokenString) else { return nil }
        return try? AuthenticationTokenClaims(payload: jws.payload)
    }

    /// The authentication token of ``LoginSession/shared``.
    public static var current: AuthenticationToken? {
        get { LoginSession.shared.authenticationToken }
        set { LoginSession.shared.set { $0.authenticationToken = newValue } }
    }
}
