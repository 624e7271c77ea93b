import Testing

@testable import LimitedLoginJOSE

@Suite("Base64URL: canonical, unpadded, url-safe only")
struct Base64URLTests {
    @Test("round-trips every length from 0 to 64 bytes")
    func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("="))
            #expect(try Base64URL.decode(encoded) == bytes)
        }
    }

    @Test("matches RFC 4648 test vectors, unpadded")
    func vectors() throws {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test("refuses padding")
    func padding() {
        #expect(throws: Base64URLError.invalidCharacter(UInt8(ascii: "="), offset: 2)) { try Base64URL.decode("Zg==") }
        #expect(throws: Base64URLError.invalidCharacter(UInt8(ascii: "="), offset: 3)) { try Base64URL.decode("Zm8=") }
    }

    @Test("refuses the standard alphabet's + and /")
    func standardAlphabet() {
        #expect(throws: Base64URLError.invalidCharacter(UInt8(ascii: "+"), offset: 0)) { try Base64URL.decode("+_8") }
        #expect(throws: Base64URLError.invalidCharacter(UInt8(ascii: "/"), offset: 1)) { try Base64URL.decode("-/8") }
    }

    @Test("refuses whitespace anywhere")
    func whitespace() {
        #expect(throws: Base64URLError.invalidCharacter(0x20, offset: 2)) { try Base64URL.decode("Zm 9v") }
        #expect(throws: Base64URLError.invalidCharacter(0x0A, offset: 4)) { try Base64URL.decode("Zm9v\n") }
    }

    @Test("refuses non-zero trailing bits: one spelling per byte string")
    func trailingBits() {
        // "Zg" is 'f'; "Zh" decodes to the same byte with a stray bit set.
        #expect(throws: Base64URLError.nonZeroTrailingBits) { try Base64URL.decode("Zh") }
        // "Zm8" is "fo"; "Zm9" has stray low bits.
        #expect(throws: Base64URLError.nonZeroTrailingBits) { try Base64URL.decode("Zm9") }
    }

    @Test("refuses a length that leaves one character over")
    func impossibleLength() {
        #expect(throws: Base64URLError.impossibleLength(5)) { try Base64URL.decode("Zm9vY") }
    }

    @Test("refuses non-ASCII bytes")
    func nonASCII() {
        #expect(throws: Base64URLError.invalidCharacter(0xC3, offset: 0)) { try Base64URL.decode("é") }
    }
}

@Suite("Base64URL: the quad-at-a-time decoder agrees with the rules at every length and offset")
struct Base64URLDecoderTests {
    @Test("round-trips every length from 0 to 400 bytes (the fast loop, its last quads and each tail)")
    func longRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...400 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try Base64URL.decode(Base64URL.encode(bytes)) == bytes, "length \(length)")
        }
    }

    @Test("every alphabet character in every position of a quad decodes to its value")
    func everyCharacterEveryPosition() throws {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for position in 0..<4 {
            for (value, character) in alphabet.enumerated() {
                // Two quads so the first goes through the fast loop; "A" is zero.
                var text = Array("AAAAAAAA".utf8)
                text[position] = character
                let decoded = try Base64URL.decode(String(decoding: text, as: UTF8.self))
                let bits = UInt32(value) << UInt32(18 - 6 * position)
                #expect(decoded == [UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF), 0, 0, 0])
            }
        }
    }

    @Test("a character outside the alphabet is reported at its exact offset, wherever it is")
    func invalidAtEveryOffset() {
        let valid = Array(Base64URL.encode((0..<150).map { UInt8(truncatingIfNeeded: $0 &* 37) }).utf8)
        for bad: UInt8 in [UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "."), 0x00, 0x80, 0xFF] {
            for offset in valid.indices {
                var text = valid
                text[offset] = bad
                #expect(throws: Base64URLError.invalidCharacter(bad, offset: offset)) {
                    try text.withUnsafeBufferPointer { try Base64URL.decode(bytes: $0) }
                }
            }
        }
    }
}
