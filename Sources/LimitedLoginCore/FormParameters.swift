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
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = parts[0]
            let name = try Self.decode(rawName, parameter: String(rawName.prefix(40)))
            let value = parts.count > 1 ? try Self.decode(parts[1], parameter: name) : ""
            pairs.append((name, value))
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
    public var encoded: String {
        pairs.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
    }

    public static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                output.append(byte)
            case UInt8(ascii: " "):
                output.append(UInt8(ascii: "+"))
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func decode(_ text: Substring, parameter: String) throws(FormParametersError) -> String {
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
                    throw .badPercentEncoding(name: parameter)
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .notUTF8(name: parameter) }
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
