/// A scoped admin credential's token: `llc_` and 32 random bytes in base64url, shown once when the
/// credential is made; the store keeps its SHA-256 (a token this long needs no slow hash).
enum AdminCredentialToken {
    static let prefix = "llc_"

    static func make() -> String { prefix + RandomIdentifiers.secret(byteCount: 32) }

    /// Only tokens of this shape are looked up in the store: a flood of wrong admin tokens costs no query.
    static func isCredentialShaped(_ token: String) -> Bool {
        token.utf8.count == prefix.utf8.count + 43 && token.hasPrefix(prefix)
    }

    static func hash(_ token: String) -> String { RandomIdentifiers.storageHash(token) }
}
