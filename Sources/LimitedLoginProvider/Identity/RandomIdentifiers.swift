import Crypto
import Foundation
import LimitedLoginJOSE
import Synchronization

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
    /// No system call per request (every request without an ID of its own gets one, static endpoints
    /// included, and a `getrandom` was the largest part of what the request log added to them): the process
    /// draws one random seed, and each ID is a counter mixed with it by SplitMix64's finalizer, a bijection,
    /// so no two IDs of a process are equal and they do not follow each other visibly.
    static func requestID() -> String {
        let count = requestIDCounter.wrappingAdd(1, ordering: .relaxed).newValue
        var mixed = requestIDSeed &+ count &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 16) { buffer in
            digits.withUTF8Buffer { digits in
                for index in 0..<16 {
                    buffer[index] = digits[Int((mixed >> UInt64(60 - 4 * index)) & 0xF)]
                }
            }
            return 16
        }
    }

    private static let requestIDSeed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()

    private static let requestIDCounter = Atomic<UInt64>(0)

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
