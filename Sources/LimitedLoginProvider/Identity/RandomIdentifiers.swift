import Crypto
import Foundation
import LimitedLoginJOSE

/// Identifiers and secrets the provider makes up.
enum RandomIdentifiers {
    /// A numeric ID of `digits` digits that does not start with 0, like Facebook's user, app and
    /// app-scoped IDs.
    static func numericID(digits: Int = 15) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = String(Int.random(in: 1...9, using: &generator))
        for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &generator)) }
        return text
    }

    /// `byteCount` random bytes as base64url: session IDs, codes, access tokens, CSRF secrets.
    static func secret(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// A 32-character lowercase hex secret, the shape of a Facebook app secret.
    static func appSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// SHA-256 hex: how sessions, codes and access tokens are stored, so the database never holds one
    /// that works.
    static func storageHash(_ secret: String) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
