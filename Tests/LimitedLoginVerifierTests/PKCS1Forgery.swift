import Crypto
import LimitedLoginJOSE
import _CryptoExtras

/// Signatures over EMSA-PKCS1-v1_5 encodings (RFC 8017 section 9.2) that a test chooses byte by byte, made
/// with the raw RSA private operation: a signer that pads wrongly, or an attacker who found a lenient parser.
///
/// swift-crypto exposes the raw operation (`RSA_sign_raw` without padding) only as RFC 9474's blind signature,
/// which signs the given modulus-sized integer exactly as given; that is all this needs.
struct PKCS1Forgery {
    let key: RS256PrivateKey

    /// The modulus size in bytes: every encoded message is this long.
    var size: Int { (key.key.keySizeInBits + 7) / 8 }

    /// `DigestInfo` for SHA-256 without the hash: SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.2.1, NULL }, OCTET STRING (32) }.
    static let sha256DigestInfoPrefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
    ]

    /// `00 blockType fill… separator digestInfo`, the fill as long as it takes to reach the modulus size.
    func encoded(blockType: UInt8 = 0x01, fill: UInt8 = 0xFF, separator: UInt8 = 0x00, digestInfo: [UInt8]) -> [UInt8] {
        [0x00, blockType] + [UInt8](repeating: fill, count: size - 3 - digestInfo.count) + [separator] + digestInfo
    }

    /// The correct `DigestInfo` of `message` (SHA-256).
    func digestInfo(of message: [UInt8]) -> [UInt8] {
        Self.sha256DigestInfoPrefix + Array(SHA256.hash(data: message))
    }

    /// `encoded` raised to the private exponent: what verification will raise back and inspect.
    func sign(encoded: [UInt8]) throws -> [UInt8] {
        let raw = try _RSA.BlindSigning.PrivateKey(
            derRepresentation: key.key.derRepresentation, parameters: .RSABSSA_SHA384_PSS_Deterministic
        )
        return Array(try raw.blindSignature(for: encoded).rawRepresentation)
    }
}
