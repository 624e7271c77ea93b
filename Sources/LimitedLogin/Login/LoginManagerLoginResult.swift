import LimitedLoginCore

/// The outcome of a login, as the iOS SDK's `LoginManagerLoginResult`.
public struct LoginManagerLoginResult: Sendable, Equatable {
    /// The access token of a classic login; nil after a limited login or a cancel.
    public let token: AccessToken?
    /// The verified ID token; nil after a cancel.
    public let authenticationToken: AuthenticationToken?
    /// True when the person cancelled.
    public let isCancelled: Bool
    public let grantedPermissions: Set<Permission>
    public let declinedPermissions: Set<Permission>
    /// How the login was performed (not in the iOS SDK): `.limited` when a limited login was asked for,
    /// and also when a classic one was performed as limited because
    /// ``Settings/isAdvertiserTrackingEnabled`` is false.
    public let tracking: LoginTracking

    public init(
        token: AccessToken?, authenticationToken: AuthenticationToken?, isCancelled: Bool,
        grantedPermissions: Set<Permission>, declinedPermissions: Set<Permission>, tracking: LoginTracking? = nil
    ) {
        self.token = token
        self.authenticationToken = authenticationToken
        self.isCancelled = isCancelled
        self.grantedPermissions = grantedPermissions
        self.declinedPermissions = declinedPermissions
        self.tracking = tracking ?? (token == nil && authenticationToken != nil ? .limited : .enabled)
    }

    static func cancelled(tracking: LoginTracking) -> LoginManagerLoginResult {
        LoginManagerLoginResult(
            token: nil, authenticationToken: nil, isCancelled: true, grantedPermissions: [], declinedPermissions: [],
            tracking: tracking
        )
    }

    static let cancelled = cancelled(tracking: .enabled)
}

/// The outcome as the iOS SDK's completion-handler `LoginResult`.
public enum LoginResult: Sendable {
    case success(granted: Set<Permission>, declined: Set<Permission>, token: AccessToken?)
    case cancelled
    case failed(any Error)

    init(_ outcome: Result<LoginManagerLoginResult, LoginError>) {
        switch outcome {
        case .success(let result) where result.isCancelled:
            self = .cancelled
        case .success(let result):
            self = .success(granted: result.grantedPermissions, declined: result.declinedPermissions, token: result.token)
        case .failure(let error):
            self = .failed(error)
        }
    }

    /// The result as the iOS SDK's block form gets it: a cancel is a result with `isCancelled`, a
    /// failure has none.
    public var loginManagerResult: LoginManagerLoginResult? {
        switch self {
        case .success(let granted, let declined, let token):
            return LoginManagerLoginResult(
                token: token, authenticationToken: nil, isCancelled: false, grantedPermissions: granted, declinedPermissions: declined
            )
        case .cancelled:
            return .cancelled
        case .failed:
            return nil
        }
    }

    /// The failure, if the login failed.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
