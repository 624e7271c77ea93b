import Foundation
import LimitedLoginJOSE

/// Why a token's payload is not a Limited Login claim set.
public enum ClaimsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A required claim is absent.
    case missing(String)
    /// A required claim has the wrong JSON type.
    case wrongType(String, expected: String)
    /// A required string claim is empty.
    case empty(String)

    public var description: String {
        switch self {
        case .missing(let name): return "the token has no \"\(name)\" claim"
        case .wrongType(let name, let expected): return "the \"\(name)\" claim must be a \(expected)"
        case .empty(let name): return "the \"\(name)\" claim is empty"
        }
    }
}

/// The claims of a Limited Login ID token (docs/BEHAVIOUR.md, section 3).
///
/// The required claims (`iss`, `aud`, `sub`, `jti`, `nonce`, `iat`, `exp`) make the claim set fail when
/// missing, empty or of the wrong type; that is checked when the claim set is made. An optional claim of
/// the wrong type is dropped on its own (it reads as nil): the rest of the token stays usable. Strings,
/// arrays and objects are built from the payload each time one is read (see `ClaimsPayload`), so a
/// server that reads only `sub` pays for no others.
public struct AuthenticationTokenClaims: Sendable, Equatable, Codable {
    // The required strings were checked to be present, strings and non-empty when the set was made.
    public var jti: String { values.payload.string(.jti) ?? "" }
    public var iss: String { values.payload.string(.iss) ?? "" }
    public var aud: String { values.payload.string(.aud) ?? "" }
    public var nonce: String { values.payload.string(.nonce) ?? "" }
    public var exp: Date { values.exp }
    public var iat: Date { values.iat }
    public var sub: String { values.payload.string(.sub) ?? "" }
    public var name: String? { values.payload.string(.name) }
    public var givenName: String? { values.payload.string(.givenName) }
    public var middleName: String? { values.payload.string(.middleName) }
    public var familyName: String? { values.payload.string(.familyName) }
    public var email: String? { values.payload.string(.email) }
    public var picture: String? { values.payload.string(.picture) }
    /// App-scoped IDs of friends who also use the app and granted `user_friends`.
    public var userFriends: [String]? { values.payload.strings(.userFriends) }
    /// `MM/DD/YYYY`.
    public var userBirthday: String? { values.payload.string(.userBirthday) }
    public var userAgeRange: UserAgeRange? { values.payload.userAgeRange }
    public var userHometown: Location? { values.payload.location(.userHometown) }
    public var userLocation: Location? { values.payload.location(.userLocation) }
    public var userGender: String? { values.payload.string(.userGender) }
    public var userLink: String? { values.payload.string(.userLink) }
    /// Classic logins only: half the SHA-256 of the access token.
    public var atHash: String? { values.payload.string(.atHash) }

    /// What `find` answers for the UTF-8 bytes of `iss`, read where they lie in the payload (for comparisons
    /// byte for byte, without building the string). Not generic: a generic function of this module would be
    /// run unspecialized from another, making type metadata on each call.
    package func withIssuerBytes(_ find: (UnsafeRawBufferPointer) -> Int?) -> Int? {
        values.payload.withStringBytes(.iss, find) ?? nil
    }

    /// What `find` answers for the UTF-8 bytes of `aud`, read where they lie in the payload.
    package func withAudienceBytes(_ find: (UnsafeRawBufferPointer) -> Int?) -> Int? {
        values.payload.withStringBytes(.aud, find) ?? nil
    }

    /// True when `nonce` has exactly the bytes of `expected`, compared in time that depends only on the lengths.
    package func nonce(matches expected: String) -> Bool {
        expected.withUTF8Bytes { expected in
            values.payload.withStringBytes(.nonce) { constantTimeEquals($0, expected) }
        } ?? false
    }

    /// One shared box: a claim set is made once and then passed around, and copying one reference costs
    /// less than copying the payload it reads from.
    private let values: Values

    private final class Values: Sendable {
        let exp: Date, iat: Date
        let payload: ClaimsPayload

        init(exp: Date, iat: Date, payload: ClaimsPayload) {
            (self.exp, self.iat, self.payload) = (exp, iat, payload)
        }
    }

    /// Every claim, built: the Codable form (the property names are the keys) and what equality compares.
    private struct Fields: Sendable, Equatable, Codable {
        let jti: String
        let iss: String
        let aud: String
        let nonce: String
        let exp: Date
        let iat: Date
        let sub: String
        let name: String?
        let givenName: String?
        let middleName: String?
        let familyName: String?
        let email: String?
        let picture: String?
        let userFriends: [String]?
        let userBirthday: String?
        let userAgeRange: UserAgeRange?
        let userHometown: Location?
        let userLocation: Location?
        let userGender: String?
        let userLink: String?
        let atHash: String?

        /// The claims as a JSON payload, with the names docs/BEHAVIOUR.md gives in section 3.
        var json: JSONObject {
            var members: JSONObject = [
                "iss": .string(iss), "aud": .string(aud), "sub": .string(sub), "jti": .string(jti),
                "nonce": .string(nonce),
                "iat": .number(iat.timeIntervalSince1970), "exp": .number(exp.timeIntervalSince1970),
            ]
            let optionalStrings: [(String, String?)] = [
                ("name", name), ("given_name", givenName), ("middle_name", middleName), ("family_name", familyName),
                ("email", email), ("picture", picture), ("user_birthday", userBirthday), ("user_gender", userGender),
                ("user_link", userLink), ("at_hash", atHash),
            ]
            for (key, value) in optionalStrings { if let value { members[key] = .string(value) } }
            if let userFriends { members["user_friends"] = .array(userFriends.map { .string($0) }) }
            if let userAgeRange { members["user_age_range"] = userAgeRange.json }
            if let userHometown { members["user_hometown"] = userHometown.json }
            if let userLocation { members["user_location"] = userLocation.json }
            return members
        }
    }

    /// Every claim, built.
    private var fields: Fields {
        Fields(
            jti: jti, iss: iss, aud: aud, nonce: nonce, exp: exp, iat: iat, sub: sub, name: name, givenName: givenName,
            middleName: middleName, familyName: familyName, email: email, picture: picture, userFriends: userFriends,
            userBirthday: userBirthday, userAgeRange: userAgeRange, userHometown: userHometown,
            userLocation: userLocation, userGender: userGender, userLink: userLink, atHash: atHash
        )
    }

    public static func == (left: AuthenticationTokenClaims, right: AuthenticationTokenClaims) -> Bool {
        left.values === right.values || left.fields == right.fields
    }

    public init(from decoder: any Decoder) throws {
        let payload = try Fields(from: decoder).json
        try self.init(reading: payload, payload: .object(payload))
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }

    /// Reads claims from a token payload.
    public init(payload: JSONObject) throws(ClaimsError) {
        try self.init(reading: payload, payload: .object(payload))
    }

    /// Reads claims from the validated JSON document of a token payload, in place: the required claims
    /// are checked now, and values are built when read. A document whose top-level value is not an object
    /// has no claims.
    public init(document: JSONDocument) throws(ClaimsError) {
        let object = DocumentObject(document: document, index: document.root)
        try self.init(reading: object, payload: .document(object))
    }

    private init(reading source: some ClaimsSource, payload: ClaimsPayload) throws(ClaimsError) {
        func required(_ name: ClaimName) throws(ClaimsError) {
            switch source.isEmptyString(name) {
            case .absent: throw .missing(name.description)
            case .wrongType: throw .wrongType(name.description, expected: "string")
            case .value(let isEmpty): if isEmpty { throw .empty(name.description) }
            }
        }
        func date(_ name: ClaimName) throws(ClaimsError) -> Date {
            switch source.number(name) {
            case .absent: throw .missing(name.description)
            case .wrongType: throw .wrongType(name.description, expected: "number")
            case .value(let seconds): return Date(timeIntervalSince1970: seconds)
            }
        }

        try required(.iss)
        try required(.aud)
        try required(.sub)
        try required(.jti)
        try required(.nonce)
        let iat = try date(.iat)
        let exp = try date(.exp)
        values = Values(exp: exp, iat: iat, payload: payload)
    }

    /// The claims as a JSON payload, with the names docs/BEHAVIOUR.md gives in section 3.
    public var json: JSONObject { fields.json }
}
