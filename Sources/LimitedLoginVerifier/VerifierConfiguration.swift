import Foundation

/// What a valid token must say, and the tolerances allowed.
public struct VerifierConfiguration: Sendable, Equatable {
    /// The app ID that `aud` must equal.
    public var appID: String
    /// The exact issuers accepted; never matched by prefix or suffix.
    public var allowedIssuers: Set<String>
    /// Clock skew allowed on `exp` and `iat`, in seconds.
    public var leeway: TimeInterval
    /// The oldest `iat` accepted, in seconds before now.
    public var maximumTokenAge: TimeInterval
    /// The largest token accepted, in bytes.
    public var maximumTokenSize: Int
    /// The longest `kid` accepted, in characters.
    public var maximumKeyIDLength: Int

    public init(
        appID: String,
        allowedIssuers: Set<String>,
        leeway: TimeInterval = 60,
        maximumTokenAge: TimeInterval = 3600,
        maximumTokenSize: Int = 16 * 1024,
        maximumKeyIDLength: Int = 256
    ) {
        self.appID = appID
        self.allowedIssuers = allowedIssuers
        self.leeway = leeway
        self.maximumTokenAge = maximumTokenAge
        self.maximumTokenSize = maximumTokenSize
        self.maximumKeyIDLength = maximumKeyIDLength
    }

    /// The issuers real Limited Login tokens carry.
    public static let facebookIssuers: Set<String> = [
        "https://www.facebook.com", "https://facebook.com", "https://limited.facebook.com",
    ]

    /// Where the real service publishes its key set.
    public static let facebookKeySetURL: URL = {
        guard let url = URL(string: "https://limited.facebook.com/.well-known/oauth/openid/jwks/") else {
            preconditionFailure("the constant key-set URL is valid")
        }
        return url
    }()

    /// Tokens from the real service for this app.
    public static func facebook(appID: String) -> VerifierConfiguration {
        VerifierConfiguration(appID: appID, allowedIssuers: facebookIssuers)
    }
}
