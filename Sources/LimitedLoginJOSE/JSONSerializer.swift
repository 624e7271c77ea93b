/// Writes ``JSONValue`` as compact JSON text with object members sorted by name, so equal values
/// always serialize to equal bytes.
public enum JSONSerializer {
    /// Compact UTF-8 JSON.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(256)
        write(value, into: &output, indent: nil, level: 0)
        return output
    }

    /// Indented JSON text for people to read.
    public static func prettyPrinted(_ value: JSONValue) -> String {
        var output = [UInt8]()
        write(value, into: &output, indent: 2, level: 0)
        return String(decoding: output, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8], indent: Int?, level: Int) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            writeNumber(number, into: &output)
        case .string(let string):
            writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(into: &output, indent: indent, level: level + 1)
                write(element, into: &output, indent: indent, level: level + 1)
            }
            if !elements.isEmpty { newline(into: &output, indent: indent, level: level) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(into: &output, indent: indent, level: level + 1)
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                write(member.value, into: &output, indent: indent, level: level + 1)
            }
            if !members.isEmpty { newline(into: &output, indent: indent, level: level) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into output: inout [UInt8], indent: Int?, level: Int) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    private static func writeNumber(_ number: Double, into output: inout [UInt8]) {
        guard number.isFinite else {
            // JSON has no spelling for NaN or infinity; null is what JavaScript writes.
            output.append(contentsOf: "null".utf8)
            return
        }
        if number.rounded(.towardZero) == number, abs(number) < 9.007_199_254_740_992e15 {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
