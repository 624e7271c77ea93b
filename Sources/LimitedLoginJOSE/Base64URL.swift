internal import CLimitedLoginVector

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

    /// Four tables, one per position in a quad: each character's six bits already in place among the
    /// three output bytes (stored in stream order in a little-endian word), or bit 31 set when the
    /// character is outside the alphabet. A quad decodes with four lookups, three ORs and one store.
    private static let quadTables: [UInt32] = {
        var tables = [UInt32](repeating: 0x8000_0000, count: 4 * 256)
        for (value, byte) in alphabet.enumerated() {
            for position in 0..<4 {
                let bits = UInt32(value) << UInt32(18 - 6 * position)
                tables[position * 256 + Int(byte)] = (bits >> 16) & 0xFF | (bits >> 8 & 0xFF) << 8 | (bits & 0xFF) << 16
            }
        }
        return tables
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

    /// Which vector instructions decode whole blocks on this CPU ("AVX2", "SSSE3", or "none" when the
    /// scalar decoder does everything), for benchmarks and reports.
    package static var vectorInstructions: String {
        switch ll_base64url_vector_level() {
        case 2: return "AVX2"
        case 1: return "SSSE3"
        default: return "none"
        }
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
        let fullQuads = count / 4
        let remainder = count % 4
        let capacity = fullQuads * 3 + max(0, remainder - 1)
        var failure: Base64URLError?
        let output = decodeTable.withUnsafeBufferPointer { table in
            [UInt8].uninitialized(capacity: capacity) { out, initialized in
                var read = 0
                var written = 0
                // Every full quad: an invalid character shows up as bit 31. While another quad follows, one
                // 4-byte store (its fourth byte is overwritten next); the last quad stores its three bytes.
                if let source = input.baseAddress, let target = out.baseAddress {
                    // Whole blocks of valid characters with vector instructions where the CPU has them (16 or
                    // 32 characters a step); the loop below decodes what is left and finds any bad character.
                    if fullQuads >= 4 {
                        read = ll_base64url_decode_blocks(source, fullQuads * 4, target, capacity)
                        written = read / 4 * 3
                    }
                    quadTables.withUnsafeBufferPointer { tables in
                        let source = UnsafeRawPointer(source)
                        let target = UnsafeMutableRawPointer(target)
                        while read < fullQuads * 4 {
                            let quad = source.loadUnaligned(fromByteOffset: read, as: UInt32.self)
                            let bytes =
                                tables[Int(quad & 0xFF)] | tables[256 + Int(quad >> 8 & 0xFF)]
                                | tables[512 + Int(quad >> 16 & 0xFF)] | tables[768 + Int(quad >> 24)]
                            if bytes & 0x8000_0000 != 0 { break }
                            if read + 4 < fullQuads * 4 {
                                target.storeBytes(of: UInt32(littleEndian: bytes), toByteOffset: written, as: UInt32.self)
                            } else {
                                out[written] = UInt8(truncatingIfNeeded: bytes)
                                out[written + 1] = UInt8(truncatingIfNeeded: bytes >> 8)
                                out[written + 2] = UInt8(truncatingIfNeeded: bytes >> 16)
                            }
                            read += 4
                            written += 3
                        }
                    }
                }
                initialized = written
                if read < fullQuads * 4 {
                    failure = firstInvalidCharacter(in: input, from: read, table: table)
                    return
                }
                switch remainder {
                case 1:
                    // Report a bad character before the bad length: it says more about what went wrong.
                    failure = firstInvalidCharacter(in: input, from: read, table: table) ?? .impossibleLength(count)
                case 2:
                    let a = table[Int(input[read])]
                    let b = table[Int(input[read + 1])]
                    if (a | b) & 0x80 != 0 {
                        failure = firstInvalidCharacter(in: input, from: read, table: table)
                        return
                    }
                    if b & 0x0F != 0 {
                        failure = .nonZeroTrailingBits
                        return
                    }
                    out[written] = a << 2 | b >> 4
                    initialized = written + 1
                case 3:
                    let a = table[Int(input[read])]
                    let b = table[Int(input[read + 1])]
                    let c = table[Int(input[read + 2])]
                    if (a | b | c) & 0x80 != 0 {
                        failure = firstInvalidCharacter(in: input, from: read, table: table)
                        return
                    }
                    if c & 0x03 != 0 {
                        failure = .nonZeroTrailingBits
                        return
                    }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    out[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    initialized = written + 2
                default:
                    break
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    private static func firstInvalidCharacter(
        in input: UnsafeBufferPointer<UInt8>, from start: Int, table: UnsafeBufferPointer<UInt8>
    ) -> Base64URLError? {
        for position in start..<input.count where table[Int(input[position])] == 0xFF {
            return .invalidCharacter(input[position], offset: position)
        }
        return nil
    }
}
