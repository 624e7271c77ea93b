/// A fixed set of member names (at most 32), prepared so that one pass over an object of a
/// ``JSONDocument`` finds all of them.
///
/// Looking up n names one by one walks the object n times; ``JSONDocument/members(of:named:)`` walks it
/// once and places each member whose name is in the set (matched byte for byte) in its slot.
public struct JSONMemberNames: Sendable {
    /// The names, in the order their slots have.
    public let names: [StaticString]
    private let fingerprints: [UInt64]
    /// Open addressing by fingerprint: each bucket holds a name's position, or -1.
    private let buckets: [Int8]

    /// The largest number of names in one set.
    public static let capacity = 32

    /// Prepares `names`; only the first ``capacity`` are kept.
    public init(_ names: [StaticString]) {
        let names = Array(names.prefix(Self.capacity))
        self.names = names
        let fingerprints = names.map { JSONTapeEntry.fingerprint(UnsafeRawBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount)) }
        self.fingerprints = fingerprints
        var buckets = [Int8](repeating: -1, count: 64)
        for (position, fingerprint) in fingerprints.enumerated() {
            var bucket = Self.bucket(of: fingerprint)
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & 63 }
            buckets[bucket] = Int8(position)
        }
        self.buckets = buckets
    }

    @inline(__always)
    private static func bucket(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// Places each member of the object at `object` whose name is in this set; the whole walk reads the
    /// document's storage in place.
    fileprivate func place(membersOf object: Int, in document: JSONDocument, into slots: inout JSONMemberSlots) {
        document.tape.withUnsafeBufferPointer { tape in
            document.bytes.withUnsafeBytes { text in
                fingerprints.withUnsafeBufferPointer { fingerprints in
                    buckets.withUnsafeBufferPointer { buckets in
                        guard object < tape.count, tape[object].kind == .object else { return }
                        let end = Int(tape[object].end)
                        var index = object + 1
                        while index < end {
                            if let position = position(of: tape[index], fingerprints, buckets, text) {
                                slots.set(position, index + 1)
                            }
                            let value = tape[index + 1]
                            index = value.kind.isContainer ? Int(value.end) : index + 2
                        }
                    }
                }
            }
        }
    }

    /// The position in this set of the member name `name`, or nil.
    @inline(__always)
    private func position(
        of name: JSONTapeEntry, _ fingerprints: UnsafeBufferPointer<UInt64>, _ buckets: UnsafeBufferPointer<Int8>,
        _ text: UnsafeRawBufferPointer
    ) -> Int? {
        var bucket = Self.bucket(of: name.payload)
        while true {
            let position = Int(buckets[bucket])
            if position < 0 { return nil }
            if fingerprints[position] == name.payload {
                let expected = names[position]
                let count = expected.utf8CodeUnitCount
                // A fingerprint holds the length and the first seven bytes: for a plain name of at most seven
                // bytes and the same length, equal fingerprints are equal names.
                if name.kind == .string, count <= 7, Int(name.end - name.start) == count { return position }
                let bytes = UnsafeRawBufferPointer(start: expected.utf8Start, count: count)
                if JSONDocument.stringEquals(name, in: text, bytes) { return position }
            }
            bucket = (bucket + 1) & 63
        }
    }
}

/// Where each name of a ``JSONMemberNames`` set is in one object: the value's position, or nil.
public struct JSONMemberSlots: Sendable {
    private var slots = SIMD32<Int32>(repeating: -1)

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
