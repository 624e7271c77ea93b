// A libFuzzer target for the parts of LimitedLoginJOSE that read untrusted bytes.
// Built and run by scripts/fuzz (not by SwiftPM): the pure-Swift sources are compiled with it directly.
//
// Properties checked on every input, besides "never traps":
// - strict JSON: whatever parses serializes to text that parses to an equal value;
// - base64url is canonical: whatever decodes re-encodes to exactly the same text;
// - base64url decoding agrees with a plain one-character-at-a-time reference: same bytes, or the same error;
// - a compact JWS is split and decoded without trapping; its signing input read in place equals its copy,
//   and offering its own header back gives the same result.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))

    let parser = StrictJSONParser(maximumSize: 1 << 20, maximumDepth: 32)
    if let value = try? parser.parse(bytes) {
        let text = JSONSerializer.serialize(value)
        guard let again = try? StrictJSONParser(maximumSize: 1 << 22, maximumDepth: 32).parse(text) else {
            fatalError("serialized JSON does not parse: \(String(decoding: text, as: UTF8.self))")
        }
        precondition(again == value, "JSON round trip changed the value")
    }

    let text = String(decoding: bytes, as: UTF8.self)
    if let decoded = try? Base64URL.decode(text) {
        precondition(Base64URL.encode(decoded) == text, "base64url accepted a non-canonical spelling: \(text)")
    }

    let expected = referenceBase64URL(bytes)
    let actual = Result { () throws(Base64URLError) in try bytes.withUnsafeBufferPointer { bytes throws(Base64URLError) in try Base64URL.decode(bytes: bytes) } }
    switch (expected, actual) {
    case (.success(let left), .success(let right)): precondition(left == right, "base64url decoded differently from the reference")
    case (.failure(let left), .failure(let right)): precondition(left == right, "base64url error \(right), reference \(left)")
    default: fatalError("base64url: reference \(expected), decoder \(actual)")
    }

    if let jws = try? CompactJWS(parsing: text) {
        precondition(jws.withSigningInput { Array($0) } == Array(text.utf8.prefix(jws.signingInput.count)), "signing input")
        let again = try? CompactJWS(parsing: text) { _ in jws.headerDocument }
        precondition(again?.payloadBytes == jws.payloadBytes && again?.signature == jws.signature, "reused header changed the parse")
    }
    return 0
}

/// The rules of ``Base64URL/decode(bytes:)``, one character at a time.
func referenceBase64URL(_ bytes: [UInt8]) -> Result<[UInt8], Base64URLError> {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var values = [UInt32]()
    for (offset, byte) in bytes.enumerated() {
        guard let value = alphabet.firstIndex(of: byte) else { return .failure(.invalidCharacter(byte, offset: offset)) }
        values.append(UInt32(value))
    }
    if values.count % 4 == 1 { return .failure(.impossibleLength(values.count)) }
    var output = [UInt8]()
    var bits: UInt32 = 0, count = 0
    for value in values {
        bits = bits << 6 | value
        count += 6
        if count >= 8 {
            count -= 8
            output.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
        }
    }
    if bits & ((1 << UInt32(count)) - 1) != 0 { return .failure(.nonZeroTrailingBits) }
    return .success(output)
}
