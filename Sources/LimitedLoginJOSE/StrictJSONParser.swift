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
///
/// It validates through ``JSONDocument`` and builds the tree from it: there is one set of rules.
public struct StrictJSONParser: Sendable {
    /// Largest input accepted, in bytes.
    public var maximumSize: Int
    /// Deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    public init(maximumSize: Int = 64 * 1024, maximumDepth: Int = 32) {
        self.maximumSize = maximumSize
        self.maximumDepth = min(maximumDepth, 512)
    }

    /// Validates and indexes one JSON value that spans the whole input, without building it.
    public func document(_ bytes: consuming [UInt8]) throws(JSONParseError) -> JSONDocument {
        try JSONDocument(parsing: bytes, maximumSize: maximumSize, maximumDepth: maximumDepth)
    }

    /// Parses one JSON value that spans the whole input.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try document(bytes).value
    }

    /// Parses one JSON value that spans the whole input, from any byte collection.
    public func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue where Bytes.Element == UInt8 {
        if bytes.count > maximumSize { throw .inputTooLarge(size: bytes.count, limit: maximumSize) }
        return try parse(Array(bytes))
    }
}
