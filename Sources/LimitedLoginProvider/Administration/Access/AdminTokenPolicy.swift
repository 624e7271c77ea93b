/// What an admin token given to the provider must be: long enough that it cannot be guessed within the
/// admin-token attempt limits (``AdminTokenAttemptLimits``), and never empty (an unset shell variable,
/// `--admin-token "$ADMIN"`, gives an empty one).
public enum AdminTokenPolicy {
    /// The fewest characters an admin token may have.
    public static let minimumLength = 16
    /// The fewest different characters: `aaaaaaaaaaaaaaaa` or `1212121212121212` is long and still guessed.
    /// What keeps the admin API safe is a token nobody can guess (wrong tokens are counted to slow a flood, never
    /// to lock the right one out: docs/SECURITY.md).
    public static let minimumDifferentCharacters = 8

    /// Why `token` cannot be the admin token, as a clause, or nil when it can.
    public static func problem(with token: String) -> String? {
        if token.allSatisfy(\.isWhitespace) {
            return token.isEmpty
                ? "the admin token is empty (an unset variable?): give one of at least \(minimumLength) characters, or none and the provider makes one"
                : "the admin token is only white space: give one of at least \(minimumLength) characters, or none and the provider makes one"
        }
        if token.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the admin token has a control character (a tab or a line break?), which no Authorization header can carry"
        }
        if token.count < minimumLength {
            return
                "the admin token has \(token.count) character\(token.count == 1 ? "" : "s"); it needs at least \(minimumLength) (e.g. 'openssl rand -hex 16')"
        }
        let different = Set(token).count
        if different < minimumDifferentCharacters {
            return
                "the admin token has only \(different) different character\(different == 1 ? "" : "s") (at least \(minimumDifferentCharacters) are needed): give a random one, e.g. 'openssl rand -hex 16'"
        }
        return nil
    }
}

/// The provider refused its configuration before starting.
public struct ProviderConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
