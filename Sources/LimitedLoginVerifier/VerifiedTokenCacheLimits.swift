/// How many verified tokens a ``TokenVerifier`` remembers, so that a token it has seen before skips its
/// parsing and its RSA check.
///
/// A server that receives the same bearer token on every request of a session pays one RSA check for it,
/// not one per request. What a remembered token skips depends only on its exact bytes and on the key that
/// signed it; everything that can change from one call to the next is checked again on every call:
/// `exp`, `iat` and the maximum age against the clock, the nonce, the issuer and the audience against the
/// configuration, and whether the key set still holds the very key (same modulus and exponent, under the same
/// `kid`) that the signature was checked with. A token that fails any check is never remembered; a token
/// whose key left the key set, or was replaced under its `kid`, is forgotten and checked in full again.
/// So a remembered token never passes a check it would fail when checked in full, and fails with the same
/// error.
public struct VerifiedTokenCacheLimits: Sendable, Equatable {
    /// The most tokens remembered at once; the oldest is forgotten first. Zero turns the cache off.
    public var maximumEntries: Int
    /// An upper bound on the memory the remembered tokens take, in bytes (estimated per token from its
    /// length: the token, its decoded payload and index, and the entry). Zero turns the cache off.
    public var maximumBytes: Int

    /// Limits of `maximumEntries` tokens and `maximumBytes` bytes, whichever is reached first.
    public init(maximumEntries: Int = 10_000, maximumBytes: Int = 32 * 1024 * 1024) {
        self.maximumEntries = max(0, maximumEntries)
        self.maximumBytes = max(0, maximumBytes)
    }

    /// Nothing remembered: every call checks the token in full.
    public static let disabled = VerifiedTokenCacheLimits(maximumEntries: 0, maximumBytes: 0)

    /// True when tokens are remembered at all.
    public var isEnabled: Bool { maximumEntries > 0 && maximumBytes > 0 }
}
