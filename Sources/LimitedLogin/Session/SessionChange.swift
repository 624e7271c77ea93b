import Foundation
import LimitedLoginCore

/// One change of a ``LoginSession``'s current values, with the value before and after.
public enum SessionChange: Sendable, Equatable {
    case accessToken(old: AccessToken?, new: AccessToken?)
    case authenticationToken(old: AuthenticationToken?, new: AuthenticationToken?)
    case profile(old: Profile?, new: Profile?)
}

extension Notification.Name {
    /// Posted when `AccessToken.current` changes; `userInfo` holds ``AccessTokenChangeOldKey`` and
    /// ``AccessTokenChangeNewKey`` (absent when that side is nil). The object is the ``LoginSession``.
    public static let AccessTokenDidChange = Notification.Name("LimitedLoginAccessTokenDidChange")
    /// Posted when `AuthenticationToken.current` changes, with ``AuthenticationTokenChangeOldKey`` and
    /// ``AuthenticationTokenChangeNewKey``.
    public static let AuthenticationTokenDidChange = Notification.Name("LimitedLoginAuthenticationTokenDidChange")
    /// Posted when `Profile.current` changes, with ``ProfileChangeOldKey`` and ``ProfileChangeNewKey``.
    public static let ProfileDidChange = Notification.Name("LimitedLoginProfileDidChange")
}

public let AccessTokenChangeOldKey = "AccessTokenChangeOldKey"
public let AccessTokenChangeNewKey = "AccessTokenChangeNewKey"
public let AuthenticationTokenChangeOldKey = "AuthenticationTokenChangeOldKey"
public let AuthenticationTokenChangeNewKey = "AuthenticationTokenChangeNewKey"
public let ProfileChangeOldKey = "ProfileChangeOldKey"
public let ProfileChangeNewKey = "ProfileChangeNewKey"
/// In an `AccessTokenDidChange` notification: `true` when the new token is for another person than the
/// old one (logging in, out, or as someone else), as in the iOS SDK.
public let AccessTokenDidChangeUserIDKey = "FBSDKAccessTokenDidChangeUserIDKey"
/// In an `AccessTokenDidChange` notification: `true` when the notification says that the current token
/// just expired (old and new are then the same token), as in the iOS SDK.
public let AccessTokenDidExpireKey = "FBSDKAccessTokenDidExpireKey"

extension SessionChange {
    var notificationName: Notification.Name {
        switch self {
        case .accessToken: return .AccessTokenDidChange
        case .authenticationToken: return .AuthenticationTokenDidChange
        case .profile: return .ProfileDidChange
        }
    }

    var userInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [:]
        switch self {
        case .accessToken(let old, let new):
            info[AccessTokenChangeOldKey] = old
            info[AccessTokenChangeNewKey] = new
            if old?.userID != new?.userID { info[AccessTokenDidChangeUserIDKey] = true }
        case .authenticationToken(let old, let new):
            info[AuthenticationTokenChangeOldKey] = old
            info[AuthenticationTokenChangeNewKey] = new
        case .profile(let old, let new):
            info[ProfileChangeOldKey] = old
            info[ProfileChangeNewKey] = new
        }
        return info
    }
}
