/// The index a ``JSONScanner`` writes, in storage sized before the scan: appending is a store and an
/// increment, with none of an array's uniqueness and capacity checks.
///
/// The storage is sized from the input's length. An input denser than that (more values per byte) does
/// not fit: the entries past the end are counted but not kept, reads of them give a placeholder, and
/// ``overflowed`` tells the caller to discard the scan (its result and any error it threw) and scan again
/// with room for one entry per input byte, which always suffices: every entry starts at a byte of its own
/// (a quote, a bracket, a number's or a literal's first character).
struct JSONTapeBuffer {
    private let storage: UnsafeMutableBufferPointer<JSONTapeEntry>
    /// Entries appended, kept or not.
    private(set) var count = 0

    init(_ storage: UnsafeMutableBufferPointer<JSONTapeEntry>) {
        self.storage = storage
    }

    /// True when some entry did not fit, so this scan must be redone with more room.
    var overflowed: Bool { count > storage.count }

    /// Entries kept (all of them unless ``overflowed``).
    var keptCount: Int { min(count, storage.count) }

    @inline(__always)
    mutating func append(_ entry: JSONTapeEntry) {
        if count < storage.count { storage.initializeElement(at: count, to: entry) }
        count += 1
    }

    @inline(__always)
    subscript(index: Int) -> JSONTapeEntry {
        index < storage.count ? storage[index] : JSONTapeEntry(kind: .null)
    }

    /// Records an object's or array's member count and where it ends.
    @inline(__always)
    mutating func close(_ header: Int, count members: Int32) {
        guard header < storage.count else { return }
        storage[header].start = members
        storage[header].end = Int32(truncatingIfNeeded: count)
    }
}
