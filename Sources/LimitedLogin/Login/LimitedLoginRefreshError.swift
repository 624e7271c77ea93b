import Foundation
import LimitedLoginCore

/// Which refresh produced a ``LimitedLoginRefreshResult``, as the iOS SDK's `RefreshPath`.
public enum RefreshPath: String, Sendable, Equatable {
    /// A DPoP-bound request without a browser (never produced here: see ``RefreshFallbackPolicy/directOnly``).
    case direct
    /// `prompt=none` with `id_token_hint`: no page shown.
    case silent
    /// A full limited login through the dialog.
    case explicit
}

/// How `refreshLimitedLogin` may renew the session, as the iOS SDK's `RefreshFallbackPolicy`.
public enum RefreshFallbackPolicy: Int, Sendable, Equatable {
    /// Silent first; when the provider answers that a login or consent is required, an explicit login.
    case automatic = 0
    /// Only `prompt=none`: nothing is shown; fails with `loginRequired` or `consentRequired`.
    case silentOnly
    /// Only a full limited login through the dialog.
    case explicitOnly
    /// The iOS SDK's DPoP-bound refresh. Tokens of this project never carry `cnf.jkt`, so it fails with
    /// ``LimitedLoginRefreshError/notDPoPBound``.
    case directOnly
}

/// A renewed limited-login session, as the iOS SDK's `LimitedLoginRefreshResult`.
public struct LimitedLoginRefreshResult: Sendable, Equatable {
    /// The new `Profile.current`.
    public let profile: Profile
    /// The new `AuthenticationToken.current`.
    public let authenticationToken: AuthenticationToken
    /// The refresh that succeeded.
    public let path: RefreshPath
}

/// Why a limited-login refresh failed, as the iOS SDK's `LimitedLoginRefreshError` (domain
/// `com.facebook.sdk.login.refresh`, the same codes).
public enum LimitedLoginRefreshError: Int, Error, Sendable, Equatable, CustomStringConvertible {
    /// No `AuthenticationToken.current`: log in first.
    case noCurrentToken = 0
    /// The current profile is not a limited login's.
    case notLimitedLogin
    /// The provider has no signed-in person for this browser: a login is required.
    case loginRequired
    /// The grant does not cover the permissions (declined, removed, or the app was uninstalled).
    case consentRequired
    /// The renewed token is for another person than `Profile.current`; nothing was changed.
    case userMismatch
    /// The provider could not be reached.
    case networkError
    /// No answer arrived in time.
    case timeout
    /// Too many refreshes (never produced here: this SDK has no client-side limiter).
    case rateLimited
    /// The answer carries no usable ID token, or the token failed verification.
    case invalidResponse
    /// The person cancelled the explicit login.
    case cancelled
    /// Refresh is switched off (never produced here).
    case featureDisabled
    /// The platform cannot refresh (never produced here).
    case unsupportedPlatform
    /// The current token has no DPoP binding (`cnf.jkt`), so a direct refresh cannot use it.
    case notDPoPBound
    /// No DPoP key could be made (never produced here).
    case dpopKeyGenerationFailed
    /// Anything else, such as a renewed login that could not be saved.
    case unknown

    public var description: String {
        switch self {
        case .noCurrentToken: return "no current limited login: log in first"
        case .notLimitedLogin: return "the current session is a classic login, not a limited one"
        case .loginRequired: return "the person is not signed in at the provider: they must log in again (login_required)"
        case .consentRequired: return "the grant does not cover the permissions: the person must log in and consent again (consent_required)"
        case .userMismatch: return "the renewed token is for another person than the current profile; nothing was changed"
        case .networkError: return "the provider could not be reached"
        case .timeout: return "the refresh got no answer in time"
        case .rateLimited: return "refresh attempts are being throttled"
        case .invalidResponse: return "the refresh answer carries no valid ID token"
        case .cancelled: return "the person cancelled the login"
        case .featureDisabled: return "limited-login refresh is disabled"
        case .unsupportedPlatform: return "this platform cannot refresh a limited login"
        case .notDPoPBound: return "the current token has no DPoP binding (cnf.jkt), so it cannot be refreshed directly"
        case .dpopKeyGenerationFailed: return "no DPoP key could be made"
        case .unknown: return "the refresh failed for an unknown reason"
        }
    }
}

extension LimitedLoginRefreshError: CustomNSError {
    /// `com.facebook.sdk.login.refresh`, as the iOS SDK's.
    public static var errorDomain: String { "com.facebook.sdk.login.refresh" }
    public var errorCode: Int { rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
