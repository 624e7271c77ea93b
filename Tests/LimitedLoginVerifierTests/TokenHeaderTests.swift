import Crypto
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

@Suite("Verifier: the header (docs/BEHAVIOUR.md, section 8, rule 2)")
struct TokenHeaderTests {
    let fixture = VerifierFixture()

    func token(header change: (inout JSONObject) -> Void) -> String {
        var header = fixture.factory.header
        change(&header)
        return fixture.factory.token(header: header, claims: fixture.factory.claims)
    }

    @Test("alg none with an empty signature: algorithmNotAllowed")
    func algNone() async {
        let factory = fixture.factory
        let header = fixture.headerSegment(#"{"alg":"none","typ":"JWT","kid":"key-1"}"#)
        let payload = Base64URL.encode(Array(factory.claimsText.utf8))
        #expect(await fixture.failure("\(header).\(payload).") == .algorithmNotAllowed("none"))
        #expect(await fixture.failure("\(fixture.headerSegment(#"{"alg":"NONE","kid":"key-1"}"#)).\(payload).") == .algorithmNotAllowed("NONE"))
    }

    @Test("HS256 signed with the RSA public key as the HMAC secret: algorithmNotAllowed")
    func hs256KeyConfusion() async {
        let factory = fixture.factory
        let header = fixture.headerSegment(#"{"alg":"HS256","typ":"JWT","kid":"key-1"}"#)
        let payload = Base64URL.encode(Array(factory.claimsText.utf8))
        let secret = SymmetricKey(data: Array(factory.key.publicKey.key.pemRepresentation.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(header).\(payload)".utf8), using: secret)
        let forged = "\(header).\(payload).\(Base64URL.encode(Array(mac)))"
        #expect(await fixture.failure(forged) == .algorithmNotAllowed("HS256"))
    }

    @Test("any other alg, even a real RSA one, or a non-string alg: algorithmNotAllowed; none: missingAlgorithm")
    func otherAlgorithms() async {
        #expect(await fixture.failure(token { $0["alg"] = "RS512" }) == .algorithmNotAllowed("RS512"))
        #expect(await fixture.failure(token { $0["alg"] = "PS256" }) == .algorithmNotAllowed("PS256"))
        #expect(await fixture.failure(token { $0["alg"] = "rs256" }) == .algorithmNotAllowed("rs256"))
        #expect(await fixture.failure(token { $0["alg"] = ["RS256"] }) == .algorithmNotAllowed("array value"))
        #expect(await fixture.failure(token { $0["alg"] = nil }) == .missingAlgorithm)
    }

    @Test("crit, jku, jwk, x5u, x5c: forbiddenHeaderParameter", arguments: ["crit", "jku", "jwk", "x5u", "x5c"])
    func forbidden(name: String) async {
        let value: JSONValue = name == "crit" ? ["exp"] : (name == "x5c" ? ["MIIB"] : (name == "jwk" ? ["kty": "RSA"] : "https://attacker.test/keys"))
        #expect(await fixture.failure(token { $0[name] = value }) == .forbiddenHeaderParameter(name))
    }

    @Test("kid missing, empty, not a string or over 256 characters: the kid errors")
    func keyID() async {
        #expect(await fixture.failure(token { $0["kid"] = nil }) == .missingKeyID)
        #expect(await fixture.failure(token { $0["kid"] = "" }) == .invalidKeyID("it is empty"))
        #expect(await fixture.failure(token { $0["kid"] = 1 }) == .invalidKeyID("it is a number, not a string"))
        let long = String(repeating: "k", count: 257)
        #expect(await fixture.failure(token { $0["kid"] = .string(long) }) == .invalidKeyID("257 characters, the limit is 256"))
        // Characters are code points, as JSON counts them: one letter and 300 combining marks are 301, not
        // one grapheme cluster.
        let combining = "a" + String(repeating: "\u{301}", count: 300)
        #expect(await fixture.failure(token { $0["kid"] = .string(combining) }) == .invalidKeyID("301 characters, the limit is 256"))
    }

    @Test("typ other than JWT: unsupportedType; absent typ is fine")
    func type() async {
        #expect(await fixture.failure(token { $0["typ"] = "at+jwt" }) == .unsupportedType("at+jwt"))
        #expect(await fixture.failure(token { $0["typ"] = "jwt" }) == .unsupportedType("jwt"))
        #expect(await fixture.failure(token { $0["typ"] = 1 }) == .unsupportedType("number value"))
        #expect(await fixture.failure(token { $0["typ"] = nil }) == nil)
    }
}
