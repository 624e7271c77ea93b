/// The members of a JSON object, in document order, with unique names.
///
/// A flat list rather than a hash table: token headers and payloads have a few dozen members at most,
/// and looking a name up by comparison costs less than hashing it (measured: hashing was the largest
/// cost of verifying a token after the signature). Names are compared byte for byte (RFC 8259), never
/// by Unicode canonical equivalence. Equality ignores order.
public struct JSONObject: Sendable {
    /// One member.
    public typealias Member = (key: String, value: JSONValue)

    /// A member with its name's fingerprint, so a lookup compares integers before bytes.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var fingerprint: UInt64
        @usableFromInline var key: String
        @usableFromInline var value: JSONValue

        @inlinable
        init(key: String, value: JSONValue) {
            self.init(fingerprint: JSONObject.fingerprint(of: key), key: key, value: value)
        }

        @inlinable
        init(fingerprint: UInt64, key: String, value: JSONValue) {
            self.fingerprint = fingerprint
            self.key = key
            self.value = value
        }
    }

    @usableFromInline
    var entries: [Entry]

    /// The name's length (mod 256) and first seven bytes: equal names have equal fingerprints.
    @inlinable
    static func fingerprint(of key: String) -> UInt64 {
        let bytes = key.utf8
        if let fingerprint = bytes.withContiguousStorageIfAvailable({ JSONTapeEntry.fingerprint(UnsafeRawBufferPointer($0)) }) {
            return fingerprint
        }
        var value = UInt64(truncatingIfNeeded: bytes.count) << 56
        var shift: UInt64 = 0
        for byte in bytes.prefix(7) {
            value |= UInt64(byte) << shift
            shift += 8
        }
        return value
    }

    /// An empty object.
    public init() {
        entries = []
    }

    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// The members of a dictionary, ordered by name.
    public init(_ dictionary: [String: JSONValue]) {
        entries = dictionary.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value) }
    }

    /// Entries known to have unique names (the parser has checked).
    init(uniqueEntries: [Entry]) {
        entries = uniqueEntries
    }

    @inlinable
    func index(of key: String) -> Int? {
        let fingerprint = Self.fingerprint(of: key)
        return entries.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index].fingerprint == fingerprint {
                if buffer[index].key.hasSameBytes(as: key) { return index }
            }
            return nil
        }
    }

    /// The value of the member named `key` (compared byte for byte); setting nil removes the member.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(of: key) else { return nil }
            return entries[index].value
        }
        set {
            if let index = index(of: key) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// The number of members.
    public var count: Int { entries.count }

    /// True when there are no members.
    public var isEmpty: Bool { entries.isEmpty }

    /// The names, in document order.
    public var keys: [String] { entries.map(\.key) }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same names with transformed values.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var copy = self
        for index in copy.entries.indices { copy.entries[index].value = try transform(copy.entries[index].value) }
        return copy
    }
}

extension JSONObject: Sequence {
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Entry]>
        public mutating func next() -> Member? {
            guard let entry = base.next() else { return nil }
            return (key: entry.key, value: entry.value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }
    public var underestimatedCount: Int { entries.count }
}

extension JSONObject: Equatable, Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-insensitive, to agree with ==.
        var combined = 0
        for member in entries {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(minimumCapacity: elements.count)
        for (key, value) in elements { self[key] = value }
    }
}
