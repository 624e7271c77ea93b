import Foundation
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

    /// The token's claims while they can be relied on, as the iOS SDK's `claims()`: nil once the token
    /// expired, when it was issued more than ten minutes ago, when its nonce is not ``nonce``, or when the
    /// payload is not a claim set. The signature is not checked again (that happened at login).
    public func claims() -> AuthenticationTokenClaims? {
        claims(at: Date())
    }

    /// ``claims()`` as of `now`.
    public func claims(at now: Date) -> AuthenticationTokenClaims? {
        guard let claims = unvalidatedClaims(), claims.exp > now,
            claims.iat >= now.addingTimeInterval(-Self.claimsMaximumAge), claims.nonce == nonce
        else { return nil }
        return claims
    }

    /// The claims of the payload whatever their dates (not in the iOS SDK): for showing an expired token.
    public func unvalidatedClaims() -> AuthenticationTokenClaims? {
        guard let jws = try? CompactJWS(parsing: tokenString) else { return nil }
        return try? AuthenticationTokenClaims(payload: jws.payload)
    }

    /// How long after `iat` ``claims()`` answers: ten minutes, as the iOS SDK.
    public static let claimsMaximumAge: TimeInterval = 600

    /// The authentication token of ``LoginSession/shared``.
    public static var current: AuthenticationToken? {
        get { LoginSession.shared.authenticationToken }
        set { LoginSession.shared.set { $0.authenticationToken = newValue } }
    }
}
