import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

@Suite("Verifier: the key and the signature (docs/BEHAVIOUR.md, section 8, rules 3 and 4)")
struct TokenKeyAndSignatureTests {
    let fixture = VerifierFixture()

    @Test("an unknown kid: unknownKey")
    func unknownKid() async {
        var factory = fixture.factory
        factory.keyID = "key-9"
        #expect(await fixture.failure(factory.token()) == .unknownKey("key-9"))
    }

    @Test("a JWK whose alg differs from the token's: unusableKey with algorithmMismatch")
    func jwkAlgorithmMismatch() async throws {
        var jwk = RSAJSONWebKey(publicKey: TestKeys.primary.publicKey, keyID: "key-1")
        jwk.algorithm = "RS512"
        let fixture = VerifierFixture(keySet: try JSONWebKeySet(parsing: JSONWebKeySet(keys: [jwk]).serialized()))
        #expect(await fixture.failure(fixture.factory.token()) == .unusableKey(keyID: "key-1", .algorithmMismatch("RS512")))
    }

    @Test("a JWK for encryption, an EC key, or a short RSA key: unusableKey with the reason")
    func unusableKeys() async throws {
        let n = Base64URL.encode([0x80] + [UInt8](repeating: 1, count: 127))
        let document =
            #"{"keys":[{"kty":"RSA","kid":"enc","use":"enc","n":"AQAB","e":"AQAB"},{"kty":"EC","kid":"ec","crv":"P-256","x":"AA","y":"AA"},{"kty":"RSA","kid":"short","n":"\#(n)","e":"AQAB"}]}"#
        let fixture = VerifierFixture(keySet: try JSONWebKeySet(parsing: Array(document.utf8)))
        var factory = fixture.factory
        factory.keyID = "enc"
        #expect(await fixture.failure(factory.token()) == .unusableKey(keyID: "enc", .useMismatch("enc")))
        factory.keyID = "ec"
        #expect(await fixture.failure(factory.token()) == .unusableKey(keyID: "ec", .notRSA(keyType: "EC")))
        factory.keyID = "short"
        #expect(await fixture.failure(factory.token()) == .unusableKey(keyID: "short", .key(.keySizeOutOfRange(bits: 1024, allowed: 2048...4096))))
    }

    @Test("a published JWK whose n or e has a leading zero octet or is empty: unusableKey naming the member, over HTTP")
    func nonMinimalIntegers() async throws {
        let (modulus, _) = TestKeys.primary.publicKey.components()
        // The issue's case: the signer's own key, its n padded with a zero octet. Before, this token verified.
        let document: JSONValue = [
            "keys": [
                ["kty": "RSA", "kid": "key-1", "alg": "RS256", "use": "sig", "n": .string(Base64URL.encode([0] + modulus)), "e": "AQAB"],
                ["kty": "RSA", "kid": "padded-e", "n": .string(Base64URL.encode(modulus)), "e": "AAEAAQ"],
                ["kty": "RSA", "kid": "empty-n", "n": "", "e": "AQAB"],
                RSAJSONWebKey(publicKey: TestKeys.secondary.publicKey, keyID: "key-2").json,
            ]
        ]
        let server = KeySetServer(keySet: TestKeys.keySet([]))
        server.update { $0.document = JSONSerializer.serialize(document) }
        try await withLoopbackServer(server.router()) { port in
            let keys = RemoteKeySet(url: URL(string: "http://127.0.0.1:\(port)/jwks")!, clock: fixture.clock)
            let verifier = TokenVerifier(
                configuration: VerifierConfiguration(appID: fixture.factory.appID, allowedIssuers: [fixture.factory.issuer]),
                keys: keys, clock: fixture.clock
            )
            func failure(_ keyID: String, signedBy key: RS256PrivateKey = TestKeys.primary) async -> TokenVerificationError? {
                var factory = fixture.factory
                factory.keyID = keyID
                factory.key = key
                do {
                    _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
                    return nil
                } catch { return error }
            }
            #expect(await failure("key-1") == .unusableKey(keyID: "key-1", .leadingZeroOctet(member: "n")))
            #expect(await failure("padded-e") == .unusableKey(keyID: "padded-e", .leadingZeroOctet(member: "e")))
            #expect(await failure("empty-n") == .unusableKey(keyID: "empty-n", .emptyInteger(member: "n")))
            // One bad key does not spoil the set.
            #expect(await failure("key-2", signedBy: TestKeys.secondary) == nil)
            #expect(server.keySetRequests == 1)
        }
    }

    @Test("two keys with one kid: ambiguousKey")
    func ambiguous() async {
        let fixture = VerifierFixture(keySet: TestKeys.keySet([("key-1", TestKeys.secondary), ("key-1", TestKeys.primary)]))
        #expect(await fixture.failure(fixture.factory.token()) == .ambiguousKey("key-1"))
    }

    @Test("a token signed by another key under our kid: invalidSignature")
    func wrongKey() async {
        var factory = fixture.factory
        factory.key = TestKeys.secondary
        #expect(await fixture.failure(factory.token()) == .invalidSignature)
    }

    @Test("a flipped bit anywhere in the payload or signature: invalidSignature")
    func tampering() async {
        let token = fixture.factory.token()
        let parts = token.split(separator: ".").map(String.init)
        // Change the payload: a different subject, re-encoded, with the old signature.
        var claims = fixture.factory.claims
        claims["sub"] = "999"
        let payload = Base64URL.encode(JSONSerializer.serialize(.object(claims)))
        #expect(await fixture.failure("\(parts[0]).\(payload).\(parts[2])") == .invalidSignature)
        // Flip single bits in the decoded signature.
        let signature = try! Base64URL.decode(parts[2])
        for index in [0, 1, 128, 254, 255] {
            var flipped = signature
            flipped[index] ^= 0x01
            #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(Base64URL.encode(flipped))") == .invalidSignature)
        }
        // Truncated, extended and empty signatures.
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(Base64URL.encode(signature.dropLast()))") == .invalidSignature)
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(Base64URL.encode([0] + signature))") == .invalidSignature)
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).") == .invalidSignature)
    }

    @Test("the verifier never traps on mutated tokens, and never accepts one")
    func mutationsNeverPass() async {
        let token = Array(fixture.factory.token().utf8)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u{0}".utf8) + [0xFF, 0xC3]
        for round in 0..<1500 {
            var mutated = token
            switch round % 4 {
            case 0: mutated[Int.random(in: 0..<mutated.count, using: &generator)] = alphabet.randomElement(using: &generator)!
            case 1: mutated.removeSubrange(Int.random(in: 0..<mutated.count, using: &generator)...)
            case 2: mutated.insert(alphabet.randomElement(using: &generator)!, at: Int.random(in: 0...mutated.count, using: &generator))
            default: mutated.remove(at: Int.random(in: 0..<mutated.count, using: &generator))
            }
            if mutated == token { continue }
            let text = String(decoding: mutated, as: UTF8.self)
            if text == String(decoding: token, as: UTF8.self) { continue }
            #expect(await fixture.failure(text) != nil, "accepted a mutated token: \(text)")
        }
        // Random garbage of every shape.
        for length in [0, 1, 2, 3, 100, 5000] {
            let garbage = String(decoding: (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }, as: UTF8.self)
            #expect(await fixture.failure(garbage) != nil)
        }
    }
}
