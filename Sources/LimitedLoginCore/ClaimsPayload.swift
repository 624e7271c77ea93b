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
enum ClaimsPayload: Sendable {
    /// The validated JSON document of a token payload, read in place.
    case document(DocumentObject)
    /// A payload given as a tree (claims read from a ``JSONObject``, or decoded).
    case object(JSONObject)

    func string(_ name: ClaimName) -> String? {
        switch self {
        case .document(let source): return source.optionalString(name)
        case .object(let source): return source.optionalString(name)
        }
    }

    /// Calls `body` with the UTF-8 bytes of the string claim `name`; nil when it is not a string.
    func withStringBytes<Result>(_ name: ClaimName, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        switch self {
        case .document(let source):
            guard let member = source.slot(name) else { return nil }
            return source.document.withStringBytes(at: member, body)
        case .object(let source):
            guard var string = source.optionalString(name) else { return nil }
            return string.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }

    func strings(_ name: ClaimName) -> [String]? {
        switch self {
        case .document(let source): return source.strings(name)
        case .object(let source): return source.strings(name)
        }
    }

    var userAgeRange: UserAgeRange? {
        switch self {
        case .document(let source): return source.object(.userAgeRange).flatMap(UserAgeRange.init(reading:))
        case .object(let source): return source.object(.userAgeRange).flatMap(UserAgeRange.init(reading:))
        }
    }

    func location(_ name: ClaimName) -> Location? {
        switch self {
        case .document(let source): return source.object(name).flatMap(Location.init(reading:))
        case .object(let source): return source.object(name).flatMap(Location.init(reading:))
        }
    }
}
