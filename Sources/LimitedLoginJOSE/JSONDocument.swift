/// A JSON text that passed every rule of ``StrictJSONParser``, indexed but not yet turned into Swift values.
///
/// Reading a document validates the whole text once (duplicate names at any depth, UTF-8, escapes,
/// numbers, nesting, size) and records where each value lies in a flat index, without building a
/// ``JSONValue`` tree. Values are built only when asked for: the verifier reads an ID token's claims
/// straight from the index, and ``value`` builds the whole tree for callers that want it.
///
/// Values are named by their position in the index (`Int`); ``root`` is the top-level value.
public struct JSONDocument: Sendable {
    /// The text, exactly as read.
    public let bytes: [UInt8]
    @usableFromInline
    let tape: [JSONTapeEntry]

    /// Validates `bytes` as one JSON value and indexes it.
    public init(parsing bytes: consuming [UInt8], maximumSize: Int = 64 * 1024, maximumDepth: Int = 32) throws(JSONParseError) {
        let limit = min(maximumSize, Int(Int32.max))
        if bytes.count > limit { throw .inputTooLarge(size: bytes.count, limit: limit) }
        self.bytes = bytes
        self.tape = try self.bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try JSONScanner.index(buffer, maximumDepth: min(maximumDepth, 512))
        }
    }

    /// The top-level value.
    public var root: Int { 0 }

    /// The whole document as a tree.
    public var value: JSONValue { value(at: root) }

    // MARK: Reading one value

    /// The JSON type of the value at `index`.
    @inlinable
    public func kind(at index: Int) -> JSONKind { tape[index].kind.jsonKind }

    /// The name of the value's JSON type, for error messages (as ``JSONValue/typeName``).
    public func typeName(at index: Int) -> String { kind(at: index).rawValue }

    /// The string at `index`, or nil when the value is not a string.
    @inlinable
    public func string(at index: Int) -> String? {
        let entry = tape[index]
        switch entry.kind {
        case .string:
            return bytes.withUnsafeBufferPointer { buffer in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
            }
        case .escapedString:
            return String(decoding: unescapedBytes(of: entry), as: UTF8.self)
        default:
            return nil
        }
    }

    /// Whether the string at `index` is empty (nil when the value is not a string), without building it.
    /// Every escape stands for at least one byte, so only `""` is empty.
    @inlinable
    public func isEmptyString(at index: Int) -> Bool? {
        let entry = tape[index]
        switch entry.kind {
        case .string: return entry.end == entry.start
        case .escapedString: return false
        default: return nil
        }
    }

    /// Calls `body` with the UTF-8 content of the string at `index` (read in place unless it has
    /// escapes); nil when the value is not a string.
    @inlinable
    public func withStringBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        let entry = tape[index]
        switch entry.kind {
        case .string:
            return try bytes.withUnsafeBytes { text in
                try body(UnsafeRawBufferPointer(rebasing: text[Int(entry.start)..<Int(entry.end)]))
            }
        case .escapedString:
            return try unescapedBytes(of: entry).withUnsafeBytes(body)
        default:
            return nil
        }
    }

    /// True when the value at `index` is a string whose content is exactly these UTF-8 bytes (no
    /// Unicode equivalence), without building a `String`.
    @inlinable
    public func stringEquals(_ index: Int, _ expected: UnsafeRawBufferPointer) -> Bool {
        let entry = tape[index]
        return bytes.withUnsafeBytes { Self.stringEquals(entry, in: $0, expected) }
    }

    /// True when `entry`, a value of the document whose text is `text`, is a string whose content is
    /// exactly the bytes `expected`.
    @usableFromInline @inline(__always)
    static func stringEquals(_ entry: JSONTapeEntry, in text: UnsafeRawBufferPointer, _ expected: UnsafeRawBufferPointer) -> Bool {
        switch entry.kind {
        case .string:
            guard Int(entry.end - entry.start) == expected.count else { return false }
            return bytesEqual(text, at: Int(entry.start), expected)
        case .escapedString:
            return unescapedBytes(text, of: entry).withUnsafeBytes { $0.elementsEqual(expected) }
        default:
            return false
        }
    }

    /// True when the value at `index` is a string whose content is exactly `expected`'s bytes.
    @inlinable
    public func stringEquals(_ index: Int, _ expected: StaticString) -> Bool {
        stringEquals(index, UnsafeRawBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount))
    }

    /// True when the value at `index` is a string with exactly `expected`'s UTF-8 bytes.
    @inlinable
    public func stringEquals(_ index: Int, _ expected: String) -> Bool {
        var expected = expected
        return expected.withUTF8 { stringEquals(index, UnsafeRawBufferPointer($0)) }
    }

    /// The number at `index`, or nil when the value is not a number.
    @inlinable
    public func number(at index: Int) -> Double? {
        let entry = tape[index]
        guard entry.kind == .number else { return nil }
        return Double(bitPattern: entry.payload)
    }

    /// The number at `index` as an integer, by the rule of ``JSONValue/integerValue``.
    @inlinable
    public func integer(at index: Int) -> Int? {
        number(at: index).flatMap(JSONValue.exactInteger)
    }

    /// The Boolean at `index`, or nil when the value is not `true` or `false`.
    public func bool(at index: Int) -> Bool? {
        switch tape[index].kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// How many members (object) or elements (array) the value has; 0 for any other value.
    @inlinable
    public func count(at index: Int) -> Int {
        let entry = tape[index]
        return entry.kind.isContainer ? Int(entry.start) : 0
    }

    // MARK: Objects and arrays

    /// The value of the member called `name` (compared byte for byte) in the object at `object`, or nil
    /// when there is none or `object` is not an object.
    @inlinable
    public func member(_ name: StaticString, of object: Int) -> Int? {
        let expected = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return member(expected, of: object)
    }

    /// The value of the member whose name has exactly these UTF-8 bytes, or nil.
    @inlinable
    public func member(_ name: UnsafeRawBufferPointer, of object: Int) -> Int? {
        let fingerprint = JSONTapeEntry.fingerprint(name)
        return tape.withUnsafeBufferPointer { tape -> Int? in
            guard object < tape.count, tape[object].kind == .object else { return nil }
            let end = Int(tape[object].end)
            var index = object + 1
            while index < end {
                if tape[index].payload == fingerprint, stringEquals(index, name) { return index + 1 }
                let value = tape[index + 1]
                index = value.kind.isContainer ? Int(value.end) : index + 2
            }
            return nil
        }
    }

    /// Calls `body` with each member's name and value positions, in document order, until it returns false.
    @inlinable
    public func forEachMember(of object: Int, _ body: (_ name: Int, _ value: Int) throws -> Bool) rethrows {
        guard tape[object].kind == .object else { return }
        let end = Int(tape[object].end)
        var index = object + 1
        while index < end {
            if try !body(index, index + 1) { return }
            index = next(after: index + 1)
        }
    }

    /// Calls `body` with each element's position, in order, until it returns false.
    @inlinable
    public func forEachElement(of array: Int, _ body: (_ element: Int) throws -> Bool) rethrows {
        guard tape[array].kind == .array else { return }
        let end = Int(tape[array].end)
        var index = array + 1
        while index < end {
            if try !body(index) { return }
            index = next(after: index)
        }
    }

    /// The position just past the value at `index` and everything inside it.
    @inlinable
    func next(after index: Int) -> Int {
        let entry = tape[index]
        return entry.kind.isContainer ? Int(entry.end) : index + 1
    }

    /// True when `expected.count` bytes of `buffer` from `offset` equal `expected`, compared 8 bytes at a time.
    @inlinable
    package static func bytesEqual(_ buffer: UnsafeRawBufferPointer, at offset: Int, _ expected: UnsafeRawBufferPointer) -> Bool {
        let count = expected.count
        guard count > 0 else { return true }
        guard let base = buffer.baseAddress, let other = expected.baseAddress, offset + count <= buffer.count else { return false }
        let left = base + offset
        var index = 0
        while index + 8 <= count {
            if left.loadUnaligned(fromByteOffset: index, as: UInt64.self) != other.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < count {
            if left.load(fromByteOffset: index, as: UInt8.self) != other.load(fromByteOffset: index, as: UInt8.self) { return false }
            index += 1
        }
        return true
    }

    @usableFromInline
    func unescapedBytes(of entry: JSONTapeEntry) -> [UInt8] {
        bytes.withUnsafeBytes { Self.unescapedBytes($0, of: entry) }
    }

    /// The content of the string `entry` of the document whose text is `text`, unescaped.
    @usableFromInline
    static func unescapedBytes(_ text: UnsafeRawBufferPointer, of entry: JSONTapeEntry) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(Int(entry.end - entry.start))
        // The scanner validated this string, so unescaping it again cannot fail.
        _ = try? JSONScanner.unescapeString(text.assumingMemoryBound(to: UInt8.self), from: Int(entry.start), into: &output)
        return output
    }

    // MARK: Building values

    /// The value at `index` as a tree.
    public func value(at index: Int) -> JSONValue {
        var position = index
        return buildValue(&position)
    }

    private func buildValue(_ position: inout Int) -> JSONValue {
        let index = position
        let entry = tape[index]
        position += 1
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(Double(bitPattern: entry.payload))
        case .string, .escapedString: return .string(string(at: index) ?? "")
        case .array:
            var elements = [JSONValue]()
            elements.reserveCapacity(Int(entry.start))
            while position < Int(entry.end) { elements.append(buildValue(&position)) }
            return .array(elements)
        case .object:
            var entries = [JSONObject.Entry]()
            entries.reserveCapacity(Int(entry.start))
            while position < Int(entry.end) {
                let name = position
                position += 1
                let value = buildValue(&position)
                entries.append(JSONObject.Entry(fingerprint: tape[name].payload, key: string(at: name) ?? "", value: value))
            }
            return .object(JSONObject(uniqueEntries: entries))
        }
    }
}

/// The JSON type of a value.
public enum JSONKind: String, Sendable, Equatable {
    case null, boolean, number, string, array, object
}

/// One value in a ``JSONDocument``'s index.
@usableFromInline
struct JSONTapeEntry: Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case object, array, string, escapedString, number, `true`, `false`, null

        @inlinable
        var isContainer: Bool { self == .object || self == .array }

        @inlinable
        var jsonKind: JSONKind {
            switch self {
            case .object: return .object
            case .array: return .array
            case .string, .escapedString: return .string
            case .number: return .number
            case .true, .false: return .boolean
            case .null: return .null
            }
        }
    }

    @usableFromInline var kind: Kind
    /// Strings: the offset of the first byte after the opening quote. Objects and arrays: the member or
    /// element count.
    @usableFromInline var start: Int32
    /// Strings: the offset of the closing quote. Objects and arrays: the position just past their last value.
    @usableFromInline var end: Int32
    /// Numbers: the value's bit pattern. Member names: the fingerprint of the unescaped name.
    @usableFromInline var payload: UInt64

    @inlinable
    init(kind: Kind, start: Int32 = 0, end: Int32 = 0, payload: UInt64 = 0) {
        self.kind = kind
        self.start = start
        self.end = end
        self.payload = payload
    }

    /// The fingerprint of ``JSONObject``: the length (mod 256) and the first seven bytes.
    @inlinable
    static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        return fingerprint(base, count: bytes.count, readable: bytes.count)
    }

    /// The fingerprint of the `count` bytes at `base`, where `readable` bytes from `base` may be read
    /// (reading past the name, when there is room, saves a byte loop; those bytes are masked off).
    @inlinable
    static func fingerprint(_ base: UnsafeRawPointer, count: Int, readable: Int) -> UInt64 {
        let length = UInt64(truncatingIfNeeded: count) << 56
        let kept = min(count, 7)
        if readable >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            return length | (word & ((1 << (UInt64(kept) * 8)) &- 1))
        }
        var value: UInt64 = 0
        for index in 0..<kept { value |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (UInt64(index) * 8) }
        return length | value
    }
}

extension JSONValue {
    /// `value` as an `Int` when it has no fractional part and is within ±2^53 (exactly representable).
    @inlinable
    public static func exactInteger(_ value: Double) -> Int? {
        guard value.rounded(.towardZero) == value,
            value >= -9.007_199_254_740_992e15, value <= 9.007_199_254_740_992e15
        else { return nil }
        return Int(value)
    }
}
