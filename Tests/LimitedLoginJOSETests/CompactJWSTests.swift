import LimitedLoginTestSupport
import Testing
@testable import LimitedLoginJOSE

@Suite("CompactJWS: splitting and decoding")
struct CompactJWSTests {
    let factory = TokenFactory()

    @Test("a signed token splits into header, payload, signing input and signature")
    func parses() throws {
        let token = factory.token()
        let jws = try CompactJWS(parsing: token)
        #expect(jws.header["alg"] == "RS256")
        #expect(jws.payload["aud"] == "1234567890")
        let parts = token.split(separator: ".")
        #expect(jws.signingInput == Array("\(parts[0]).\(parts[1])".utf8))
        #expect(factory.key.publicKey.isValidSignature(jws.signature, for: jws.signingInput))
    }

    @Test("refuses anything but three segments")
    func segmentCount() {
        #expect(throws: JWSParseError.wrongSegmentCount(1)) { try CompactJWS(parsing: "garbage") }
        #expect(throws: JWSParseError.wrongSegmentCount(2)) { try CompactJWS(parsing: "a.b") }
        #expect(throws: JWSParseError.wrongSegmentCount(5)) { try CompactJWS(parsing: "a.b.c.d.e") }
        #expect(throws: JWSParseError.wrongSegmentCount(1)) { try CompactJWS(parsing: "") }
    }

    @Test("refuses a token over the size bound before decoding it")
    func size() {
        let big = String(repeating: "a", count: 16 * 1024 + 1)
        #expect(throws: JWSParseError.tooLarge(size: 16385, limit: 16384)) { try CompactJWS(parsing: big) }
    }

    @Test("reports which segment is bad, with offsets inside that segment")
    func segmentErrors() {
        let parts = factory.token().split(separator: ".").map(String.init)
        #expect(throws: JWSParseError.invalidBase64URL(.payload, .invalidCharacter(UInt8(ascii: "="), offset: parts[1].count))) {
            try CompactJWS(parsing: "\(parts[0]).\(parts[1])=.\(parts[2])")
        }
        #expect(throws: JWSParseError.notAnObject(.header, foundType: "array")) {
            try CompactJWS(parsing: "\(Base64URL.encode(Array("[]".utf8))).\(parts[1]).\(parts[2])")
        }
        #expect(throws: JWSParseError.invalidJSON(.payload, .duplicateMemberName("a"))) {
            try CompactJWS(parsing: "\(parts[0]).\(Base64URL.encode(Array(#"{"a":1,"a":2}"#.utf8))).\(parts[2])")
        }
    }
}
