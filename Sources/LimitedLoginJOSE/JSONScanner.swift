/// The one validating pass behind ``JSONDocument`` (and so behind ``StrictJSONParser``): reads the text
/// byte by byte, refuses everything the strict rules refuse, and records each value in the index.
struct JSONScanner {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    var tape: JSONTapeBuffer
    /// Unescaped names, reused across the document.
    var scratch: [UInt8] = []

    /// Objects past this many members also keep their names in a set, so duplicate checks stay linear.
    static let linearNameLimit = 32

    private init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, tape: JSONTapeBuffer) {
        self.input = input
        self.maximumDepth = maximumDepth
        self.tape = tape
    }

    /// Validates `input` as one JSON value and returns its index.
    static func index(_ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(JSONParseError) -> [JSONTapeEntry] {
        // Room for an entry per 8 bytes is plenty for tokens and most documents; a denser input is scanned
        // again with room for an entry per byte (see JSONTapeBuffer).
        if let tape = try index(input, maximumDepth: maximumDepth, capacity: input.count / 8 + 8) { return tape }
        return try index(input, maximumDepth: maximumDepth, capacity: input.count + 1) ?? []
    }

    /// The index, or nil when it did not fit in `capacity` entries.
    private static func index(
        _ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, capacity: Int
    ) throws(JSONParseError) -> [JSONTapeEntry]? {
        var failure: JSONParseError?
        var overflowed = false
        let tape = [JSONTapeEntry].uninitialized(capacity: capacity) { storage, initialized in
            var scanner = JSONScanner(input: input, maximumDepth: maximumDepth, tape: JSONTapeBuffer(storage))
            do throws(JSONParseError) { try scanner.scanDocument() } catch { failure = error }
            overflowed = scanner.tape.overflowed
            initialized = scanner.tape.keptCount
        }
        if overflowed { return nil }
        if let failure { throw failure }
        return tape
    }

    mutating func scanDocument() throws(JSONParseError) {
        skipWhitespace()
        try scanValue(depth: 0)
        skipWhitespace()
        if position < input.count { throw .trailingContent(offset: position) }
    }

    /// Skips whitespace; tokens and other compact JSON have none, so the common case is one comparison.
    @inline(__always)
    mutating func skipWhitespace() {
        guard position < input.count, input[position] <= 0x20 else { return }
        skipWhitespaceBytes()
    }

    mutating func skipWhitespaceBytes() {
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

    mutating func scanValue(depth: Int) throws(JSONParseError) {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "\""): try scanString(isName: false)
        case UInt8(ascii: "{"): try scanObject(depth: depth + 1)
        case UInt8(ascii: "["): try scanArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let value = try scanNumber()
            tape.append(JSONTapeEntry(kind: .number, payload: value.bitPattern))
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            tape.append(JSONTapeEntry(kind: .true))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            tape.append(JSONTapeEntry(kind: .false))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            tape.append(JSONTapeEntry(kind: .null))
        default:
            let offset = position
            if byte >= 0x80 { position = try Self.validateUTF8Sequence(input, at: position) }
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

    // MARK: Objects and arrays

    mutating func scanObject(depth: Int) throws(JSONParseError) {
        guard let header = try open(.object, closing: UInt8(ascii: "}"), depth: depth) else { return }
        var count: Int32 = 0
        // A 128-bit summary of the names so far: most names differ in it, and only a name whose bit is
        // already set is compared with the earlier names.
        var seen: (low: UInt64, high: UInt64) = (0, 0)
        var names: Set<[UInt8]>? = nil
        while true {
            skipWhitespace()
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(byte, offset: position) }
            let name = tape.count
            try scanString(isName: true)
            if names != nil {
                if names?.insert(nameBytes(at: name)).inserted == false { throw duplicate(name) }
            } else {
                let hash = (tape[name].payload &* 0x9E37_79B9_7F4A_7C15) >> 57
                let bit: UInt64 = 1 << (hash & 63)
                if hash < 64 {
                    if seen.low & bit != 0 { try checkUnique(name, in: header) }
                    seen.low |= bit
                } else {
                    if seen.high & bit != 0 { try checkUnique(name, in: header) }
                    seen.high |= bit
                }
                if count + 1 > Self.linearNameLimit {
                    var set: Set<[UInt8]> = [nameBytes(at: name)]
                    var index = header + 1
                    while index < name {
                        set.insert(nameBytes(at: index))
                        index = next(after: index + 1)
                    }
                    names = set
                }
            }
            skipWhitespace()
            let colon = try peek()
            guard colon == UInt8(ascii: ":") else { throw .unexpectedByte(colon, offset: position) }
            position += 1
            skipWhitespace()
            try scanValue(depth: depth)
            count += 1
            if try isClosed(by: UInt8(ascii: "}")) { return close(header, count: count) }
        }
    }

    mutating func scanArray(depth: Int) throws(JSONParseError) {
        guard let header = try open(.array, closing: UInt8(ascii: "]"), depth: depth) else { return }
        var count: Int32 = 0
        while true {
            skipWhitespace()
            try scanValue(depth: depth)
            count += 1
            if try isClosed(by: UInt8(ascii: "]")) { return close(header, count: count) }
        }
    }

    /// Opens an object or array at its first byte and returns its index entry's position; nil when it is
    /// empty (then it is already closed).
    private mutating func open(_ kind: JSONTapeEntry.Kind, closing: UInt8, depth: Int) throws(JSONParseError) -> Int? {
        if depth > maximumDepth { throw .nestingTooDeep(limit: maximumDepth) }
        let header = tape.count
        tape.append(JSONTapeEntry(kind: kind))
        position += 1
        skipWhitespace()
        guard try peek() != closing else {
            position += 1
            close(header, count: 0)
            return nil
        }
        return header
    }

    /// Reads the `,` or the closing byte after a member or element: true when it closes the container.
    @inline(__always)
    private mutating func isClosed(by closing: UInt8) throws(JSONParseError) -> Bool {
        // Compact JSON: the separator follows the value at once.
        if position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: ",") {
                position += 1
                return false
            }
            if byte == closing {
                position += 1
                return true
            }
        }
        skipWhitespace()
        let separator = try peek()
        position += 1
        if separator == UInt8(ascii: ",") { return false }
        if separator == closing { return true }
        throw .unexpectedByte(separator, offset: position - 1)
    }

    private mutating func close(_ header: Int, count: Int32) {
        tape.close(header, count: count)
    }

    private func next(after index: Int) -> Int {
        let entry = tape[index]
        return entry.kind.isContainer ? Int(entry.end) : index + 1
    }

    /// Compares the name at `name` with every earlier name of the object at `header`.
    private func checkUnique(_ name: Int, in header: Int) throws(JSONParseError) {
        let fingerprint = tape[name].payload
        var index = header + 1
        while index < name {
            if tape[index].payload == fingerprint, sameName(index, name) { throw duplicate(name) }
            index = next(after: index + 1)
        }
    }

    private func sameName(_ left: Int, _ right: Int) -> Bool {
        let a = tape[left]
        let b = tape[right]
        if a.kind == .string, b.kind == .string {
            guard a.end - a.start == b.end - b.start else { return false }
            let base = UnsafeRawBufferPointer(input)
            return JSONDocument.bytesEqual(
                base, at: Int(a.start), UnsafeRawBufferPointer(rebasing: base[Int(b.start)..<Int(b.end)])
            )
        }
        return nameBytes(at: left) == nameBytes(at: right)
    }

    /// A name's bytes after unescaping.
    private func nameBytes(at index: Int) -> [UInt8] {
        let entry = tape[index]
        if entry.kind == .string { return Array(input[Int(entry.start)..<Int(entry.end)]) }
        var bytes = [UInt8]()
        // Validated when it was scanned.
        _ = try? Self.unescapeString(input, from: Int(entry.start), into: &bytes)
        return bytes
    }

    private func duplicate(_ name: Int) -> JSONParseError {
        .duplicateMemberName(String(decoding: nameBytes(at: name), as: UTF8.self))
    }

    // MARK: Strings

    /// Scans a string from its opening quote; leaves the position after the closing quote.
    @inline(__always)
    mutating func scanString(isName: Bool) throws(JSONParseError) {
        position += 1
        let start = position
        let count = input.count
        while true {
            // Plain bytes (no quote, backslash, control byte or non-ASCII byte) eight at a time, straight to
            // the first byte that is not plain.
            if let base = input.baseAddress {
                while position + 8 <= count {
                    let special = Self.specialBytes(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                    if special != 0 {
                        position += special.trailingZeroBitCount >> 3
                        break
                    }
                    position += 8
                }
            }
            guard position < count else { throw .unexpectedEnd }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let fingerprint =
                    isName
                    ? JSONTapeEntry.fingerprint(UnsafeRawPointer(input.baseAddress! + start), count: position - start, readable: count - start)
                    : 0
                tape.append(JSONTapeEntry(kind: .string, start: Int32(start), end: Int32(position), payload: fingerprint))
                position += 1
                return
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw .unescapedControlCharacter(offset: position) }
            if byte >= 0x80 { position = try Self.validateUTF8Sequence(input, at: position) } else { position += 1 }
        }
        // Escapes: unescape from the start (the plain prefix is read again) to validate and fingerprint.
        scratch.removeAll(keepingCapacity: true)
        let end = try Self.unescapeString(input, from: start, into: &scratch)
        let fingerprint = isName ? scratch.withUnsafeBytes { JSONTapeEntry.fingerprint($0) } : 0
        tape.append(JSONTapeEntry(kind: .escapedString, start: Int32(start), end: Int32(end), payload: fingerprint))
        position = end + 1
    }

    /// The bytes of `word` (in memory order) that are `"`, `\`, below 0x20 or above 0x7F, flagged by their
    /// high bits. The lowest flag is always exact (flags above it may be false), so the first byte that
    /// is not plain is at `trailingZeroBitCount / 8`; zero when all eight are plain.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let word = UInt64(littleEndian: word)
        let quote = hasZero(word ^ (ones &* 0x22))
        let backslash = hasZero(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return quote | backslash | control | (word & highs)
    }

    /// Unescapes and validates a string's content from `start` (just after the opening quote) into
    /// `bytes`; returns the offset of the closing quote.
    static func unescapeString(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, into bytes: inout [UInt8]
    ) throws(JSONParseError) -> Int {
        var position = start
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                return position
            case UInt8(ascii: "\\"):
                try unescape(input, at: &position, into: &bytes)
            case 0x00..<0x20:
                throw .unescapedControlCharacter(offset: position)
            case 0x80...:
                let sequenceStart = position
                position = try validateUTF8Sequence(input, at: position)
                bytes.append(contentsOf: input[sequenceStart..<position])
            default:
                bytes.append(byte)
                position += 1
            }
        }
        throw .unexpectedEnd
    }

    private static func unescape(
        _ input: UnsafeBufferPointer<UInt8>, at position: inout Int, into bytes: inout [UInt8]
    ) throws(JSONParseError) {
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
            var scalar = try readHex4(input, at: &position, escapeStart: escapeStart)
            if (0xDC00...0xDFFF).contains(scalar) { throw .loneSurrogate(offset: escapeStart) }
            if (0xD800...0xDBFF).contains(scalar) {
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"),
                    input[position + 1] == UInt8(ascii: "u")
                else { throw .loneSurrogate(offset: escapeStart) }
                position += 2
                let low = try readHex4(input, at: &position, escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate(offset: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicodeScalar = Unicode.Scalar(scalar) else { throw .invalidEscape(offset: escapeStart) }
            bytes.append(contentsOf: String(Character(unicodeScalar)).utf8)
        default:
            throw .invalidEscape(offset: escapeStart)
        }
    }

    private static func readHex4(
        _ input: UnsafeBufferPointer<UInt8>, at position: inout Int, escapeStart: Int
    ) throws(JSONParseError) -> UInt32 {
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
    /// (Unicode 15, table 3-7): no overlong forms, no surrogates, nothing above U+10FFFF. Returns the
    /// offset just past it.
    static func validateUTF8Sequence(_ input: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONParseError) -> Int {
        let lead = input[start]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: throw .invalidUTF8(offset: start)
        }
        guard start + length <= input.count else { throw .invalidUTF8(offset: start) }
        guard secondRange.contains(input[start + 1]) else { throw .invalidUTF8(offset: start) }
        var index = start + 2
        while index < start + length {
            guard (0x80...0xBF).contains(input[index]) else { throw .invalidUTF8(offset: start) }
            index += 1
        }
        return start + length
    }

    // MARK: Numbers

    mutating func scanNumber() throws(JSONParseError) -> Double {
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
}
