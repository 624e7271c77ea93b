import Foundation

/// What a valid token must say, and the tolerances allowed.
public struct VerifierConfiguration: Sendable, Equatable {
    /// The app IDs a token may be for: its `aud` must equal one of them, byte for byte. Never empty, in the
    /// order given, without repeats. A backend that serves several apps (an iOS app and a game, say) lists
    /// each; the verified token says which one it was for (``VerifiedIDToken/appID``).
    public private(set) var appIDs: [String]

    /// The app ID, for a verifier of one app: the first of ``appIDs``. Setting it makes the verifier accept
    /// tokens for that app only.
    public var appID: String {
        get { appIDs[0] }
        set { appIDs = [newValue] }
    }
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
    /// How many verified tokens a verifier made with this configuration remembers, so that the same token
    /// again costs no RSA check; on by default, ``VerifiedTokenCacheLimits/disabled`` turns it off. A
    /// remembered token is still checked against the clock, the nonce, the issuer, the audience and the key
    /// set on every call (see ``VerifiedTokenCacheLimits``). Read when the verifier is made.
    public var verifiedTokenCache = VerifiedTokenCacheLimits()

    public init(
        appID: String,
        allowedIssuers: Set<String>,
        leeway: TimeInterval = 60,
        maximumTokenAge: TimeInterval = 3600,
        maximumTokenSize: Int = 16 * 1024,
        maximumKeyIDLength: Int = 256
    ) {
        self.appIDs = [appID]
        self.allowedIssuers = allowedIssuers
        self.leeway = leeway
        self.maximumTokenAge = maximumTokenAge
        self.maximumTokenSize = maximumTokenSize
        self.maximumKeyIDLength = maximumKeyIDLength
    }

    /// Tokens for any of several apps: `aud` must equal one of `appIDs`.
    ///
    /// Throws when `appIDs` is empty or holds an empty string; repeats are dropped (compared byte for byte).
    public init(
        appIDs: some Sequence<String>,
        allowedIssuers: Set<String>,
        leeway: TimeInterval = 60,
        maximumTokenAge: TimeInterval = 3600,
        maximumTokenSize: Int = 16 * 1024,
        maximumKeyIDLength: Int = 256
    ) throws(VerifierConfigurationError) {
        self.init(
            appID: "", allowedIssuers: allowedIssuers, leeway: leeway, maximumTokenAge: maximumTokenAge,
            maximumTokenSize: maximumTokenSize, maximumKeyIDLength: maximumKeyIDLength
        )
        try replaceAppIDs(with: appIDs)
    }

    /// Accepts tokens for these apps from now on, in place of the ones before.
    ///
    /// Throws, and changes nothing, when `appIDs` is empty or holds an empty string.
    public mutating func replaceAppIDs(with appIDs: some Sequence<String>) throws(VerifierConfigurationError) {
        var unique: [String] = []
        for appID in appIDs {
            guard !appID.isEmpty else { throw .emptyAppID }
            // Byte for byte, as `aud` is compared: Swift's == would merge canonically equivalent spellings.
            if !unique.contains(where: { $0.utf8.elementsEqual(appID.utf8) }) { unique.append(appID) }
        }
        guard !unique.isEmpty else { throw .noAppIDs }
        self.appIDs = unique
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

    /// Tokens from the real service for any of these apps.
    public static func facebook(appIDs: some Sequence<String>) throws(VerifierConfigurationError) -> VerifierConfiguration {
        try VerifierConfiguration(appIDs: appIDs, allowedIssuers: facebookIssuers)
    }
}
