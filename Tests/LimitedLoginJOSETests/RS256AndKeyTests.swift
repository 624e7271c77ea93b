import Foundation
import LimitedLoginTestSupport
import Testing
import _CryptoExtras

@testable import LimitedLoginJOSE

@Suite("RS256 keys, JWK and JWKS")
struct RS256AndKeyTests {
    let key = TestKeys.primary

    @Test("a signature verifies with the matching key only, and not over other bytes")
    func signAndVerify() throws {
        let message = Array("header.payload".utf8)
        let signature = try key.sign(message)
        #expect(signature.count == 256)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Array("header.payloaD".utf8)))
        #expect(!TestKeys.secondary.publicKey.isValidSignature(signature, for: message))
        var flipped = signature
        flipped[100] ^= 0x01
        #expect(!key.publicKey.isValidSignature(flipped, for: message))
        // A signature of the wrong length is refused before any arithmetic, including a leading-zero pad.
        #expect(!key.publicKey.isValidSignature([0] + signature, for: message))
        #expect(!key.publicKey.isValidSignature(Array(signature.dropLast()), for: message))
        #expect(!key.publicKey.isValidSignature([], for: message))
    }

    @Test("a PKCS#1 v1.5 signature is not accepted as PSS and vice versa")
    func paddingIsFixed() throws {
        let message = Array("m".utf8)
        let pss = try key.key.signature(for: message, padding: .PSS)
        #expect(!key.publicKey.isValidSignature(Array(pss.rawRepresentation), for: message))
    }

    @Test("a JWK round-trips and names RS256 for signatures")
    func jwkRoundTrip() throws {
        let jwk = RSAJSONWebKey(publicKey: key.publicKey, keyID: "k1")
        guard case .object(let members) = jwk.json else {
            Issue.record("not an object")
            return
        }
        #expect(members["kty"] == "RSA")
        #expect(members["alg"] == "RS256")
        #expect(members["use"] == "sig")
        #expect(members["e"] == "AQAB")
        let read = try RSAJSONWebKey(json: members)
        #expect(read == jwk)
        let message = Array("x".utf8)
        #expect(try read.publicKey().isValidSignature(try key.sign(message), for: message))
    }

    @Test("a JWK that is not an RS256 signature key is refused with its reason")
    func jwkRefusals() throws {
        guard case .object(let good) = RSAJSONWebKey(publicKey: key.publicKey, keyID: "k1").json else { return }
        func refused(_ change: (inout JSONObject) -> Void) -> JWKError? {
            var members = good
            change(&members)
            do {
                _ = try RSAJSONWebKey(json: members).publicKey()
                return nil
            } catch { return error }
        }
        #expect(refused { $0["kty"] = "EC" } == .notRSA(keyType: "EC"))
        #expect(refused { $0["alg"] = "RS512" } == .algorithmMismatch("RS512"))
        #expect(refused { $0["alg"] = "HS256" } == .algorithmMismatch("HS256"))
        #expect(refused { $0["use"] = "enc" } == .useMismatch("enc"))
        #expect(refused { $0["key_ops"] = ["sign"] } == .operationsExcludeVerify)
        #expect(refused { $0["d"] = "AQAB" } == .containsPrivateKey)
        #expect(refused { $0["kid"] = nil } == .missingMember("kid"))
        #expect(refused { $0["n"] = 5 } == .wrongType(member: "n", expected: "string"))
        #expect(refused { $0["n"] = "a+b" } == .invalidBase64URL(member: "n", .invalidCharacter(UInt8(ascii: "+"), offset: 1)))
        // 1024-bit and 8200-bit moduli are outside 2048...4096.
        let small = Base64URL.encode([0x80] + [UInt8](repeating: 1, count: 127))
        #expect(refused { $0["n"] = .string(small) } == .key(.keySizeOutOfRange(bits: 1024, allowed: 2048...4096)))
        let large = Base64URL.encode([0x80] + [UInt8](repeating: 1, count: 1024))
        #expect(refused { $0["n"] = .string(large) } == .key(.keySizeOutOfRange(bits: 8200, allowed: 2048...4096)))
    }

    @Test("a JWK n or e with a leading zero octet, or with no octets, is refused naming the member (RFC 7518 6.3.1)")
    func jwkIntegersMustBeMinimal() throws {
        guard case .object(let good) = RSAJSONWebKey(publicKey: key.publicKey, keyID: "k1").json else { return }
        let (modulus, exponent) = key.publicKey.components()
        func refused(n: [UInt8] = modulus, e: [UInt8] = exponent) -> JWKError? {
            var members = good
            members["n"] = .string(Base64URL.encode(n))
            members["e"] = .string(Base64URL.encode(e))
            do {
                _ = try RSAJSONWebKey(json: members)
                return nil
            } catch { return error }
        }
        #expect(refused() == nil)
        #expect(refused(n: [0] + modulus) == .leadingZeroOctet(member: "n"))
        #expect(refused(n: [0, 0] + modulus) == .leadingZeroOctet(member: "n"))
        #expect(refused(e: [0] + exponent) == .leadingZeroOctet(member: "e"))
        #expect(refused(e: [0]) == .leadingZeroOctet(member: "e"))
        #expect(refused(n: []) == .emptyInteger(member: "n"))
        #expect(refused(e: []) == .emptyInteger(member: "e"))
        // n is judged before e.
        #expect(refused(n: [0] + modulus, e: []) == .leadingZeroOctet(member: "n"))
        // The same padded integers make a usable key when given as raw bytes: the JWK rule is what refuses them.
        let padded = try RS256PublicKey(modulus: [0] + modulus, exponent: [0] + exponent)
        let message = Array("m".utf8)
        #expect(padded.isValidSignature(try key.sign(message), for: message))
        // A key set keeps such a key as unusable, with the reason, and still serves its good keys.
        let document: JSONValue = [
            "keys": [
                ["kty": "RSA", "kid": "padded", "n": .string(Base64URL.encode([0] + modulus)), "e": "AQAB"],
                ["kty": "RSA", "kid": "empty-e", "n": .string(Base64URL.encode(modulus)), "e": ""],
                RSAJSONWebKey(publicKey: key.publicKey, keyID: "good").json,
            ]
        ]
        let set = try JSONWebKeySet(parsing: JSONSerializer.serialize(document))
        guard case .unusable(.leadingZeroOctet(member: "n")) = set.lookup("padded") else {
            Issue.record("padded n not refused")
            return
        }
        guard case .unusable(.emptyInteger(member: "e")) = set.lookup("empty-e") else {
            Issue.record("empty e not refused")
            return
        }
        guard case .found = set.lookup("good") else {
            Issue.record("good key not found")
            return
        }
        #expect(JWKError.leadingZeroOctet(member: "n").description.contains("\"n\" starts with a zero octet"))
        #expect(JWKError.emptyInteger(member: "e").description.contains("\"e\" is empty"))
    }

    @Test("a real 1024-bit RSA key is refused")
    func weakKey() throws {
        let weak = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        #expect(throws: RSAKeyError.keySizeOutOfRange(bits: 1024, allowed: 2048...4096)) { try RS256PrivateKey(weak) }
        #expect(throws: RSAKeyError.keySizeOutOfRange(bits: 1024, allowed: 2048...4096)) { try RS256PublicKey(weak.publicKey) }
    }

    @Test("a key set keeps usable keys, reports unusable and duplicated kids, and skips keys without kid")
    func keySet() throws {
        let good = RSAJSONWebKey(publicKey: key.publicKey, keyID: "good").json
        let other = RSAJSONWebKey(publicKey: TestKeys.secondary.publicKey, keyID: "dup").json
        let document: JSONValue = [
            "keys": [
                good, other, RSAJSONWebKey(publicKey: key.publicKey, keyID: "dup").json,
                ["kty": "EC", "kid": "ec", "crv": "P-256", "x": "AA", "y": "AA"],
                ["kty": "RSA", "n": "AQAB", "e": "AQAB"],
            ]
        ]
        let set = try JSONWebKeySet(parsing: JSONSerializer.serialize(document))
        guard case .found = set.lookup("good") else {
            Issue.record("good key not found")
            return
        }
        guard case .ambiguous = set.lookup("dup") else {
            Issue.record("duplicate kid not ambiguous")
            return
        }
        guard case .unusable(.notRSA(keyType: "EC")) = set.lookup("ec") else {
            Issue.record("EC key not unusable")
            return
        }
        guard case .missing = set.lookup("absent") else {
            Issue.record("absent key found")
            return
        }
        #expect(set.keyIDs == ["good", "dup", "ec"])
    }

    @Test("a kid is matched byte for byte, not by Unicode canonical equivalence")
    func exactKeyID() throws {
        let set = TestKeys.keySet([("Key-1", key)])
        guard case .found = set.lookup("Key-1") else {
            Issue.record("exact kid not found")
            return
        }
        // U+212A KELVIN SIGN is canonically equivalent to "K".
        guard case .missing = set.lookup("\u{212A}ey-1") else {
            Issue.record("equivalent kid matched")
            return
        }
        // Both spellings in one set are two keys, each found as itself (not one ambiguous entry), in a small
        // set (searched in order) and a large one (hashed).
        for filler in [0, 12] {
            let entries = [("Key-1", key), ("\u{212A}ey-1", TestKeys.secondary)] + (0..<filler).map { ("filler-\($0)", key) }
            let both = TestKeys.keySet(entries)
            guard case .found(let first) = both.lookup("Key-1"), case .found(let second) = both.lookup("\u{212A}ey-1") else {
                Issue.record("an exact kid beside an equivalent one is not found (\(entries.count) keys)")
                return
            }
            #expect(first.fingerprint == key.publicKey.fingerprint)
            #expect(second.fingerprint == TestKeys.secondary.publicKey.fingerprint)
        }
    }

    @Test("small sets (searched in order) and large ones (hashed) answer alike, byte for byte")
    func smallAndLargeSets() throws {
        for size in [1, 6, 7, 8, 20] {  // with "dup": 2, 7 and 8 kids (searched in order), 9 and 21 (hashed)
            var entries = (0..<size).map { ("Key-\($0)", key) }
            entries.append(("dup", key))
            entries.append(("dup", key))
            let set = TestKeys.keySet(entries)
            for index in 0..<size {
                guard case .found = set.lookup("Key-\(index)") else {
                    Issue.record("Key-\(index) not found in a set of \(size)")
                    return
                }
                guard case .missing = set.lookup("\u{212A}ey-\(index)") else {
                    Issue.record("equivalent kid matched in a set of \(size)")
                    return
                }
            }
            guard case .ambiguous = set.lookup("dup") else {
                Issue.record("duplicate kid not ambiguous in a set of \(size)")
                return
            }
            guard case .missing = set.lookup("Key-\(size)") else {
                Issue.record("absent kid found in a set of \(size)")
                return
            }
            guard case .missing = set.lookup("") else {
                Issue.record("empty kid found in a set of \(size)")
                return
            }
        }
    }

    @Test("a key-set document that is not a key set is refused")
    func keySetRefusals() {
        #expect(throws: JWKSetError.notAnObject) { try JSONWebKeySet(parsing: Array("[]".utf8)) }
        #expect(throws: JWKSetError.missingKeys) { try JSONWebKeySet(parsing: Array("{}".utf8)) }
        #expect(throws: JWKSetError.keysNotAnArray) { try JSONWebKeySet(parsing: Array(#"{"keys":{}}"#.utf8)) }
        #expect(throws: JWKSetError.invalidJSON(.duplicateMemberName("keys"))) {
            try JSONWebKeySet(parsing: Array(#"{"keys":[],"keys":[]}"#.utf8))
        }
    }

    @Test("the certificate map serves PEM certificates whose keys verify the signing key's tokens")
    func certificates() throws {
        let pem = try CertificateMap.selfSignedCertificatePEM(for: key, commonName: "provider.test", notBefore: Date())
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let document = CertificateMap.document(["k1": pem])
        let keys = try CertificateMap.publicKeys(fromDocument: document)
        let message = Array("signed".utf8)
        #expect(keys["k1"]?.isValidSignature(try key.sign(message), for: message) == true)
        #expect(throws: CertificateMapError.notAString(keyID: "k1")) { try CertificateMap.publicKeys(fromDocument: Array(#"{"k1":1}"#.utf8)) }
        #expect(throws: CertificateMapError.notAnObject) { try CertificateMap.publicKeys(fromDocument: Array("[]".utf8)) }
    }

    @Test("private keys survive a PEM round trip")
    func privateKeyPEM() throws {
        let restored = try RS256PrivateKey(pem: key.pem)
        let message = Array("m".utf8)
        #expect(key.publicKey.isValidSignature(try restored.sign(message), for: message))
    }
}
