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

@Suite("CompactJWS: dots found at any offset, the signing input read in place, a known header reused")
struct CompactJWSSplitTests {
    @Test("extra or missing dots at every offset are counted")
    func dotsAtEveryOffset() {
        let text = Array(String(repeating: "abcdefgh", count: 5).utf8)
        for first in 0..<text.count {
            var one = text
            one[first] = UInt8(ascii: ".")
            #expect(throws: JWSParseError.wrongSegmentCount(2)) { try CompactJWS(parsing: String(decoding: one, as: UTF8.self)) }
            for second in (first + 1)..<text.count where second % 7 == 0 {
                var four = one
                four[second] = UInt8(ascii: ".")
                four.append(contentsOf: Array(".x.y".utf8))
                #expect(throws: JWSParseError.wrongSegmentCount(5)) { try CompactJWS(parsing: String(decoding: four, as: UTF8.self)) }
            }
        }
    }

    @Test("the signing input in place, its copy and the header segment are the token's bytes")
    func signingInput() throws {
        let factory = TokenFactory()
        let token = factory.token()
        let jws = try CompactJWS(parsing: token)
        let parts = token.split(separator: ".")
        #expect(jws.token == token)
        #expect(jws.signingInput == Array("\(parts[0]).\(parts[1])".utf8))
        #expect(jws.withSigningInput { Array($0) } == jws.signingInput)
        #expect(jws.headerSegment == Array(parts[0].utf8))
    }

    @Test("a header offered for the exact segment is used; anything else is decoded and checked")
    func reusedHeader() throws {
        let factory = TokenFactory()
        let token = factory.token()
        let segment = Array(token.split(separator: ".")[0].utf8)
        let offered = try StrictJSONParser().document(Array(#"{"offered":true}"#.utf8))
        var asked: [[UInt8]] = []
        let reused = try CompactJWS(parsing: token) { bytes in
            asked.append(Array(bytes))
            return offered
        }
        #expect(asked == [segment])
        #expect(reused.header == ["offered": true])
        let decoded = try CompactJWS(parsing: token) { _ in nil }
        #expect(decoded.header == factory.header)
        // A known header does not excuse the other segments.
        #expect(
            throws: JWSParseError.invalidBase64URL(.signature, .invalidCharacter(UInt8(ascii: "="), offset: token.split(separator: ".")[2].count))
        ) {
            try CompactJWS(parsing: token + "=") { _ in offered }
        }
    }
}
