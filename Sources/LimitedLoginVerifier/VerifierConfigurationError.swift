/// Why a verifier cannot be configured: each case names one mistake.
///
/// These are caught when the configuration is built, at a server's start, rather than as a refusal of every
/// token later: a verifier for no app would turn every sign-in away with a reason that points at the token.
public enum VerifierConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The set of app IDs is empty, so no token could ever be for one of them.
    case noAppIDs
    /// An app ID is the empty string (no token's `aud` can be empty).
    case emptyAppID
    /// A provider's discovery document names a key set that is neither https nor http on loopback.
    case insecureKeySetURL(String)

    public var description: String {
        switch self {
        case .noAppIDs: return "a verifier needs at least one app ID (the app IDs a token's \"aud\" may name)"
        case .emptyAppID: return "an app ID is empty; give each app's ID as the provider knows it"
        case .insecureKeySetURL(let url):
            return "the key set URL \(url) is neither https nor http on loopback, so keys from it cannot be trusted"
        }
    }
}
