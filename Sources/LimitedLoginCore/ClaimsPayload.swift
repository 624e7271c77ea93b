import LimitedLoginJOSE

/// Where a claim set's strings, arrays and objects are read from, each time one is asked for.
///
/// A verifier needs few of a token's claims as Swift values: it compares `iss`, `aud` and `nonce` byte
/// for byte where they lie, and a server may read nothing but `sub`. Building twenty strings, arrays and
/// objects for every token would cost more than every check of the payload together. So the claims stay
/// in the validated payload and are built on each read, with the same rules as always (an optional
/// claim of the wrong type reads as nil). Nothing is validated late: the payload was checked whole
/// (UTF-8, duplicate names, depth, size), and the required claims' presence, types and emptiness, before
/// a claim set exists.
///
/// The fields are kept flat (not as an enum's payloads), so that reading one slot or the document in a
/// check reads just that field of the shared box instead of copying the whole payload out of it.
struct ClaimsPayload: Sendable {
    /// The validated JSON document of a token payload, read in place (nil for a tree).
    private let document: JSONDocument?
    /// The claims object's position in `document`, and where each claim name's value is.
    private let index: Int
    private let slots: JSONMemberSlots
    /// A payload given as a tree (claims read from a ``JSONObject``, or decoded).
    private let tree: JSONObject

    static func document(_ source: DocumentObject) -> ClaimsPayload {
        ClaimsPayload(document: source.document, index: source.index, slots: source.slots, tree: JSONObject())
    }

    static func object(_ tree: JSONObject) -> ClaimsPayload {
        ClaimsPayload(document: nil, index: 0, slots: JSONMemberSlots(), tree: tree)
    }

    private enum Source {
        case document(DocumentObject)
        case object(JSONObject)
    }

    private var source: Source {
        if let document { return .document(DocumentObject(document: document, index: index, slots: slots)) }
        return .object(tree)
    }

    func string(_ name: ClaimName) -> String? {
        // Read in place, as `withStringBytes` does: no claims source is made for one string.
        if document != nil {
            guard let member = slots[name.rawValue] else { return nil }
            return document?.string(at: member)
        }
        return tree.optionalString(name)
    }

    /// Calls `body` with the UTF-8 bytes of the string claim `name`; nil when it is not a string.
    @inline(__always)
    func withStringBytes<Result>(_ name: ClaimName, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        if document != nil {
            guard let member = slots[name.rawValue] else { return nil }
            // Through the optional, not a binding of it: a binding is a copy (a reference count on each array).
            return document?.withStringBytes(at: member, body) ?? nil
        }
        return tree.optionalString(name)?.withUTF8Bytes(body)
    }

    func strings(_ name: ClaimName) -> [String]? {
        switch source {
        case .document(let source): return source.strings(name)
        case .object(let source): return source.strings(name)
        }
    }

    var userAgeRange: UserAgeRange? {
        switch source {
        case .document(let source): return source.object(.userAgeRange).flatMap(UserAgeRange.init(reading:))
        case .object(let source): return source.object(.userAgeRange).flatMap(UserAgeRange.init(reading:))
        }
    }

    func location(_ name: ClaimName) -> Location? {
        switch source {
        case .document(let source): return source.object(name).flatMap(Location.init(reading:))
        case .object(let source): return source.object(name).flatMap(Location.init(reading:))
        }
    }
}
