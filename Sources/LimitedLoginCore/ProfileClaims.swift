import LimitedLoginJOSE

/// Where a claim set's optional (profile) claims are read from, each time one is asked for.
///
/// A verifier checks only the required claims; building twenty strings, arrays and objects that a
/// server may never read would cost more than every check of the payload together. So the optional
/// claims stay in the validated payload and are built on each read, with the same rules as always: a
/// claim of the wrong type reads as nil. Nothing is validated late: the payload was checked whole
/// (UTF-8, duplicate names, depth, size) before a claim set exists.
enum ProfileClaims: Sendable {
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
