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

/// The claims of a Limited Login ID token (SPEC section 3).
///
/// The required claims (`iss`, `aud`, `sub`, `jti`, `nonce`, `iat`, `exp`) make the claim set fail when
/// missing, empty or of the wrong type. An optional claim of the wrong type is dropped on its own: the
/// rest of the token stays usable.
public struct AuthenticationTokenClaims: Sendable, Equatable, Codable {
    public var jti: String { values.fields.jti }
    public var iss: String { values.fields.iss }
    public var aud: String { values.fields.aud }
    public var nonce: String { values.fields.nonce }
    public var exp: Date { values.fields.exp }
    public var iat: Date { values.fields.iat }
    public var sub: String { values.fields.sub }
    public var name: String? { values.fields.name }
    public var givenName: String? { values.fields.givenName }
    public var middleName: String? { values.fields.middleName }
    public var familyName: String? { values.fields.familyName }
    public var email: String? { values.fields.email }
    public var picture: String? { values.fields.picture }
    /// App-scoped IDs of friends who also use the app and granted `user_friends`.
    public var userFriends: [String]? { values.fields.userFriends }
    /// `MM/DD/YYYY`.
    public var userBirthday: String? { values.fields.userBirthday }
    public var userAgeRange: UserAgeRange? { values.fields.userAgeRange }
    public var userHometown: Location? { values.fields.userHometown }
    public var userLocation: Location? { values.fields.userLocation }
    public var userGender: String? { values.fields.userGender }
    public var userLink: String? { values.fields.userLink }
    /// Classic logins only: half the SHA-256 of the access token.
    public var atHash: String? { values.fields.atHash }

    /// The claims, in one shared box: a claim set is made once and then passed around, and copying one
    /// reference costs less than copying twenty strings, arrays and objects.
    private let values: Values

    private final class Values: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// The stored form, also the Codable form (the property names are the keys).
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
    }

    public static func == (left: AuthenticationTokenClaims, right: AuthenticationTokenClaims) -> Bool {
        left.values === right.values || left.values.fields == right.values.fields
    }

    public init(from decoder: any Decoder) throws {
        values = Values(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try values.fields.encode(to: encoder)
    }

    /// Reads claims from a token payload.
    public init(payload: JSONObject) throws(ClaimsError) {
        try self.init(reading: payload)
    }

    /// Reads claims from the validated JSON document of a token payload, in place: only the claims'
    /// own values are built. A document whose top-level value is not an object has no claims.
    public init(document: JSONDocument) throws(ClaimsError) {
        try self.init(reading: DocumentObject(document: document, index: document.root))
    }

    private init(reading payload: some ClaimsSource) throws(ClaimsError) {
        func required(_ name: ClaimName) throws(ClaimsError) -> String {
            switch payload.string(name) {
            case .absent: throw .missing(name.description)
            case .wrongType: throw .wrongType(name.description, expected: "string")
            case .value(let string):
                guard !string.isEmpty else { throw .empty(name.description) }
                return string
            }
        }
        func date(_ name: ClaimName) throws(ClaimsError) -> Date {
            switch payload.number(name) {
            case .absent: throw .missing(name.description)
            case .wrongType: throw .wrongType(name.description, expected: "number")
            case .value(let seconds): return Date(timeIntervalSince1970: seconds)
            }
        }
        func optional(_ name: ClaimName) -> String? {
            if case .value(let string) = payload.string(name) { return string }
            return nil
        }

        let iss = try required(.iss), aud = try required(.aud), sub = try required(.sub)
        let jti = try required(.jti), nonce = try required(.nonce)
        let iat = try date(.iat), exp = try date(.exp)
        values = Values(Fields(
            jti: jti, iss: iss, aud: aud, nonce: nonce, exp: exp, iat: iat, sub: sub,
            name: optional(.name),
            givenName: optional(.givenName),
            middleName: optional(.middleName),
            familyName: optional(.familyName),
            email: optional(.email),
            picture: optional(.picture),
            userFriends: payload.strings(.userFriends),
            userBirthday: optional(.userBirthday),
            userAgeRange: payload.object(.userAgeRange).flatMap(UserAgeRange.init(reading:)),
            userHometown: payload.object(.userHometown).flatMap(Location.init(reading:)),
            userLocation: payload.object(.userLocation).flatMap(Location.init(reading:)),
            userGender: optional(.userGender),
            userLink: optional(.userLink),
            atHash: optional(.atHash)
        ))
    }

    /// The claims as a JSON payload, with the names SPEC section 3 gives.
    public var json: JSONObject {
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
