import Foundation

/// `auth_type`: whether the dialog asks again for permissions already declined or granted.
public enum LoginAuthType: String, Sendable, Codable, CaseIterable {
    /// Ask again for permissions the person declined.
    case rerequest
    /// Ask the person to confirm again, even for what was granted.
    case reauthorize
}

/// What a login asks for: permissions, tracking, nonce, `auth_type` and a PKCE verifier.
///
/// The initializer is failable, as in the iOS SDK, and stricter than it (docs/BEHAVIOUR.md, section 1): it returns nil
/// when the nonce is empty or holds whitespace or control characters, when a permission name is not valid,
/// or when a limited login asks for a permission outside ``Permission/limitedSet``.
public struct LoginConfiguration: Sendable, Equatable {
    /// The permissions to ask for.
    public let requestedPermissions: Set<Permission>
    /// Classic (`enabled`) or limited.
    public let tracking: LoginTracking
    /// The nonce the ID token must carry.
    public let nonce: String
    /// The Facebook Page a `user_messenger_contact` grant lets contact the person (`messenger_page_id`).
    public let messengerPageId: String?
    /// `auth_type`, or nil to send none.
    public let authType: LoginAuthType?
    /// The PKCE verifier for the classic code flow.
    public let codeVerifier: CodeVerifier

    public init?(
        permissions: Set<Permission> = [],
        tracking: LoginTracking = .enabled,
        nonce: String = UUID().uuidString,
        messengerPageId: String? = nil,
        authType: LoginAuthType? = .rerequest,
        codeVerifier: CodeVerifier = CodeVerifier()
    ) {
        guard (try? Self.validate(permissions: permissions, tracking: tracking, nonce: nonce)) != nil else { return nil }
        self.requestedPermissions = permissions
        self.tracking = tracking
        self.nonce = nonce
        self.messengerPageId = messengerPageId
        self.authType = authType
        self.codeVerifier = codeVerifier
    }

    /// The iOS SDK's initializers that take permission names (`["email", "user_friends"]`): each name
    /// becomes a ``Permission`` (a known case, or ``Permission/custom(_:)``), with the same rules as
    /// the `Set<Permission>` initializer. An array literal of
    /// strings picks this initializer, as it does in the iOS SDK.
    public init?(
        permissions: [String],
        tracking: LoginTracking,
        nonce: String = UUID().uuidString,
        messengerPageId: String? = nil,
        authType: LoginAuthType? = .rerequest,
        codeVerifier: CodeVerifier = CodeVerifier()
    ) {
        self.init(
            permissions: Set(permissions.map(Permission.init(name:))), tracking: tracking, nonce: nonce,
            messengerPageId: messengerPageId, authType: authType, codeVerifier: codeVerifier
        )
    }

    /// The same rules as the initializer, with the reason for a refusal.
    public static func validate(permissions: Set<Permission>, tracking: LoginTracking, nonce: String) throws(LoginConfigurationError) {
        guard Nonce.isValid(nonce) else { throw .invalidNonce }
        for permission in permissions.sorted(by: { $0.name < $1.name }) {
            guard permission.isValid else { throw .invalidPermissionName(permission.name) }
            if tracking == .limited, !permission.isAllowedInLimitedLogin {
                throw .permissionNotAllowedInLimitedLogin(permission.name)
            }
        }
    }
}

/// Why a ``LoginConfiguration`` would be refused.
public enum LoginConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidNonce
    case invalidPermissionName(String)
    case permissionNotAllowedInLimitedLogin(String)

    public var description: String {
        switch self {
        case .invalidNonce:
            return "the nonce must be a non-empty string without whitespace or control characters"
        case .invalidPermissionName(let name):
            return "\"\(name)\" is not a valid permission name (only a-z and _)"
        case .permissionNotAllowedInLimitedLogin(let name):
            return "\"\(name)\" cannot be requested in a limited login"
        }
    }
}
