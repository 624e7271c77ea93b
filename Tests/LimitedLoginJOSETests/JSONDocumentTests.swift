import Testing

@testable import LimitedLoginJOSE

@Suite("JSONDocument: one validating pass, values read in place")
struct JSONDocumentTests {
    func document(_ text: String) throws(JSONParseError) -> JSONDocument { try JSONDocument(parsing: Array(text.utf8)) }

    @Test("reading in place gives the same values as the tree")
    func readsInPlace() throws {
        let text = #"{"s":"plain","e":"a\u0041\n","n":-12.5,"i":1700000000,"t":true,"z":null,"a":["x",{"k":[]}],"o":{"p":1}}"#
        let document = try document(text)
        let root = document.root
        #expect(document.kind(at: root) == .object)
        #expect(document.count(at: root) == 8)
        let s = try #require(document.member("s", of: root))
        #expect(document.string(at: s) == "plain")
        #expect(document.stringEquals(s, "plain" as StaticString))
        #expect(!document.stringEquals(s, "plai" as StaticString))
        let e = try #require(document.member("e", of: root))
        #expect(document.string(at: e) == "aA\n")
        #expect(document.stringEquals(e, "aA\n" as StaticString))
        #expect(document.number(at: try #require(document.member("n", of: root))) == -12.5)
        #expect(document.integer(at: try #require(document.member("n", of: root))) == nil)
        #expect(document.integer(at: try #require(document.member("i", of: root))) == 1_700_000_000)
        #expect(document.bool(at: try #require(document.member("t", of: root))) == true)
        #expect(document.kind(at: try #require(document.member("z", of: root))) == .null)
        #expect(document.member("missing", of: root) == nil)
        #expect(document.member("s", of: s) == nil, "a string has no members")
        let array = try #require(document.member("a", of: root))
        var kinds: [JSONKind] = []
        document.forEachElement(of: array) {
            kinds.append(document.kind(at: $0))
            return true
        }
        #expect(kinds == [.string, .object])
        #expect(document.value == (try StrictJSONParser().parse(Array(text.utf8))))
        #expect(
            document.value
                == .object([
                    "s": "plain", "e": "aA\n", "n": -12.5, "i": 1_700_000_000, "t": true, "z": nil,
                    "a": ["x", ["k": []]], "o": ["p": 1],
                ]))
    }

    @Test("member lookups compare names after unescaping and byte for byte")
    func memberLookupIsExact() throws {
        let document = try document(#"{"\u0073ub":"1","K":"2"}"#)
        #expect(document.member("sub", of: document.root).flatMap(document.string(at:)) == "1")
        // U+212A KELVIN SIGN is canonically equivalent to K, and is another name.
        #expect(document.member("\u{212A}", of: document.root) == nil)
        #expect(document.member("K", of: document.root).flatMap(document.string(at:)) == "2")
    }

    @Test("one pass finds every name of a set, exactly, and only in that object")
    func memberNames() throws {
        let names = JSONMemberNames(["iss", "aud", "user_location", "id", "missing", "given_name"])
        let document = try document(#"{"aud":"a","user_\u006cocation":{"id":"7"},"given_name":"g","given_namf":"h","iss":"i","ISS":"x"}"#)
        let slots = document.members(of: document.root, named: names)
        #expect(slots[0].flatMap(document.string(at:)) == "i")
        #expect(slots[1].flatMap(document.string(at:)) == "a")
        #expect(slots[2].map(document.kind(at:)) == .object)
        #expect(slots[3] == nil, "id is a member of the nested object only")
        #expect(slots[4] == nil)
        #expect(slots[5].flatMap(document.string(at:)) == "g", "same length and first seven bytes, another name")
        let nested = document.members(of: try #require(slots[2]), named: names)
        #expect(nested[3].flatMap(document.string(at:)) == "7")
        #expect(document.members(of: try #require(slots[0]), named: names)[0] == nil, "a string has no members")
    }

    @Test("names of 8 to 15 bytes are told apart by every byte past the seventh; longer ones byte for byte")
    func memberNamesPastTheFingerprint() throws {
        let names = JSONMemberNames(["exactly8", "user_age_range", "fifteen_bytes_x", "sixteen_bytes_xy"])
        // Each decoy has the length and first seven bytes of a name: only the bytes the fingerprint leaves out differ.
        let document = try document(
            #"{"exactlY8":1,"user_agX_range":2,"fifteen_bytes_y":3,"sixteen_bytes_xz":4,"exactly8":5,"user_age_range":6,"#
                + #""fifteen_bytes_x":7,"sixteen_bytes_xy":8,"exactly9":9,"user_age_rangf":10}"#)
        let slots = document.members(of: document.root, named: names)
        #expect(slots[0].flatMap(document.number(at:)) == 5)
        #expect(slots[1].flatMap(document.number(at:)) == 6)
        #expect(slots[2].flatMap(document.number(at:)) == 7)
        #expect(slots[3].flatMap(document.number(at:)) == 8)
        // Without the names themselves: no decoy is taken for one; an escaped spelling of a name is that name.
        let decoys = try self.document(#"{"exactlY8":1,"user_agX_range":2,"fifteen_bytes_y":3,"sixteen_bytes_xz":4,"user_age_rang\u0065":5}"#)
        let found = decoys.members(of: decoys.root, named: names)
        #expect(found[0] == nil)
        #expect(found[1].flatMap(decoys.number(at:)) == 5)
        #expect(found[2] == nil)
        #expect(found[3] == nil)
    }

    @Test("input denser than the first guess (more than a value per 8 bytes) is indexed whole, rules and all")
    func denseInput() throws {
        // One-digit elements: a value per 2 bytes, so the first scan runs out of room and the second is used.
        for count in [1, 7, 8, 40, 41, 500] {
            let text = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
            let document = try document(text)
            #expect(document.count(at: 0) == count)
            #expect(document.value == .array(Array(repeating: .number(1), count: count)))
        }
        // Nested and dense: containers closed after the first scan ran out of room keep their extent.
        let nested = "[" + Array(repeating: #"{"a":[1,2],"b":{}}"#, count: 60).joined(separator: ",") + "]"
        let value = try document(nested).value
        #expect(value.arrayValue?.count == 60)
        #expect(value.arrayValue?.last == .object(["a": .array([.number(1), .number(2)]), "b": .object([:])]))
        // A duplicate past the first scan's room, and one before it: each reported, nothing else.
        let dense = (0..<200).map { #""\#($0)":0"# }
        #expect(throws: JSONParseError.duplicateMemberName("150")) {
            try document("{" + (dense + [#""150":1"#]).joined(separator: ",") + "}")
        }
        #expect(throws: JSONParseError.duplicateMemberName("3")) {
            try document("{" + (Array(dense.prefix(5)) + [#""3":1"#] + dense.dropFirst(5)).joined(separator: ",") + "}")
        }
        // A dense document with an error at its end: the error, at its offset.
        let broken = "[" + Array(repeating: "1", count: 300).joined(separator: ",") + ",]"
        #expect(throws: JSONParseError.unexpectedByte(UInt8(ascii: "]"), offset: broken.utf8.count - 1)) { try document(broken) }
    }

    @Test("duplicates are found in objects of any size, including past the switch to a name set")
    func duplicatesInLargeObjects() throws {
        for size in [2, 31, 32, 33, 34, 80] {
            // Values include containers, so the walk over earlier names has to skip them.
            let members = (0..<size).map { #""m\#($0)":{"v":[\#($0),{"w":\#($0)}]}"# }
            let valid = "{" + members.joined(separator: ",") + "}"
            #expect(try document(valid).count(at: 0) == size)
            for duplicated in [0, size / 2, size - 1] {
                let text = "{" + (members + [#""m\#(duplicated)":0"#]).joined(separator: ",") + "}"
                #expect(throws: JSONParseError.duplicateMemberName("m\(duplicated)")) { try document(text) }
                let escaped = "{" + (members + [#""\u006d\#(duplicated)":0"#]).joined(separator: ",") + "}"
                #expect(throws: JSONParseError.duplicateMemberName("m\(duplicated)")) { try document(escaped) }
            }
        }
    }

    @Test("the eight-byte string scan reports a bad byte at its exact offset, wherever it falls")
    func stringScanOffsets() throws {
        for length in 0..<24 {
            for position in 0..<length {
                var bytes = Array(#"{"k":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: length) + Array(#""}"#.utf8)
                let offset = 6 + position
                bytes[offset] = 0x1F
                #expect(throws: JSONParseError.unescapedControlCharacter(offset: offset)) { try JSONDocument(parsing: bytes) }
                bytes[offset] = 0xC0
                #expect(throws: JSONParseError.invalidUTF8(offset: offset)) { try JSONDocument(parsing: bytes) }
                bytes[offset] = UInt8(ascii: "\\")
                // A backslash in the last place escapes the closing quote, so the text ends inside the string.
                let escapeError = position == length - 1 ? JSONParseError.unexpectedEnd : .invalidEscape(offset: offset)
                #expect(throws: escapeError) { try JSONDocument(parsing: bytes) }
                bytes[offset] = 0x7F
                #expect(try JSONDocument(parsing: bytes).value == .object(["k": .string(String(decoding: bytes[6..<(6 + length)], as: UTF8.self))]))
            }
            let tail = Array(#"{"k":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: length) + Array("\u{E9}\"}".utf8)
            #expect(try JSONDocument(parsing: tail).value == .object(["k": .string(String(repeating: "a", count: length) + "\u{E9}")]))
            let unterminated = Array(#"{"k":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: length)
            #expect(throws: JSONParseError.unexpectedEnd) { try JSONDocument(parsing: unterminated) }
        }
    }

    @Test("the eight-byte scan resumes after each multi-byte character, wherever it falls")
    func stringScanResumes() throws {
        for sequence in ["\u{E9}", "\u{20AC}", "\u{1F600}"] {
            for before in 0..<18 {
                for after in [0, 1, 7, 8, 9, 15] {
                    let content = String(repeating: "a", count: before) + sequence + String(repeating: "b", count: after) + sequence
                    let text = #"{"k":""# + content + #"","n":1}"#
                    #expect(try document(text).value == .object(["k": .string(content), "n": 1]))
                    var broken = Array(text.utf8)
                    // The last byte of the second sequence becomes a quote: the sequence is cut short.
                    let offset = 6 + content.utf8.count - 1
                    broken[offset] = UInt8(ascii: "\"")
                    let lead = offset - (sequence.utf8.count - 1)
                    #expect(throws: JSONParseError.invalidUTF8(offset: lead)) { try JSONDocument(parsing: broken) }
                }
            }
        }
    }

    @Test("a top-level value of any type is a document; its type is named as JSONValue names it")
    func topLevelKinds() throws {
        #expect(try document("[1]").typeName(at: 0) == "array")
        #expect(try document("\"s\"").typeName(at: 0) == "string")
        #expect(try document("true").typeName(at: 0) == "boolean")
        #expect(try document("null").typeName(at: 0) == "null")
        #expect(try document("4").typeName(at: 0) == JSONValue.number(4).typeName)
    }
}
