import Testing

@testable import LimitedLoginJOSE

@Suite("StrictJSONParser: RFC 8259 with no ambiguity")
struct StrictJSONParserTests {
    let parser = StrictJSONParser()

    func parse(_ text: String) throws(JSONParseError) -> JSONValue { try parser.parse(Array(text.utf8)) }

    @Test("reads every JSON type")
    func readsTypes() throws {
        let value = try parse(#" {"s":"a\"b\\c\/\n\u00e9\ud83d\ude00","n":-12.5e1,"i":1700000000,"t":true,"f":false,"z":null,"a":[1,[2]],"o":{}} "#)
        #expect(
            value
                == .object([
                    "s": .string("a\"b\\c/\né😀"), "n": .number(-125), "i": .number(1_700_000_000), "t": .bool(true),
                    "f": .bool(false), "z": .null, "a": .array([.number(1), .array([.number(2)])]), "o": .object([:]),
                ]))
    }

    @Test("refuses duplicate member names at the top level")
    func duplicateTopLevel() {
        #expect(throws: JSONParseError.duplicateMemberName("sub")) { try parse(#"{"sub":"a","sub":"b"}"#) }
    }

    @Test("refuses duplicate member names at any depth")
    func duplicateNested() {
        #expect(throws: JSONParseError.duplicateMemberName("id")) {
            try parse(#"{"user_location":{"id":"1","name":"x","id":"2"}}"#)
        }
        #expect(throws: JSONParseError.duplicateMemberName("k")) { try parse(#"[[{"k":1,"k":1}]]"#) }
    }

    @Test("compares names after unescaping, so an escaped spelling is still a duplicate")
    func duplicateEscaped() {
        #expect(throws: JSONParseError.duplicateMemberName("aud")) { try parse(#"{"aud":"1","\u0061ud":"2"}"#) }
    }

    @Test("names compare byte for byte: canonically equivalent spellings are distinct, not duplicates")
    func exactNames() throws {
        // U+212A KELVIN SIGN is canonically equivalent to "K", so Swift's == calls them equal.
        #expect("\u{212A}" == "K")
        let object = try #require(try parse(#"{"K":1,"\u212a":2}"#).objectValue)
        #expect(object.count == 2)
        #expect(object["K"] == .number(1))
        #expect(object["\u{212A}"] == .number(2))
        // Past 32 members the duplicate check uses a set, with the same byte semantics.
        let many = (0..<40).map { #""m\#($0)":0"# }.joined(separator: ",")
        #expect(try parse("{\(many),\"K\":1,\"\\u212a\":2}").objectValue?.count == 42)
        #expect(throws: JSONParseError.duplicateMemberName("m3")) { try parse("{\(many),\"m3\":1}") }
    }

    @Test("refuses invalid UTF-8: overlong, surrogate, truncated, stray continuation, above U+10FFFF")
    func invalidUTF8() {
        let cases: [[UInt8]] = [
            [0xC0, 0xAF],  // overlong '/'
            [0xE0, 0x80, 0xAF],  // overlong 3-byte
            [0xED, 0xA0, 0x80],  // UTF-16 surrogate D800 encoded
            [0xE2, 0x82],  // truncated
            [0x80],  // stray continuation
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xFF],
        ]
        for bad in cases {
            let document = Array(#"{"name":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(throws: JSONParseError.invalidUTF8(offset: 9)) { try parser.parse(document) }
        }
    }

    @Test("refuses lone surrogate escapes")
    func loneSurrogates() {
        #expect(throws: JSONParseError.loneSurrogate(offset: 1)) { try parse(#""\ud800""#) }
        #expect(throws: JSONParseError.loneSurrogate(offset: 1)) { try parse(#""\udc00""#) }
        #expect(throws: JSONParseError.loneSurrogate(offset: 1)) { try parse(#""\ud800\u0041""#) }
    }

    @Test("refuses unescaped control characters and unknown escapes")
    func controlCharacters() {
        #expect(throws: JSONParseError.unescapedControlCharacter(offset: 2)) { try parse("\"a\tb\"") }
        #expect(throws: JSONParseError.invalidEscape(offset: 1)) { try parse(#""\x41""#) }
        #expect(throws: JSONParseError.invalidEscape(offset: 1)) { try parse(#""\u00g1""#) }
    }

    @Test("refuses nesting past the bound, and accepts it at the bound")
    func depth() throws {
        let shallow = StrictJSONParser(maximumDepth: 3)
        #expect(try shallow.parse(Array("[[[1]]]".utf8)) == .array([.array([.array([.number(1)])])]))
        #expect(throws: JSONParseError.nestingTooDeep(limit: 3)) { try shallow.parse(Array("[[[[1]]]]".utf8)) }
        #expect(throws: JSONParseError.nestingTooDeep(limit: 3)) { try shallow.parse(Array(#"{"a":{"b":{"c":{}}}}"#.utf8)) }
        // A hostile depth that would overflow a naive recursive parser's stack.
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.nestingTooDeep(limit: 32)) { try StrictJSONParser(maximumSize: 200_000).parse(Array(deep.utf8)) }
    }

    @Test("refuses input past the size bound before reading it")
    func size() {
        let small = StrictJSONParser(maximumSize: 10)
        #expect(throws: JSONParseError.inputTooLarge(size: 11, limit: 10)) { try small.parse(Array(#"{"a":"bcd"}"#.utf8)) }
    }

    @Test("refuses trailing content, a byte-order mark and truncation")
    func framing() {
        #expect(throws: JSONParseError.trailingContent(offset: 3)) { try parse("{} {}") }
        #expect(throws: JSONParseError.unexpectedByte(0xEF, offset: 0)) { try parser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) }
        #expect(throws: JSONParseError.unexpectedEnd) { try parse(#"{"a":"#) }
        #expect(throws: JSONParseError.unexpectedEnd) { try parse("") }
        #expect(throws: JSONParseError.unexpectedByte(UInt8(ascii: "}"), offset: 5)) { try parse(#"{"a":}"#) }
        #expect(throws: JSONParseError.unexpectedByte(UInt8(ascii: "]"), offset: 3)) { try parse("[1,]") }
        #expect(throws: JSONParseError.unexpectedByte(UInt8(ascii: "'"), offset: 1)) { try parse("{'a':1}") }
    }

    @Test("number grammar is RFC 8259's: no leading zeros, no bare dot, no NaN")
    func numbers() throws {
        #expect(try parse("0") == .number(0))
        #expect(try parse("-0.5e-3") == .number(-0.0005))
        #expect(try parse("1700000000.25") == .number(1_700_000_000.25))
        #expect(throws: JSONParseError.trailingContent(offset: 1)) { try parse("01") }
        #expect(throws: JSONParseError.invalidNumber(offset: 0)) { try parse("1.") }
        #expect(throws: JSONParseError.unexpectedByte(UInt8(ascii: "."), offset: 0)) { try parse(".5") }
        #expect(throws: JSONParseError.invalidNumber(offset: 0)) { try parse("-") }
        #expect(throws: JSONParseError.invalidNumber(offset: 0)) { try parse("1e") }
        #expect(throws: JSONParseError.unexpectedByte(UInt8(ascii: "N"), offset: 0)) { try parse("NaN") }
        #expect(throws: JSONParseError.invalidNumber(offset: 0)) { try parse("1e999") }
    }

    @Test("serializer output reads back to the same value")
    func serializerRoundTrip() throws {
        let value: JSONValue = ["b": [1, 2.5, "x\"\u{1}\n"], "a": ["nested": true, "n": nil], "é": -3]
        let text = JSONSerializer.serialize(value)
        #expect(String(decoding: text, as: UTF8.self) == #"{"a":{"n":null,"nested":true},"b":[1,2.5,"x\"\u0001\n"],"é":-3}"#)
        #expect(try parser.parse(text) == value)
        #expect(try parser.parse(Array(JSONSerializer.prettyPrinted(value).utf8)) == value)
    }
}
