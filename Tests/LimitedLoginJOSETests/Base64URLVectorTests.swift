import CLimitedLoginVector
import Testing

@testable import LimitedLoginJOSE

/// The vector decoder (`CLimitedLoginVector`) only ever decodes whole blocks of valid characters; the Swift
/// decoder does the rest and reports every error. These tests hold each implementation the CPU has to that.
@Suite("Base64URL: the vector blocks (SSSE3, AVX2) agree with the scalar decoder")
struct Base64URLVectorTests {
    static let alphabetInOrder = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let alphabet = Set(alphabetInOrder)
    /// 96 characters (72 bytes) of valid base64url: 6 SSSE3 blocks, 3 AVX2 blocks.
    static let valid = Array(Base64URL.encode((0..<72).map { UInt8(truncatingIfNeeded: $0 &* 113 &+ 7) }).utf8)

    /// Runs one implementation on `text` into a buffer of `capacity` bytes followed by 16 guard bytes.
    static func blocks(level: Int32, _ text: [UInt8], capacity: Int) -> (consumed: Int, output: [UInt8]) {
        var output = [UInt8](repeating: 0xA5, count: capacity + 16)
        let consumed = text.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                ll_base64url_decode_blocks_at_level(level, input.baseAddress, input.count, out.baseAddress, capacity)
            }
        }
        return (consumed, output)
    }

    @Test(
        "every byte value at every position: valid blocks decode as the scalar decoder does, decoding stops at the first bad block, nothing is written past the capacity"
    )
    func everyByteAtEveryPosition() throws {
        var mismatches: [String] = []
        for level in 0...ll_base64url_vector_level() {
            for position in Self.valid.indices {
                for byte in UInt8.min...UInt8.max {
                    var text = Self.valid
                    text[position] = byte
                    let (consumed, output) = Self.blocks(level: level, text, capacity: 72)
                    let firstBad = text.firstIndex { !Self.alphabet.contains($0) } ?? text.count
                    let scalar = try Base64URL.decode(String(decoding: text[0..<consumed], as: UTF8.self))
                    if consumed % 16 != 0 || consumed > firstBad / 16 * 16 {
                        mismatches.append("level \(level), byte \(byte) at \(position): consumed \(consumed), first bad byte at \(firstBad)")
                    } else if Array(output[0..<scalar.count]) != scalar {
                        mismatches.append("level \(level), byte \(byte) at \(position): decoded differently")
                    } else if output[72...].contains(where: { $0 != 0xA5 }) {
                        mismatches.append("level \(level), byte \(byte) at \(position): wrote past the capacity")
                    }
                }
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first of them: \(mismatches.prefix(5))")
    }

    @Test("on a CPU with SSSE3 or AVX2 the vector code does the work: 80 of 96 valid characters (room for 16-byte stores)")
    func vectorCodeRuns() {
        let level = ll_base64url_vector_level()
        for each in 1...max(1, level) where level > 0 {
            #expect(Self.blocks(level: each, Self.valid, capacity: 72).consumed == 80, "level \(each)")
        }
        #expect(Self.blocks(level: 0, Self.valid, capacity: 72).consumed == 0)
        #expect(Base64URL.vectorInstructions == ["none", "SSSE3", "AVX2"][Int(level)])
        // Too little room for one 16-byte store, or fewer than 16 characters: nothing.
        #expect(Self.blocks(level: level, Self.valid, capacity: 15).consumed == 0)
        #expect(Self.blocks(level: level, Array(Self.valid[0..<15]), capacity: 72).consumed == 0)
    }

    @Test("Base64URL.decode: every byte value at every offset of a 100-character segment gives the reference's bytes or its exact error")
    func decodeEveryByteAtEveryOffset() {
        let valid = Array(Base64URL.encode((0..<75).map { UInt8(truncatingIfNeeded: $0 &* 59 &+ 3) }).utf8)
        var mismatches: [String] = []
        for offset in valid.indices {
            for byte in UInt8.min...UInt8.max {
                var text = valid
                text[offset] = byte
                let decoded = Result { () throws(Base64URLError) in
                    try text.withUnsafeBufferPointer { bytes throws(Base64URLError) in try Base64URL.decode(bytes: bytes) }
                }
                let expected: Result<[UInt8], Base64URLError>
                if Self.alphabet.contains(byte) {
                    expected = .success(Self.referenceDecode(text))
                } else {
                    expected = .failure(.invalidCharacter(byte, offset: offset))
                }
                if decoded != expected { mismatches.append("byte \(byte) at \(offset): \(decoded)") }
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first of them: \(mismatches.prefix(5))")
    }

    @Test("the specialized array allocation keeps exactly the elements written")
    func uninitializedArray() {
        let some = [UInt8].uninitialized(capacity: 40) { buffer, initialized in
            for index in 0..<25 { buffer[index] = UInt8(index) }
            initialized = 25
        }
        #expect(some == (0..<25).map { UInt8($0) })
        #expect([Int].uninitialized(capacity: 0) { _, initialized in initialized = 0 }.isEmpty)
    }

    /// Whole quads of valid characters, one character at a time.
    static func referenceDecode(_ text: [UInt8]) -> [UInt8] {
        let alphabet = alphabetInOrder
        var output: [UInt8] = []
        for quad in stride(from: 0, to: text.count, by: 4) {
            let bits = text[quad..<quad + 4].reduce(UInt32(0)) { $0 << 6 | UInt32(alphabet.firstIndex(of: $1) ?? 0) }
            output += [UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
        }
        return output
    }
}
