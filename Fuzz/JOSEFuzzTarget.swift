// A libFuzzer target for the parts of LimitedLoginJOSE that read untrusted bytes.
// Built and run by scripts/fuzz (not by SwiftPM): the pure-Swift sources are compiled with it directly.
//
// Properties checked on every input, besides "never traps":
// - strict JSON: whatever parses serializes to text that parses to an equal value;
// - base64url is canonical: whatever decodes re-encodes to exactly the same text;
// - a compact JWS is split and decoded without trapping.

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

    _ = try? CompactJWS(parsing: text)
    return 0
}
