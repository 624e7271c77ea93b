import Foundation
import LimitedLoginCore

/// A classic login's Graph API access token, as the iOS SDK's `AccessToken`.
///
/// A limited login has none: `current` is nil after one, and the Graph client refuses to send.
public struct AccessToken: Sendable, Equatable, Codable {
    public let tokenString: String
    public let appID: String
    /// The app-scoped ID of the person.
    public let userID: String
    public let permissions: Set<Permission>
    public let declinedPermissions: Set<Permission>
    public let expiredPermissions: Set<Permission>
    public let expirationDate: Date
    /// When the token was issued or last refreshed.
    public let refreshDate: Date
    /// After this date the app must ask the person again before reading their data.
    public let dataAccessExpirationDate: Date
    public let graphDomain: String

    public init(
        tokenString: String, permissions: Set<Permission>, declinedPermissions: Set<Permission>,
        expiredPermissions: Set<Permission>, appID: String, userID: String, expirationDate: Date,
        refreshDate: Date = Date(), dataAccessExpirationDate: Date, graphDomain: String = "facebook"
    ) {
        self.tokenString = tokenString
        self.permissions = permissions
        self.declinedPermissions = declinedPermissions
        self.expiredPermissions = expiredPermissions
        self.appID = appID
        self.userID = userID
        self.expirationDate = expirationDate
        self.refreshDate = refreshDate
        self.dataAccessExpirationDate = dataAccessExpirationDate
        self.graphDomain = graphDomain
    }

    /// True once ``expirationDate`` has passed.
    public var isExpired: Bool { expirationDate <= Date() }

    /// True once ``dataAccessExpirationDate`` has passed.
    public var isDataAccessExpired: Bool { dataAccessExpirationDate <= Date() }

    /// True when the person granted `permission` to this token.
    public func hasGranted(_ permission: Permission) -> Bool { permissions.contains(permission) }

    /// The access token of ``LoginSession/shared``.
    public static var current: AccessToken? {
        get { LoginSession.shared.accessToken }
        set { LoginSession.shared.set { $0.accessToken = newValue } }
    }

    /// True when ``current`` is set and not expired.
    public static var isCurrentAccessTokenActive: Bool { current.map { !$0.isExpired } ?? false }

    /// Refreshes ``current`` through the shared session's provider (`fb_extend_sso_token`, then
    /// `me/permissions`) and returns the new token.
    public static func refreshCurrentAccessToken(using client: GraphClient) async throws(GraphClientError) -> AccessToken {
        try await client.refreshAccessToken()
    }
}
