import Foundation
import LimitedLoginCore

/// What is persisted between runs of the app: the three `current` values.
public struct SessionSnapshot: Sendable, Equatable, Codable {
    public var accessToken: AccessToken?
    public var authenticationToken: AuthenticationToken?
    public var profile: Profile?
    /// The last `user_token_nonce` the dialog answered, sent back with the next dialog request (the iOS SDK
    /// keeps it in the keychain); forgotten at ``LoginManager/logOut()``.
    public var userTokenNonce: String?

    public init(
        accessToken: AccessToken? = nil, authenticationToken: AuthenticationToken? = nil, profile: Profile? = nil, userTokenNonce: String? = nil
    ) {
        self.accessToken = accessToken
        self.authenticationToken = authenticationToken
        self.profile = profile
        self.userTokenNonce = userTokenNonce
    }

    /// True when nothing is signed in.
    public var isEmpty: Bool { accessToken == nil && authenticationToken == nil && profile == nil }
}

/// Why the persisted session could not be read or written.
public enum TokenStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read the saved login at \(path): \(reason)"
        case .unwritable(let path, let reason): return "cannot save the login to \(path): \(reason)"
        }
    }
}

/// Where a ``LoginSession`` keeps its values between runs.
public protocol TokenStore: Sendable {
    /// The saved snapshot, or nil when nothing is saved.
    func load() throws(TokenStoreError) -> SessionSnapshot?
    /// Replaces what is saved; an empty snapshot removes it.
    func save(_ snapshot: SessionSnapshot) throws(TokenStoreError)
}
