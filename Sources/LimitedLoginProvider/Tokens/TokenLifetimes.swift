/// How long what the provider issues lasts, in seconds (`serve --id-token-lifetime` and friends). The
/// defaults are the real service's.
public struct TokenLifetimes: Sendable, Equatable {
    /// ID tokens: `exp - iat`; the real service's is one hour.
    public var idToken: Int64
    /// Classic user access tokens: about 60 days (long-lived).
    public var accessToken: Int64
    /// Data access: 90 days from the login; after it `me/permissions` reports the permissions `expired`.
    public var dataAccess: Int64
    /// Authorization codes of the classic code flow.
    public var code: Int64

    public static let defaultIDToken: Int64 = 3600
    public static let defaultAccessToken: Int64 = 60 * 24 * 3600
    public static let defaultDataAccess: Int64 = 90 * 24 * 3600

    public init(
        idToken: Int64 = defaultIDToken, accessToken: Int64 = defaultAccessToken, dataAccess: Int64 = defaultDataAccess,
        code: Int64 = 600
    ) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.dataAccess = dataAccess
        self.code = code
    }

    /// How long a retired signing key stays published: the ID-token lifetime plus a margin for clock skew,
    /// so that every token it signed can still be verified.
    public var keyRetention: Int64 { idToken + 300 }
}
