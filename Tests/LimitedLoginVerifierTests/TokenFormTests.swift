import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

@Suite("Verifier: a token must be well-formed (docs/BEHAVIOUR.md, section 8, rule 1)")
struct TokenFormTests {
    let fixture = VerifierFixture()

    @Test("a valid token verifies and yields its claims")
    func valid() async throws {
        let verified = try await fixture.verifier.verify(fixture.factory.token(), nonce: .exact("nonce-7f3a"))
        #expect(verified.keyID == "key-1")
        #expect(verified.claims.sub == "1029384756")
        #expect(verified.claims.email == "ada@example.test")
    }

    @Test("over 16 KiB: tokenTooLarge, before any decoding")
    func tooLarge() async {
        let token = fixture.factory.token { $0["padding"] = .string(String(repeating: "x", count: 13_000)) }
        #expect(token.utf8.count > 16 * 1024)
        #expect(await fixture.failure(token) == .tokenTooLarge(size: token.utf8.count, limit: 16 * 1024))
    }

    @Test("wrong segment counts: wrongSegmentCount")
    func segments() async {
        let parts = fixture.factory.token().split(separator: ".").map(String.init)
        #expect(await fixture.failure("\(parts[0]).\(parts[1])") == .wrongSegmentCount(2))
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(parts[2]).") == .wrongSegmentCount(4))
        #expect(await fixture.failure("not a token") == .wrongSegmentCount(1))
        #expect(await fixture.failure("") == .wrongSegmentCount(1))
    }

    @Test("padding, +, /, whitespace and non-zero trailing bits: invalidBase64URL")
    func base64() async {
        let token = fixture.factory.token()
        let parts = token.split(separator: ".").map(String.init)
        // Padding: append '=' to the signature segment.
        #expect(await fixture.failure(token + "=") == .invalidBase64URL(.signature, .invalidCharacter(UInt8(ascii: "="), offset: parts[2].count)))
        // Standard alphabet: swap '-' / '_' for '+' / '/'.
        let standard = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standard != parts[2] {
            #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(standard)")?.code == "invalid_base64url")
        }
        #expect(
            await fixture.failure("\(parts[0]).\(parts[1]).+\(parts[2].dropFirst())")
                == .invalidBase64URL(.signature, .invalidCharacter(UInt8(ascii: "+"), offset: 0)))
        #expect(
            await fixture.failure("\(parts[0]).\(parts[1]).\(parts[2].dropLast())/")
                == .invalidBase64URL(.signature, .invalidCharacter(UInt8(ascii: "/"), offset: parts[2].count - 1)))
        #expect(await fixture.failure("\(parts[0]). \(parts[1]).\(parts[2])") == .invalidBase64URL(.payload, .invalidCharacter(0x20, offset: 0)))
        #expect(await fixture.failure(token + "\n") == .invalidBase64URL(.signature, .invalidCharacter(0x0A, offset: parts[2].count)))
        // The 256-byte signature encodes to 342 characters, whose last carries 4 spare bits.
        #expect(parts[2].count == 342)
        let last = parts[2].last!
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let index = alphabet.firstIndex(of: last)!
        let sameBytes = String(parts[2].dropLast()) + String(alphabet[index | 1])
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(sameBytes)") == .invalidBase64URL(.signature, .nonZeroTrailingBits))
    }

    @Test("header or payload that is not a JSON object: notAJSONObject")
    func nonObject() async {
        let factory = fixture.factory
        #expect(
            await fixture.failure(factory.token(headerText: "[\"RS256\"]", payloadText: factory.claimsText))
                == .notAJSONObject(.header, foundType: "array"))
        #expect(
            await fixture.failure(factory.token(headerText: factory.headerText, payloadText: "\"claims\""))
                == .notAJSONObject(.payload, foundType: "string"))
        #expect(
            await fixture.failure(factory.token(headerText: factory.headerText, payloadText: "42")) == .notAJSONObject(.payload, foundType: "number"))
    }

    @Test("invalid UTF-8 in the payload: invalidJSON")
    func badUTF8() async {
        let factory = fixture.factory
        let payload = Array(#"{"name":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        let token = factory.token(headerBytes: Array(factory.headerText.utf8), payloadBytes: payload)
        #expect(await fixture.failure(token) == .invalidJSON(.payload, .invalidUTF8(offset: 9)))
    }

    @Test("duplicate member names in the header: invalidJSON, even though the signature is good")
    func duplicateHeader() async {
        let factory = fixture.factory
        let header = #"{"alg":"RS256","kid":"key-1","typ":"JWT","alg":"none"}"#
        #expect(
            await fixture.failure(factory.token(headerText: header, payloadText: factory.claimsText))
                == .invalidJSON(.header, .duplicateMemberName("alg")))
    }

    @Test("duplicate member names in the payload, top level or nested: invalidJSON")
    func duplicatePayload() async {
        let factory = fixture.factory
        var text = factory.claimsText
        text.removeLast()
        let duplicateSub = text + #","sub":"someone-else"}"#
        #expect(
            await fixture.failure(factory.token(headerText: factory.headerText, payloadText: duplicateSub))
                == .invalidJSON(.payload, .duplicateMemberName("sub")))
        let escapedDuplicate = text + #","\u0073ub":"someone-else"}"#
        #expect(
            await fixture.failure(factory.token(headerText: factory.headerText, payloadText: escapedDuplicate))
                == .invalidJSON(.payload, .duplicateMemberName("sub")))
        let nested = text + #","extra":{"a":1,"a":2}}"#
        #expect(
            await fixture.failure(factory.token(headerText: factory.headerText, payloadText: nested))
                == .invalidJSON(.payload, .duplicateMemberName("a")))
    }

    @Test("deeply nested payloads: invalidJSON with nestingTooDeep, no stack overflow")
    func deepNesting() async {
        let factory = fixture.factory
        var text = factory.claimsText
        text.removeLast()
        let deep = text + #","x":"# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}"
        #expect(
            await fixture.failure(factory.token(headerText: factory.headerText, payloadText: deep))
                == .invalidJSON(.payload, .nestingTooDeep(limit: 16)))
    }
}
