/// Why a base64url segment was refused.
public enum Base64URLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A byte outside `A-Z a-z 0-9 - _` at this offset (this covers `+`, `/`, `=` padding and whitespace).
    case invalidCharacter(UInt8, offset: Int)
    /// A length that leaves one lone character, which no byte sequence encodes to.
    case impossibleLength(Int)
    /// The last character carries bits beyond the data; only the canonical encoding is accepted.
    case nonZeroTrailingBits

    public var description: String {
        switch self {
        case .invalidCharacter(let byte, let offset):
            let shown: String
            switch byte {
            case UInt8(ascii: "="): shown = "padding '='"
            case UInt8(ascii: "+"), UInt8(ascii: "/"): shown = "'\(Character(Unicode.Scalar(byte)))' (standard base64, not base64url)"
            case 0x20, 0x09, 0x0A, 0x0D: shown = "whitespace"
            case 0x21...0x7E: shown = "'\(Character(Unicode.Scalar(byte)))'"
            default: shown = "byte 0x\(String(byte, radix: 16))"
            }
            return "\(shown) at offset \(offset) is not allowed in base64url"
        case .impossibleLength(let length):
            return "length \(length) cannot be base64url (one character left over)"
        case .nonZeroTrailingBits:
            return "the last character has non-zero trailing bits (not the canonical encoding)"
        }
    }
}

/// Strict, canonical base64url (RFC 4648 section 5) without padding, as JWS requires (RFC 7515 section 2).
///
/// Decoding accepts exactly one spelling for each byte sequence: no padding, no standard-alphabet characters,
/// no whitespace, and zero bits after the data in the last character. Lenient decoders let one signature be
/// spelled several ways, which breaks any cache or replay check keyed on the token text.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 0xFF marks a byte outside the alphabet.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as unpadded base64url.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
            output.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        switch input.count - index {
        case 1:
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
        case 2:
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes canonical unpadded base64url, refusing every other spelling.
    public static func decode(_ text: String) throws(Base64URLError) -> [UInt8] {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(Base64URLError) in try decode(bytes: buffer) }
        }
        return try result.get()
    }

    /// Decodes canonical unpadded base64url from raw bytes, refusing every other spelling.
    public static func decode(bytes input: UnsafeBufferPointer<UInt8>) throws(Base64URLError) -> [UInt8] {
        let count = input.count
        var output = [UInt8]()
        output.reserveCapacity(count * 3 / 4)
        try decodeTable.withUnsafeBufferPointer { table throws(Base64URLError) in
            var index = 0
            @inline(__always) func value(at position: Int) throws(Base64URLError) -> UInt32 {
                let byte = input[position]
                let decoded = table[Int(byte)]
                if decoded == 0xFF { throw .invalidCharacter(byte, offset: position) }
                return UInt32(decoded)
            }
            while index + 4 <= count {
                let chunk = try value(at: index) << 18 | value(at: index + 1) << 12
                    | value(at: index + 2) << 6 | value(at: index + 3)
                output.append(UInt8(truncatingIfNeeded: chunk >> 16))
                output.append(UInt8(truncatingIfNeeded: chunk >> 8))
                output.append(UInt8(truncatingIfNeeded: chunk))
                index += 4
            }
            switch count - index {
            case 1:
                // Report a bad character before the bad length: it says more about what went wrong.
                _ = try value(at: index)
                throw .impossibleLength(count)
            case 2:
                let first = try value(at: index)
                let last = try value(at: index + 1)
                let chunk = first << 18 | last << 12
                if last & 0x0F != 0 { throw .nonZeroTrailingBits }
                output.append(UInt8(truncatingIfNeeded: chunk >> 16))
            case 3:
                let first = try value(at: index)
                let second = try value(at: index + 1)
                let last = try value(at: index + 2)
                let chunk = first << 18 | second << 12 | last << 6
                if last & 0x03 != 0 { throw .nonZeroTrailingBits }
                output.append(UInt8(truncatingIfNeeded: chunk >> 16))
                output.append(UInt8(truncatingIfNeeded: chunk >> 8))
            default:
                break
            }
        }
        return output
    }
}
