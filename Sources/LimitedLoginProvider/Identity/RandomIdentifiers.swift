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
        return hex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// 16 hex digits: a request's ID in the log (not a secret; unique enough to find one request's lines).
    ///
    /// One 64-bit draw from the system's generator (one `getrandom` call), not one per byte: every request
    /// without an ID of its own gets one, static endpoints included.
    static func requestID() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next()
        return hex((0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// SHA-256 hex: how sessions, codes and access tokens are stored, so the database never holds one
    /// that works.
    static func storageHash(_ secret: String) -> String {
        hex(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Lowercase hex.
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
