/// A fixed set of member names (at most 32), prepared so that one pass over an object of a
/// ``JSONDocument`` finds all of them.
///
/// Looking up n names one by one walks the object n times; ``JSONDocument/members(of:named:)`` walks it
/// once and places each member whose name is in the set (matched byte for byte) in its slot.
public struct JSONMemberNames: Sendable {
    /// The names, in the order their slots have.
    public let names: [StaticString]
    /// Open addressing by fingerprint, in a table four times larger than the most names it holds, so
    /// that a lookup almost always ends at its first bucket: each bucket holds a name's position (or -1)
    /// and that name's fingerprint and length.
    private let buckets: [Bucket]

    /// `bytes` points into a `StaticString`'s storage, which lives as long as the program. `tail` is the
    /// name's last eight bytes when it has 8 to 15 (with the first seven, in the fingerprint, they are the
    /// whole name), so that such a name is matched by one comparison of words, not byte by byte.
    private struct Bucket: @unchecked Sendable {
        var position: Int32 = -1
        var count: Int32 = 0
        var fingerprint: UInt64 = 0
        var tail: UInt64 = 0
        var bytes: UnsafeRawPointer?
    }

    /// The largest number of names in one set.
    public static let capacity = 32
    private static let bucketCount = 128

    /// Prepares `names`; only the first ``capacity`` are kept.
    public init(_ names: [StaticString]) {
        let names = Array(names.prefix(Self.capacity))
        self.names = names
        var buckets = [Bucket](repeating: Bucket(), count: Self.bucketCount)
        for (position, name) in names.enumerated() {
            let bytes = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            let fingerprint = JSONTapeEntry.fingerprint(bytes)
            var bucket = Self.bucket(of: fingerprint)
            while buckets[bucket].position >= 0 { bucket = (bucket + 1) & (Self.bucketCount - 1) }
            let tail = (8...15).contains(bytes.count) ? bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self) : 0
            buckets[bucket] = Bucket(
                position: Int32(position), count: Int32(bytes.count), fingerprint: fingerprint, tail: tail, bytes: bytes.baseAddress
            )
        }
        self.buckets = buckets
    }

    @inline(__always)
    private static func bucket(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    /// Places each member of the object at `object` whose name is in this set; the whole walk reads the
    /// document's storage in place.
    fileprivate func place(membersOf object: Int, in document: JSONDocument, into slots: inout JSONMemberSlots) {
        document.tape.withUnsafeBufferPointer { tape in
            document.bytes.withUnsafeBytes { text in
                buckets.withUnsafeBufferPointer { buckets in
                    guard object < tape.count, tape[object].kind == .object else { return }
                    let end = Int(tape[object].end)
                    var index = object + 1
                    while index < end {
                        if let position = position(of: tape[index], buckets, text) {
                            slots.set(position, index + 1)
                        }
                        let value = tape[index + 1]
                        index = value.kind.isContainer ? Int(value.end) : index + 2
                    }
                }
            }
        }
    }

    /// The position in this set of the member name `name`, or nil.
    @inline(__always)
    private func position(of name: JSONTapeEntry, _ buckets: UnsafeBufferPointer<Bucket>, _ text: UnsafeRawBufferPointer) -> Int? {
        var bucket = Self.bucket(of: name.payload)
        while true {
            let candidate = buckets[bucket]
            if candidate.position < 0 { return nil }
            if candidate.fingerprint == name.payload {
                let count = Int(candidate.count)
                // A fingerprint holds the length and the first seven bytes: for a plain name of at most seven
                // bytes and the same length, equal fingerprints are equal names; up to fifteen, equal last
                // eight bytes too.
                if name.kind == .string, Int(name.end - name.start) == count {
                    if count <= 7 { return Int(candidate.position) }
                    if count <= 15 {
                        let last = text.loadUnaligned(fromByteOffset: Int(name.end) - 8, as: UInt64.self)
                        if last == candidate.tail { return Int(candidate.position) }
                        bucket = (bucket + 1) & (Self.bucketCount - 1)
                        continue
                    }
                }
                let bytes = UnsafeRawBufferPointer(start: candidate.bytes, count: count)
                if JSONDocument.stringEquals(name, in: text, bytes) { return Int(candidate.position) }
            }
            bucket = (bucket + 1) & (Self.bucketCount - 1)
        }
    }
}

/// Where each name of a ``JSONMemberNames`` set is in one object: the value's position, or nil.
public struct JSONMemberSlots: Sendable {
    private var slots = SIMD32<Int32>(repeating: -1)

    /// Every slot empty.
    public init() {}

    /// The value of the set's `position`th name, or nil when the object has no such member.
    public subscript(position: Int) -> Int? {
        let slot = slots[position]
        return slot < 0 ? nil : Int(slot)
    }

    fileprivate mutating func set(_ position: Int, _ value: Int) {
        slots[position] = Int32(truncatingIfNeeded: value)
    }
}

extension JSONDocument {
    /// The members of the object at `object` whose names are in `names`, found in one pass (empty
    /// slots when `object` is not an object).
    public func members(of object: Int, named names: JSONMemberNames) -> JSONMemberSlots {
        var slots = JSONMemberSlots()
        names.place(membersOf: object, in: self, into: &slots)
        return slots
    }
}
