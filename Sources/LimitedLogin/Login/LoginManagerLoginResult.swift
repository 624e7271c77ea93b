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

    public init(
        token: AccessToken?, authenticationToken: AuthenticationToken?, isCancelled: Bool,
        grantedPermissions: Set<Permission>, declinedPermissions: Set<Permission>
    ) {
        self.token = token
        self.authenticationToken = authenticationToken
        self.isCancelled = isCancelled
        self.grantedPermissions = grantedPermissions
        self.declinedPermissions = declinedPermissions
    }

    static let cancelled = LoginManagerLoginResult(
        token: nil, authenticationToken: nil, isCancelled: true, grantedPermissions: [], declinedPermissions: []
    )
}

/// The outcome as the iOS SDK's completion-handler `LoginResult`.
public enum LoginResult: Sendable {
    case success(granted: Set<Permission>, declined: Set<Permission>, token: AccessToken?)
    case cancelled
    case failed(LoginError)
}
