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
/// missing, empty or of the wrong type; they are read once, when the claim set is made. An optional claim
/// of the wrong type is dropped on its own (it reads as nil): the rest of the token stays usable. The
/// optional claims are built from the payload each time one is read (see ``ProfileClaims``), so a server
/// that reads only `sub` pays for no others.
public struct AuthenticationTokenClaims: Sendable, Equatable, Codable {
    public var jti: String { values.jti }
    public var iss: String { values.iss }
    public var aud: String { values.aud }
    public var nonce: String { values.nonce }
    public var exp: Date { values.exp }
    public var iat: Date { values.iat }
    public var sub: String { values.sub }
    public var name: String? { values.profile.string(.name) }
    public var givenName: String? { values.profile.string(.givenName) }
    public var middleName: String? { values.profile.string(.middleName) }
    public var familyName: String? { values.profile.string(.familyName) }
    public var email: String? { values.profile.string(.email) }
    public var picture: String? { values.profile.string(.picture) }
    /// App-scoped IDs of friends who also use the app and granted `user_friends`.
    public var userFriends: [String]? { values.profile.strings(.userFriends) }
    /// `MM/DD/YYYY`.
    public var userBirthday: String? { values.profile.string(.userBirthday) }
    public var userAgeRange: UserAgeRange? { values.profile.userAgeRange }
    public var userHometown: Location? { values.profile.location(.userHometown) }
    public var userLocation: Location? { values.profile.location(.userLocation) }
    public var userGender: String? { values.profile.string(.userGender) }
    public var userLink: String? { values.profile.string(.userLink) }
    /// Classic logins only: half the SHA-256 of the access token.
    public var atHash: String? { values.profile.string(.atHash) }

    /// One shared box: a claim set is made once and then passed around, and copying one reference costs
    /// less than copying its strings.
    private let values: Values

    private final class Values: Sendable {
        let jti: String, iss: String, aud: String, nonce: String
        let exp: Date, iat: Date
        let sub: String
        let profile: ProfileClaims

        init(
            jti: String, iss: String, aud: String, nonce: String, exp: Date, iat: Date, sub: String,
            profile: ProfileClaims
        ) {
            (self.jti, self.iss, self.aud, self.nonce) = (jti, iss, aud, nonce)
            (self.exp, self.iat, self.sub) = (exp, iat, sub)
            self.profile = profile
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

        /// The claims as a JSON payload, with the names SPEC section 3 gives.
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
        let fields = try Fields(from: decoder)
        values = Values(
            jti: fields.jti, iss: fields.iss, aud: fields.aud, nonce: fields.nonce, exp: fields.exp, iat: fields.iat,
            sub: fields.sub, profile: .object(fields.json)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }

    /// Reads claims from a token payload.
    public init(payload: JSONObject) throws(ClaimsError) {
        try self.init(reading: payload, profile: .object(payload))
    }

    /// Reads claims from the validated JSON document of a token payload, in place: only the required
    /// claims are built now. A document whose top-level value is not an object has no claims.
    public init(document: JSONDocument) throws(ClaimsError) {
        let object = DocumentObject(document: document, index: document.root)
        try self.init(reading: object, profile: .document(object))
    }

    private init(reading payload: some ClaimsSource, profile: ProfileClaims) throws(ClaimsError) {
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

        let iss = try required(.iss), aud = try required(.aud), sub = try required(.sub)
        let jti = try required(.jti), nonce = try required(.nonce)
        let iat = try date(.iat), exp = try date(.exp)
        values = Values(jti: jti, iss: iss, aud: aud, nonce: nonce, exp: exp, iat: iat, sub: sub, profile: profile)
    }

    /// The claims as a JSON payload, with the names SPEC section 3 gives.
    public var json: JSONObject { fields.json }
}
