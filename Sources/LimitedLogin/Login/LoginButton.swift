import Foundation
import LimitedLoginCore

/// The login button's semantics without a view, as the iOS SDK's `FBLoginButton` holds them:
/// `loginTracking` defaults to `.enabled`, and a `nonce` that is not valid is not kept (the
/// configuration then gets a fresh UUID, as the button does).
public struct LoginButton: Sendable, Equatable {
    public var permissions: [Permission]
    public var loginTracking: LoginTracking
    public var authType: LoginAuthType?

    /// The nonce to log in with. Setting a value that is not a valid nonce (empty, whitespace or
    /// control characters) leaves it unset.
    public var nonce: String? {
        get { storedNonce }
        set { storedNonce = newValue.flatMap { Nonce.isValid($0) ? $0 : nil } }
    }

    private var storedNonce: String?

    public init(permissions: [Permission] = [], loginTracking: LoginTracking = .enabled, nonce: String? = nil, authType: LoginAuthType? = .rerequest) {
        self.permissions = permissions
        self.loginTracking = loginTracking
        self.authType = authType
        self.nonce = nonce
    }

    /// The configuration a tap logs in with: the stored nonce, or a fresh UUID. Nil when a permission is
    /// refused (a bad name, or one a limited login cannot ask for).
    public func makeConfiguration() -> LoginConfiguration? {
        LoginConfiguration(
            permissions: Set(permissions), tracking: loginTracking, nonce: storedNonce ?? UUID().uuidString, authType: authType
        )
    }
}
