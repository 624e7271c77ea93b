/// Why a key-set document was refused as a whole.
public enum JWKSetError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidJSON(JSONParseError)
    case notAnObject
    case missingKeys
    case keysNotAnArray

    public var description: String {
        switch self {
        case .invalidJSON(let error): return "the key set is not acceptable JSON: \(error)"
        case .notAnObject: return "the key set is not a JSON object"
        case .missingKeys: return "the key set has no \"keys\" member"
        case .keysNotAnArray: return "the key set's \"keys\" is not an array"
        }
    }
}

/// What a key set says about one `kid`.
public enum KeyLookup: Sendable {
    /// A usable RS256 key.
    case found(RS256PublicKey)
    /// A key with this `kid` exists and cannot be used for RS256, for this reason.
    case unusable(JWKError)
    /// More than one key carries this `kid`, so none of them can be trusted to be the signer's.
    case ambiguous
    /// No key has this `kid`.
    case missing
}

/// A JSON Web Key Set (RFC 7517 section 5), indexed by `kid`.
///
/// One bad key does not spoil the set: each key is judged on its own, and a token naming an unusable
/// key gets that key's reason.
public struct JSONWebKeySet: Sendable {
    /// The keys in document order, as published.
    public let keys: [RSAJSONWebKey]
    /// By exact bytes: Swift's `==` on strings would make two kids that differ only by Unicode equivalence
    /// one entry (ambiguous), though a lookup must tell them apart.
    private let index: [ExactKeyID: Entry]
    /// The same entries in a list, searched in order when there are few (a published set has a handful of
    /// keys): comparing a few short strings costs less than hashing one.
    private let smallIndex: [(keyID: String, entry: Entry)]
    private static let smallIndexLimit = 8

    /// A `kid` hashed and compared by its UTF-8 bytes.
    private struct ExactKeyID: Hashable, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (left: ExactKeyID, right: ExactKeyID) -> Bool { left.text.hasSameBytes(as: right.text) }
        func hash(into hasher: inout Hasher) { text.withUTF8Bytes { hasher.combine(bytes: $0) } }
    }

    private enum Entry: Sendable {
        case usable(RS256PublicKey)
        case unusable(JWKError)
        case ambiguous
    }

    /// A set to publish.
    public init(keys: [RSAJSONWebKey]) {
        self.keys = keys
        var index = [ExactKeyID: Entry]()
        for key in keys {
            let entry: Entry
            do { entry = .usable(try key.publicKey()) } catch { entry = .unusable(error) }
            let keyID = ExactKeyID(key.keyID)
            index[keyID] = index[keyID] == nil ? entry : .ambiguous
        }
        self.index = index
        self.smallIndex = Self.list(index)
    }

    private static func list(_ index: [ExactKeyID: Entry]) -> [(keyID: String, entry: Entry)] {
        index.count <= smallIndexLimit ? index.map { (keyID: $0.key.text, entry: $0.value) } : []
    }

    /// Reads a key-set document.
    public init<Bytes: Collection>(
        parsing document: Bytes, json: StrictJSONParser = StrictJSONParser(maximumSize: 1024 * 1024)
    )
        throws(JWKSetError) where Bytes.Element == UInt8
    {
        let value: JSONValue
        do { value = try json.parse(document) } catch { throw .invalidJSON(error) }
        guard let members = value.objectValue else { throw .notAnObject }
        guard let keysValue = members["keys"] else { throw .missingKeys }
        guard let list = keysValue.arrayValue else { throw .keysNotAnArray }
        var keys = [RSAJSONWebKey]()
        var index = [ExactKeyID: Entry]()
        for element in list {
            // A key without a usable kid can never be selected by a token, so it is skipped.
            guard let object = element.objectValue, let keyID = object["kid"]?.stringValue else { continue }
            let entry: Entry
            do {
                let key = try RSAJSONWebKey(json: object)
                keys.append(key)
                entry = .usable(try key.publicKey())
            } catch {
                entry = .unusable(error)
            }
            let exactKeyID = ExactKeyID(keyID)
            index[exactKeyID] = index[exactKeyID] == nil ? entry : .ambiguous
        }
        self.keys = keys
        self.index = index
        self.smallIndex = Self.list(index)
    }

    /// What the set holds for `keyID`, matched byte for byte.
    public func lookup(_ keyID: String) -> KeyLookup {
        let found: Entry
        if index.count <= Self.smallIndexLimit {
            guard let match = smallIndex.first(where: { $0.keyID.hasSameBytes(as: keyID) }) else { return .missing }
            found = match.entry
        } else {
            guard let entry = index[ExactKeyID(keyID)] else { return .missing }
            found = entry
        }
        switch found {
        case .usable(let key): return .found(key)
        case .unusable(let error): return .unusable(error)
        case .ambiguous: return .ambiguous
        }
    }

    /// True when some `kid` of the set names a key a token can be checked with.
    public var hasUsableKey: Bool {
        index.values.contains { entry in
            if case .usable = entry { return true }
            return false
        }
    }

    /// Every `kid` the set mentions.
    public var keyIDs: Set<String> { Set(index.keys.map(\.text)) }

    /// The document `{"keys":[…]}`.
    public var json: JSONValue { .object(["keys": .array(keys.map(\.json))]) }

    /// The document as compact JSON bytes.
    public func serialized() -> [UInt8] { JSONSerializer.serialize(json) }
}
