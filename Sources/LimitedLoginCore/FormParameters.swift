import LimitedLoginJOSE

/// Why a query string or form body cannot be read.
public enum FormParametersError: Error, Equatable, Sendable, CustomStringConvertible {
    case badPercentEncoding(name: String)
    case notUTF8(name: String)
    case repeated(String)

    public var description: String {
        switch self {
        case .badPercentEncoding(let name): return "the parameter \(name) has a malformed percent-encoding"
        case .notUTF8(let name): return "the parameter \(name) is not valid UTF-8"
        case .repeated(let name): return "the parameter \(name) is given more than once"
        }
    }
}

/// The parameters of a query string or an `application/x-www-form-urlencoded` body, in order.
///
/// Decoded strictly: a malformed `%` escape or invalid UTF-8 is an error rather than being passed on
/// as something else. Lookups of a single value refuse a repeated name, so that a request cannot carry
/// two redirect URIs or two nonces and have different parts of the code read different ones.
public struct FormParameters: Sendable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    public init(encoded text: Substring) throws(FormParametersError) {
        pairs = []
        // Split on the bytes `&` and `=` (ASCII, so every piece is whole UTF-8): splitting the Substring
        // by Character would run grapheme breaking over every byte of a query read on each dialog request.
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            var end = start
            var equals: Substring.UTF8View.Index?
            while end < utf8.endIndex, utf8[end] != UInt8(ascii: "&") {
                if equals == nil, utf8[end] == UInt8(ascii: "=") { equals = end }
                utf8.formIndex(after: &end)
            }
            if end > start {
                let rawName = Substring(utf8[start..<(equals ?? end)])
                let name = try Self.decode(rawName) { String(rawName.prefix(40)) }
                let value =
                    try equals.map { equals throws(FormParametersError) in
                        try Self.decode(Substring(utf8[utf8.index(after: equals)..<end])) { name }
                    } ?? ""
                pairs.append((name, value))
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
    }

    public init(encoded text: String) throws(FormParametersError) {
        try self.init(encoded: Substring(text))
    }

    /// The value of `name`; nil when absent; an error when repeated.
    public func single(_ name: String) throws(FormParametersError) -> String? {
        var found: String?
        for pair in pairs where pair.name.hasSameBytes(as: name) {
            if found != nil { throw .repeated(name) }
            found = pair.value
        }
        return found
    }

    /// Every value of `name`, in order.
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name.hasSameBytes(as: name) }.map(\.value)
    }

    public mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// The parameters encoded again as a form: `+` for a space, `%XX` for every other byte outside the
    /// unreserved set.
    ///
    /// Written in one pass into a string of the exact size (a redirect carrying an ID token is about
    /// 1.5 KB, made on every login).
    public var encoded: String {
        var count = max(0, pairs.count * 2 - 1)
        for pair in pairs { count += Self.encodedCount(pair.name) + Self.encodedCount(pair.value) }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var position = 0
            for (index, pair) in pairs.enumerated() {
                if index > 0 {
                    buffer[position] = UInt8(ascii: "&")
                    position += 1
                }
                Self.write(pair.name, into: buffer, at: &position)
                buffer[position] = UInt8(ascii: "=")
                position += 1
                Self.write(pair.value, into: buffer, at: &position)
            }
            return position
        }
    }

    public static func encode(_ text: String) -> String {
        let count = encodedCount(text)
        // Most values (IDs, tokens, codes) need no escape at all.
        if count == text.utf8.count, !text.utf8.contains(UInt8(ascii: " ")) { return text }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var position = 0
            write(text, into: buffer, at: &position)
            return position
        }
    }

    /// True for the bytes written as they are: letters, digits, `-`, `.`, `_`, `~`.
    @inline(__always)
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The length of `text` encoded.
    private static func encodedCount(_ text: String) -> Int {
        // Over the string's own storage when it has one (a native string does): iterating `utf8` a byte at
        // a time was half of this on a 1 KB ID token.
        if let count = text.utf8.withContiguousStorageIfAvailable({ encodedCount(of: $0) }) { return count }
        return encodedCount(of: text.utf8)
    }

    private static func encodedCount<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> Int {
        var escaped = 0
        var count = 0
        for byte in bytes {
            count += 1
            if !isUnreserved(byte), byte != UInt8(ascii: " ") { escaped += 1 }
        }
        return count + 2 * escaped
    }

    /// Writes `text` encoded at `position`, which it advances; the buffer has room (``encodedCount(_:)``).
    private static func write(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in write(bytes, into: buffer, at: &position) }
        if done == nil { write(text.utf8, into: buffer, at: &position) }
    }

    private static func write<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        let hex: StaticString = "0123456789ABCDEF"
        hex.withUTF8Buffer { hex in
            for byte in bytes {
                if isUnreserved(byte) {
                    buffer[position] = byte
                    position += 1
                } else if byte == UInt8(ascii: " ") {
                    buffer[position] = UInt8(ascii: "+")
                    position += 1
                } else {
                    buffer[position] = UInt8(ascii: "%")
                    buffer[position + 1] = hex[Int(byte >> 4)]
                    buffer[position + 2] = hex[Int(byte & 0xF)]
                    position += 3
                }
            }
        }
    }

    /// `text` decoded; `parameter` names it in an error (made only then).
    private static func decode(_ text: Substring, parameter: () -> String) throws(FormParametersError) -> String {
        // Most values need no decoding; a Substring of a String is valid UTF-8 already.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .badPercentEncoding(name: parameter())
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .notUTF8(name: parameter()) }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
