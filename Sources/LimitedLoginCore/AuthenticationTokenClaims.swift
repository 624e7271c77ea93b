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
        func required(_ name: String) throws(ClaimsError) -> String {
            guard let value = payload[name] else { throw .missing(name) }
            guard let string = value.stringValue else { throw .wrongType(name, expected: "string") }
            guard !string.isEmpty else { throw .empty(name) }
            return string
        }
        func date(_ name: String) throws(ClaimsError) -> Date {
            guard let value = payload[name] else { throw .missing(name) }
            guard let seconds = value.numberValue else { throw .wrongType(name, expected: "number") }
            return Date(timeIntervalSince1970: seconds)
        }
        func optional(_ name: String) -> String? { payload[name]?.stringValue }

        self.iss = try required("iss")
        self.aud = try required("aud")
        self.sub = try required("sub")
        self.jti = try required("jti")
        self.nonce = try required("nonce")
        self.iat = try date("iat")
        self.exp = try date("exp")
        self.name = optional("name")
        self.givenName = optional("given_name")
        self.middleName = optional("middle_name")
        self.familyName = optional("family_name")
        self.email = optional("email")
        self.picture = optional("picture")
        self.userBirthday = optional("user_birthday")
        self.userGender = optional("user_gender")
        self.userLink = optional("user_link")
        self.atHash = optional("at_hash")
        if let friends = payload["user_friends"]?.arrayValue {
            let ids = friends.compactMap(\.stringValue)
            self.userFriends = ids.count == friends.count ? ids : nil
        } else {
            self.userFriends = nil
        }
        self.userAgeRange = payload["user_age_range"].flatMap(UserAgeRange.init(json:))
        self.userHometown = payload["user_hometown"].flatMap(Location.init(json:))
        self.userLocation = payload["user_location"].flatMap(Location.init(json:))
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
