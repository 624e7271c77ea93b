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
    public let jti: String
    public let iss: String
    public let aud: String
    public let nonce: String
    public let exp: Date
    public let iat: Date
    public let sub: String
    public let name: String?
    public let givenName: String?
    public let middleName: String?
    public let familyName: String?
    public let email: String?
    public let picture: String?
    /// App-scoped IDs of friends who also use the app and granted `user_friends`.
    public let userFriends: [String]?
    /// `MM/DD/YYYY`.
    public let userBirthday: String?
    public let userAgeRange: UserAgeRange?
    public let userHometown: Location?
    public let userLocation: Location?
    public let userGender: String?
    public let userLink: String?
    /// Classic logins only: half the SHA-256 of the access token.
    public let atHash: String?

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

        self.iss = try required(.iss)
        self.aud = try required(.aud)
        self.sub = try required(.sub)
        self.jti = try required(.jti)
        self.nonce = try required(.nonce)
        self.iat = try date(.iat)
        self.exp = try date(.exp)
        self.name = optional(.name)
        self.givenName = optional(.givenName)
        self.middleName = optional(.middleName)
        self.familyName = optional(.familyName)
        self.email = optional(.email)
        self.picture = optional(.picture)
        self.userBirthday = optional(.userBirthday)
        self.userGender = optional(.userGender)
        self.userLink = optional(.userLink)
        self.atHash = optional(.atHash)
        self.userFriends = payload.strings(.userFriends)
        self.userAgeRange = payload.object(.userAgeRange).flatMap(UserAgeRange.init(reading:))
        self.userHometown = payload.object(.userHometown).flatMap(Location.init(reading:))
        self.userLocation = payload.object(.userLocation).flatMap(Location.init(reading:))
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
