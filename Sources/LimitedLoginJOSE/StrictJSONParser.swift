/// Why JSON text was refused.
public enum JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case inputTooLarge(size: Int, limit: Int)
    case nestingTooDeep(limit: Int)
    case invalidUTF8(offset: Int)
    case duplicateMemberName(String)
    case unexpectedByte(UInt8, offset: Int)
    case unexpectedEnd
    case invalidEscape(offset: Int)
    case unescapedControlCharacter(offset: Int)
    case loneSurrogate(offset: Int)
    case invalidNumber(offset: Int)
    case trailingContent(offset: Int)

    public var description: String {
        switch self {
        case .inputTooLarge(let size, let limit): return "JSON of \(size) bytes is over the limit of \(limit) bytes"
        case .nestingTooDeep(let limit): return "JSON nests deeper than \(limit) levels"
        case .invalidUTF8(let offset): return "invalid UTF-8 at byte \(offset)"
        case .duplicateMemberName(let name): return "duplicate member name \"\(name)\""
        case .unexpectedByte(let byte, let offset):
            let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            return "unexpected \(shown) at byte \(offset)"
        case .unexpectedEnd: return "JSON ends too early"
        case .invalidEscape(let offset): return "invalid escape sequence at byte \(offset)"
        case .unescapedControlCharacter(let offset): return "unescaped control character in a string at byte \(offset)"
        case .loneSurrogate(let offset): return "unpaired UTF-16 surrogate escape at byte \(offset)"
        case .invalidNumber(let offset): return "invalid number at byte \(offset)"
        case .trailingContent(let offset): return "content after the JSON value at byte \(offset)"
        }
    }
}

/// A JSON reader (RFC 8259) that refuses everything a signature check must not be ambiguous about.
///
/// Two parsers that read one text differently are how signed claims get smuggled: a duplicate `"sub"`
/// means one thing to the verifier and another to the app. So this reader refuses duplicate member names
/// at any depth (compared after unescaping), invalid UTF-8, lone surrogates, unescaped control characters,
/// a byte-order mark, nesting past a bound and input past a size bound.
public struct StrictJSONParser: Sendable {
    /// Largest input accepted, in bytes.
    public var maximumSize: Int
    /// Deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    public init(maximumSize: Int = 64 * 1024, maximumDepth: Int = 32) {
        self.maximumSize = maximumSize
        self.maximumDepth = min(maximumDepth, 512)
    }

    /// Parses one JSON value that spans the whole input.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        if bytes.count > maximumSize { throw .inputTooLarge(size: bytes.count, limit: maximumSize) }
        return try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var reader = Reader(input: buffer, maximumDepth: maximumDepth)
            return try reader.parseDocument()
        }
    }

    /// Parses one JSON value that spans the whole input, from any byte collection.
    public func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue where Bytes.Element == UInt8 {
        if bytes.count > maximumSize { throw .inputTooLarge(size: bytes.count, limit: maximumSize) }
        return try parse(Array(bytes))
    }
}

private struct Reader {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0

    init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.input = input
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < input.count { throw .trailingContent(offset: position) }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    func peek() throws(JSONParseError) -> UInt8 {
        guard position < input.count else { throw .unexpectedEnd }
        return input[position]
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            let offset = position
            if byte >= 0x80 { try validateUTF8Sequence() }
            throw .unexpectedByte(byte, offset: offset)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in bytes {
            guard position < input.count else { throw .unexpectedEnd }
            if input[position] != expected { throw .unexpectedByte(input[position], offset: position) }
            position += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw .nestingTooDeep(limit: maximumDepth) }
        position += 1
        var entries = [JSONObject.Entry]()
        entries.reserveCapacity(8)
        // Past this many members, names are also kept in a set (of bytes: exact, not canonical,
        // equality) so duplicate checks stay linear.
        var names: Set<[UInt8]>? = nil
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(uniqueEntries: entries))
        }
        while true {
            skipWhitespace()
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(byte, offset: position) }
            let key = try parseString()
            let fingerprint = JSONObject.fingerprint(of: key)
            if names != nil {
                if names?.insert(Array(key.utf8)).inserted == false { throw .duplicateMemberName(key) }
            } else {
                for entry in entries where entry.fingerprint == fingerprint && entry.key.hasSameBytes(as: key) {
                    throw .duplicateMemberName(key)
                }
                if entries.count == 32 { names = Set(entries.map { Array($0.key.utf8) } + [Array(key.utf8)]) }
            }
            skipWhitespace()
            let colon = try peek()
            guard colon == UInt8(ascii: ":") else { throw .unexpectedByte(colon, offset: position) }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            entries.append(JSONObject.Entry(fingerprint: fingerprint, key: key, value: value))
            skipWhitespace()
            let separator = try peek()
            position += 1
            switch separator {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(JSONObject(uniqueEntries: entries))
            default: throw .unexpectedByte(separator, offset: position - 1)
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw .nestingTooDeep(limit: maximumDepth) }
        position += 1
        var elements = [JSONValue]()
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            let separator = try peek()
            position += 1
            switch separator {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(elements)
            default: throw .unexpectedByte(separator, offset: position - 1)
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        var isInteger = true
        if input[position] == UInt8(ascii: "-") { position += 1 }
        guard position < input.count else { throw .invalidNumber(offset: start) }
        if input[position] == UInt8(ascii: "0") {
            position += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(input[position]) {
            while position < input.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(input[position]) { position += 1 }
        } else {
            throw .invalidNumber(offset: start)
        }
        if position < input.count, input[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let digitsStart = position
            while position < input.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(input[position]) { position += 1 }
            if position == digitsStart { throw .invalidNumber(offset: start) }
        }
        if position < input.count, input[position] == UInt8(ascii: "e") || input[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while position < input.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(input[position]) { position += 1 }
            if position == digitsStart { throw .invalidNumber(offset: start) }
        }
        let length = position - start
        if isInteger, length <= 16 {
            // Fast path: exact for every integer up to 15 digits plus sign.
            var value: Int64 = 0
            var index = start
            let negative = input[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            while index < position {
                value = value * 10 + Int64(input[index] - UInt8(ascii: "0"))
                index += 1
            }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .invalidNumber(offset: start) }
        return value
    }

    /// Parses a string starting at its opening quote; leaves the position after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, so the string is a slice of the input.
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw .unescapedControlCharacter(offset: position) }
            if byte >= 0x80 { try validateUTF8Sequence() } else { position += 1 }
        }
        guard position < input.count else { throw .unexpectedEnd }
        var bytes = Array(UnsafeBufferPointer(rebasing: input[start..<position]))
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &bytes)
            case 0x00..<0x20:
                throw .unescapedControlCharacter(offset: position)
            case 0x80...:
                let sequenceStart = position
                try validateUTF8Sequence()
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[sequenceStart..<position]))
            default:
                bytes.append(byte)
                position += 1
            }
        }
        throw .unexpectedEnd
    }

    mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position
        position += 1
        guard position < input.count else { throw .unexpectedEnd }
        let code = input[position]
        position += 1
        switch code {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeStart: escapeStart)
            if (0xDC00...0xDFFF).contains(scalar) { throw .loneSurrogate(offset: escapeStart) }
            if (0xD800...0xDBFF).contains(scalar) {
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"),
                      input[position + 1] == UInt8(ascii: "u") else { throw .loneSurrogate(offset: escapeStart) }
                position += 2
                let low = try readHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate(offset: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicodeScalar = Unicode.Scalar(scalar) else { throw .invalidEscape(offset: escapeStart) }
            bytes.append(contentsOf: String(Character(unicodeScalar)).utf8)
        default:
            throw .invalidEscape(offset: escapeStart)
        }
    }

    mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard position + 4 <= input.count else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidEscape(offset: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Checks one UTF-8 sequence starting at a byte >= 0x80 against the well-formed table
    /// (Unicode 15, table 3-7): no overlong forms, no surrogates, nothing above U+10FFFF.
    mutating func validateUTF8Sequence() throws(JSONParseError) {
        let start = position
        let lead = input[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw .invalidUTF8(offset: start)
        }
        guard start + length <= input.count else { throw .invalidUTF8(offset: start) }
        guard secondRange.contains(input[start + 1]) else { throw .invalidUTF8(offset: start) }
        var index = start + 2
        while index < start + length {
            guard (0x80...0xBF).contains(input[index]) else { throw .invalidUTF8(offset: start) }
            index += 1
        }
        position = start + length
    }
}
