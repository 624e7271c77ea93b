import LimitedLoginJOSE
import Synchronization

/// The headers of tokens that passed every check, keyed by their exact segment text.
///
/// Every token signed with one key carries the same header, so a server sees a handful of distinct
/// header segments. Decoding, validating and checking one costs more than comparing its bytes with a
/// remembered one; the result for equal bytes is always the same (the checks depend only on the bytes
/// and on the verifier's configuration, and each verifier has its own cache). Only the headers of tokens
/// that verified are remembered, so nobody without a signing key can fill or churn the cache, and it
/// is bounded anyway.
final class ValidatedHeaderCache: Sendable {
    /// A class: a lookup hands out one reference, not a copy of each of its parts.
    final class Entry: Sendable {
        let segment: [UInt8]
        let document: JSONDocument
        let keyID: String

        init(segment: [UInt8], document: JSONDocument, keyID: String) {
            self.segment = segment
            self.document = document
            self.keyID = keyID
        }
    }

    /// More distinct headers than this (keys in use at once) are not expected; the oldest is dropped.
    static let capacity = 8

    private let entries = Mutex<[Entry]>([])

    init() {}

    /// The remembered header whose segment is exactly `segment`.
    func entry(for segment: UnsafeBufferPointer<UInt8>) -> Entry? {
        entries.withLock { entries in
            for entry in entries where entry.segment.count == segment.count {
                let same = entry.segment.withUnsafeBytes { remembered in
                    JSONDocument.bytesEqual(remembered, at: 0, UnsafeRawBufferPointer(segment))
                }
                if same { return entry }
            }
            return nil
        }
    }

    /// Remembers the header of a token that verified.
    func remember(_ entry: Entry) {
        entries.withLock { entries in
            guard !entries.contains(where: { $0.segment == entry.segment }) else { return }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(entry)
        }
    }

    /// How many headers are remembered, for tests.
    var count: Int { entries.withLock { $0.count } }
}
