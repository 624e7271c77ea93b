import LimitedLoginJOSE

/// A few strings (the allowed issuers, the app IDs), kept as their UTF-8 bytes in one buffer, so that a
/// claim is compared with each of them, byte for byte, without a reference count per string.
///
/// Made once with the verifier; a claim's bytes are looked up where they lie in the payload.
struct ExactByteStrings: Sendable {
    /// Every string's bytes, one after another.
    private let bytes: [UInt8]
    /// Where each string begins in `bytes` and how long it is, in the order given.
    private let spans: [(start: Int, count: Int)]

    init(_ strings: some Sequence<String>) {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for string in strings {
            spans.append((bytes.count, string.utf8.count))
            bytes.append(contentsOf: string.utf8)
        }
        self.bytes = bytes
        self.spans = spans
    }

    /// The position, in the order given, of the string whose bytes are exactly `candidate`; nil when none is.
    func firstIndex(of candidate: UnsafeRawBufferPointer) -> Int? {
        bytes.withUnsafeBytes { all in
            spans.withUnsafeBufferPointer { spans in
                for (index, span) in spans.enumerated() where span.count == candidate.count {
                    if JSONDocument.bytesEqual(all, at: span.start, candidate) { return index }
                }
                return nil
            }
        }
    }
}
