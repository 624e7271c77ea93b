import Crypto
import LimitedLoginJOSE

/// `at_hash`, which binds an ID token to the access token issued with it (OpenID Connect Core 3.2.2.9).
public enum AccessTokenHash {
    /// Base64url of the left half of SHA-256 of the access token.
    public static func of(_ accessToken: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(accessToken.utf8))).prefix(16))
    }
}
