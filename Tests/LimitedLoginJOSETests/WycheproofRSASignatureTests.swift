import Foundation
import Testing

@testable import LimitedLoginJOSE

/// C2SP Wycheproof's RSASSA-PKCS1-v1_5 SHA-256 vectors (see `Wycheproof/README.md` for their origin), run
/// against the RS256 public-key check every token signature goes through. Each group's key is read the way
/// a published key is: as a JWK, through ``RSAJSONWebKey``.
///
/// `acceptable` vectors: the only ones in these files omit the NULL parameters of the DigestInfo's
/// AlgorithmIdentifier (flag `MissingNull`). We refuse them, and assert it: RFC 8017 section 9.2 specifies
/// the encoding with NULL, every RS256 signer writes it, and accepting a second encoding of one signature
/// buys nothing but malleability. BoringSSL rebuilds the one expected encoding and compares, so it refuses.
@Suite("Wycheproof: RSASSA-PKCS1-v1_5 with SHA-256 against RS256 verification")
struct WycheproofRSASignatureTests {
    /// The flags of the `acceptable` vectors whose outcome is decided (refused) above; any other
    /// `acceptable` vector (a regenerated file with a new kind) fails the test until it is decided too.
    static let decidedAcceptableFlags: Set<String> = ["MissingNull"]

    struct VectorFile: Decodable {
        var algorithm: String
        var numberOfTests: Int
        var testGroups: [Group]
    }

    struct Group: Decodable {
        var keySize: Int
        var n: String
        var e: String
        var tests: [Vector]
    }

    struct Vector: Decodable {
        var tcId: Int
        var comment: String
        var flags: [String]
        var msg: String
        var sig: String
        var result: String
    }

    static func load(bits: Int) throws -> VectorFile {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Wycheproof")
        let data = try Data(contentsOf: folder.appendingPathComponent("rsa_signature_\(bits)_sha256_test.json"))
        return try JSONDecoder().decode(VectorFile.self, from: data)
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    @Test("every vector's verdict: valid verifies, invalid does not, acceptable (MissingNull) is refused", arguments: [2048, 3072, 4096])
    func vectors(bits: Int) throws {
        let file = try Self.load(bits: bits)
        #expect(file.algorithm == "RSASSA-PKCS1-v1_5")
        var counts = [String: Int]()
        for group in file.testGroups {
            #expect(group.keySize == bits)
            let jwk: JSONObject = ["kty": "RSA", "kid": "wycheproof", "alg": "RS256", "n": .string(group.n), "e": .string(group.e)]
            // Every key in these files is RSA 2048-4096 in minimal encoding, so our key type takes each one.
            let key = try RSAJSONWebKey(json: jwk).publicKey()
            #expect(key.bits == group.keySize)
            for vector in group.tests {
                let label = "\(bits)-bit tcId \(vector.tcId) \(vector.result) \(vector.flags) \(vector.comment)"
                let message = try #require(Self.hex(vector.msg), "msg of \(label)")
                let signature = try #require(Self.hex(vector.sig), "sig of \(label)")
                let verifies = key.isValidSignature(signature, for: message)
                switch vector.result {
                case "valid":
                    #expect(verifies, "refused a valid signature: \(label)")
                case "invalid":
                    #expect(!verifies, "accepted an invalid signature: \(label)")
                case "acceptable":
                    #expect(
                        Set(vector.flags).isSubset(of: Self.decidedAcceptableFlags) && !vector.flags.isEmpty,
                        "an acceptable vector of a kind not decided yet: \(label)")
                    #expect(!verifies, "accepted a signature without the DigestInfo's NULL: \(label)")
                default:
                    Issue.record("unknown result: \(label)")
                }
                counts[vector.result, default: 0] += 1
            }
        }
        // The file was read whole: as many tests as it says, and some of every verdict.
        #expect(counts.values.reduce(0, +) == file.numberOfTests)
        #expect(file.numberOfTests >= 250)
        #expect((counts["valid"] ?? 0) >= 7 && (counts["invalid"] ?? 0) >= 240 && counts["acceptable"] == 1)
    }
}
