import Crypto
import _CryptoExtras

/// Why an RSA key was not accepted for RS256.
public enum RSAKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The modulus is outside the accepted range of sizes.
    case keySizeOutOfRange(bits: Int, allowed: ClosedRange<Int>)
    /// The key material could not be read.
    case malformed(String)

    public var description: String {
        switch self {
        case .keySizeOutOfRange(let bits, let allowed):
            return "an RSA key of \(bits) bits is outside the accepted \(allowed.lowerBound)–\(allowed.upperBound) bits"
        case .malformed(let reason): return "the RSA key cannot be read: \(reason)"
        }
    }
}

/// RSA key sizes RS256 accepts here: 2048 to 4096 bits.
public let acceptedRSAKeySizes: ClosedRange<Int> = 2048...4096

/// An RSA public key that checks RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
///
/// BoringSSL's PKCS#1 v1.5 check rebuilds the whole expected encoding (padding, DigestInfo and hash)
/// and compares it, so there is no room for the parser-based forgeries that lenient checks allow.
public struct RS256PublicKey: Sendable {
    /// The underlying key.
    public let key: _RSA.Signing.PublicKey
    /// SHA-256 of the modulus and exponent (without leading zeros, each preceded by its length): equal for
    /// two values of the same key however they were built, so a cache can tell whether a key set still holds
    /// the key it checked a signature with, without comparing big numbers on every lookup.
    package let fingerprint: SHA256Digest

    /// Wraps a key, refusing sizes outside ``acceptedRSAKeySizes``.
    public init(_ key: _RSA.Signing.PublicKey) throws(RSAKeyError) {
        guard acceptedRSAKeySizes.contains(key.keySizeInBits) else {
            throw .keySizeOutOfRange(bits: key.keySizeInBits, allowed: acceptedRSAKeySizes)
        }
        self.key = key
        self.fingerprint = Self.fingerprint(of: key)
    }

    /// Builds a key from its big-endian modulus and exponent.
    public init(modulus: [UInt8], exponent: [UInt8]) throws(RSAKeyError) {
        let bits = Self.bitLength(of: modulus)
        guard acceptedRSAKeySizes.contains(bits) else {
            throw .keySizeOutOfRange(bits: bits, allowed: acceptedRSAKeySizes)
        }
        do {
            self.key = try _RSA.Signing.PublicKey(n: modulus, e: exponent)
        } catch {
            throw .malformed("\(error)")
        }
        self.fingerprint = Self.fingerprint(of: key)
    }

    /// Reads a PEM `PUBLIC KEY` or `RSA PUBLIC KEY`.
    public init(pem: String) throws(RSAKeyError) {
        let key: _RSA.Signing.PublicKey
        do { key = try _RSA.Signing.PublicKey(pemRepresentation: pem) } catch { throw .malformed("\(error)") }
        try self.init(key)
    }

    /// Size of the modulus in bits.
    public var bits: Int { key.keySizeInBits }

    /// The big-endian modulus and exponent, without leading zero bytes.
    public func components() -> (modulus: [UInt8], exponent: [UInt8]) {
        // getKeyPrimitives only fails for keys BoringSSL could not have built.
        guard let primitives = try? key.getKeyPrimitives() else { return ([], []) }
        return (Array(primitives.modulus.drop { $0 == 0 }), Array(primitives.publicExponent.drop { $0 == 0 }))
    }

    /// True when `signature` is a valid RS256 signature over `message`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        message.withUnsafeBytes { isValidSignature(signature, for: $0) }
    }

    /// True when `signature` is a valid RS256 signature over the bytes of `message`.
    public func isValidSignature(_ signature: [UInt8], for message: UnsafeRawBufferPointer) -> Bool {
        // A signature must be exactly as long as the modulus (RFC 8017 section 8.2.2 step 1).
        guard signature.count == (bits + 7) / 8 else { return false }
        return key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature),
            for: SHA256.hash(data: message),
            padding: .insecurePKCS1v1_5
        )
    }

    /// See ``fingerprint``; read from the key itself, so every initializer agrees.
    static func fingerprint(of key: _RSA.Signing.PublicKey) -> SHA256Digest {
        var hasher = SHA256()
        // getKeyPrimitives only fails for keys BoringSSL could not have built; such a key hashes as empty.
        if let primitives = try? key.getKeyPrimitives() {
            for number in [primitives.modulus, primitives.publicExponent] {
                let digits = Array(number.drop { $0 == 0 })
                withUnsafeBytes(of: UInt64(digits.count).bigEndian) { hasher.update(bufferPointer: $0) }
                hasher.update(data: digits)
            }
        }
        return hasher.finalize()
    }

    static func bitLength(of bigEndian: [UInt8]) -> Int {
        guard let first = bigEndian.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bigEndian.count - first) * 8 - bigEndian[first].leadingZeroBitCount
    }
}

/// An RSA private key that makes RS256 signatures.
public struct RS256PrivateKey: Sendable {
    /// The underlying key.
    public let key: _RSA.Signing.PrivateKey

    /// Wraps a key, refusing sizes outside ``acceptedRSAKeySizes``.
    public init(_ key: _RSA.Signing.PrivateKey) throws(RSAKeyError) {
        guard acceptedRSAKeySizes.contains(key.keySizeInBits) else {
            throw .keySizeOutOfRange(bits: key.keySizeInBits, allowed: acceptedRSAKeySizes)
        }
        self.key = key
    }

    /// Generates a new key.
    public static func generate(bits: Int = 2048) throws(RSAKeyError) -> RS256PrivateKey {
        guard acceptedRSAKeySizes.contains(bits) else {
            throw .keySizeOutOfRange(bits: bits, allowed: acceptedRSAKeySizes)
        }
        do {
            return try RS256PrivateKey(_RSA.Signing.PrivateKey(keySize: .init(bitCount: bits)))
        } catch let error as RSAKeyError {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// Reads a PEM private key (PKCS#1 or PKCS#8).
    public init(pem: String) throws(RSAKeyError) {
        let key: _RSA.Signing.PrivateKey
        do { key = try _RSA.Signing.PrivateKey(pemRepresentation: pem) } catch { throw .malformed("\(error)") }
        try self.init(key)
    }

    /// PKCS#8 PEM, for storage.
    public var pem: String { key.pkcs8PEMRepresentation }

    /// The matching public key.
    public var publicKey: RS256PublicKey {
        // The private key already passed the size check, so its public half does too.
        RS256PublicKey(unchecked: key.publicKey)
    }

    /// An RS256 signature over `message`.
    public func sign(_ message: [UInt8]) throws(RSAKeyError) -> [UInt8] {
        do {
            let signature = try key.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
            return Array(signature.rawRepresentation)
        } catch {
            throw .malformed("signing failed: \(error)")
        }
    }
}

extension CompactJWS {
    /// True when ``signature`` is a valid RS256 signature by `key` over the signing input (read in place).
    public func isSigned(by key: RS256PublicKey) -> Bool {
        let signature = signature
        return withSigningInput { key.isValidSignature(signature, for: $0) }
    }
}

extension RS256PublicKey {
    fileprivate init(unchecked key: _RSA.Signing.PublicKey) {
        self.key = key
        self.fingerprint = Self.fingerprint(of: key)
    }
}
