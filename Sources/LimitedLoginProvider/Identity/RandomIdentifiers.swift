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
        return String(unsafeUninitializedCapacity: 16) { buffer in
            var position = 0
            writeHex(mixed, digits: 16, into: buffer, at: &position)
            return position
        }
    }

    /// A random (version 4) UUID in lowercase, as Facebook's `jti` claims are: the token's unique ID.
    ///
    /// Foundation's `UUID()` opens, reads and closes `/dev/urandom` on every call on Linux (three system
    /// calls per ID token, in `perf`); this draws its 122 random bits from the system generator directly.
    static func tokenID() -> String {
        var generator = SystemRandomNumberGenerator()
        // Version 4 in the high nibble of byte 6; the variant (binary 10) in the top bits of byte 8.
        let high = (generator.next() as UInt64) & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = (generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        // 8-4-4-4-12 hex digits: the high word's 8, 4, 4, then the low word's 4, 12.
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            func dash() {
                buffer[position] = UInt8(ascii: "-")
                position += 1
            }
            writeHex(high >> 32, digits: 8, into: buffer, at: &position)
            dash()
            writeHex(high >> 16, digits: 4, into: buffer, at: &position)
            dash()
            writeHex(high, digits: 4, into: buffer, at: &position)
            dash()
            writeHex(low >> 48, digits: 4, into: buffer, at: &position)
            dash()
            writeHex(low, digits: 12, into: buffer, at: &position)
            return position
        }
    }

    /// Writes the low `digits` hex digits of `value`, most significant first, at `position`, which it advances.
    private static func writeHex(_ value: UInt64, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        let alphabet: StaticString = "0123456789abcdef"
        alphabet.withUTF8Buffer { alphabet in
            for index in 0..<digits {
                buffer[position] = alphabet[Int((value >> UInt64(4 * (digits - 1 - index))) & 0xF)]
                position += 1
            }
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

    /// Lowercase hex, two digits a byte (``writeHex(_:digits:into:at:)``, into a string of the exact size:
    /// a session's storage hash is made on every dialog request).
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        return String(unsafeUninitializedCapacity: 2 * bytes.count) { buffer in
            var position = 0
            for byte in bytes { writeHex(UInt64(byte), digits: 2, into: buffer, at: &position) }
            return position
        }
    }
}
