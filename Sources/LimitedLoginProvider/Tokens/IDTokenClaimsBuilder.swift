import Crypto
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// The claims of an ID token (SPEC section 3): the standard ones, then one group per granted permission.
struct IDTokenClaimsBuilder: Sendable {
    let issuer: String
    let app: AppRecord
    let user: TestUserRecord
    let asid: String
    let granted: Set<Permission>
    let nonce: String
    let issuedAt: Int64
    let friendASIDs: [String]
    let pictureURL: String
    /// `exp - iat`, in seconds.
    var lifetime: Int64 = TokenLifetimes.defaultIDToken
    var accessTokenHash: String?

    /// The claims by name (the issuer applies overrides, then makes the one `JSONObject` it signs).
    func claims() -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer),
            "aud": .string(app.id),
            "sub": .string(asid),
            "iat": .number(Double(issuedAt)),
            "exp": .number(Double(issuedAt + lifetime)),
            "jti": .string(RandomIdentifiers.tokenID()),
            "nonce": .string(nonce),
        ]
        // A gaming app sees the gaming profile in place of the public one (the seeds: gaming_profile "is used in
        // place of the public_profile permission for Facebook Login for Gaming Apps"): the avatar name, and the
        // first name and picture only with gaming_user_picture.
        if app.isGaming {
            if granted.contains(.publicProfile) || granted.contains(.gamingProfile) { claims["name"] = .string(user.gamingName ?? user.fullName) }
        } else if granted.contains(.publicProfile) {
            claims["name"] = .string(user.fullName)
            claims["given_name"] = .string(user.firstName)
            if let middle = user.middleName, !middle.isEmpty { claims["middle_name"] = .string(middle) }
            claims["family_name"] = .string(user.lastName)
            claims["picture"] = .string(pictureURL)
        }
        // Elsewhere the gaming permissions add what public_profile did not give.
        if granted.contains(.gamingProfile), claims["name"] == nil { claims["name"] = .string(user.gamingName ?? user.fullName) }
        if granted.contains(.gamingUserPicture) {
            if claims["given_name"] == nil { claims["given_name"] = .string(user.firstName) }
            if claims["picture"] == nil { claims["picture"] = .string(pictureURL) }
        }
        if granted.contains(.email) { claims["email"] = .string(user.email) }
        if granted.contains(.userFriends) { claims["user_friends"] = .array(friendASIDs.map { .string($0) }) }
        if granted.contains(.userBirthday), let birthday = user.birthday { claims["user_birthday"] = .string(birthday) }
        if granted.contains(Permission(name: "user_age_range")), let range = Self.ageRange(of: user, at: issuedAt) {
            claims["user_age_range"] = range.json
        }
        if granted.contains(.userHometown), let hometown = user.hometown { claims["user_hometown"] = hometown.json }
        if granted.contains(.userLocation), let location = user.location { claims["user_location"] = location.json }
        if granted.contains(.userGender), let gender = user.gender { claims["user_gender"] = .string(gender) }
        if granted.contains(Permission(name: "user_link")), let link = user.link { claims["user_link"] = .string(link) }
        if let accessTokenHash { claims["at_hash"] = .string(accessTokenHash) }
        return claims
    }

    /// Facebook's age brackets, from the birthday: 13–17, 18–20, 21+ (and under 13).
    static func ageRange(of user: TestUserRecord, at issuedAt: Int64) -> UserAgeRange? {
        if let explicit = user.ageRange { return explicit }
        guard let birthday = user.birthday.flatMap(Birthday.date(from:)) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let now = Date(timeIntervalSince1970: TimeInterval(issuedAt))
        guard let age = calendar.dateComponents([.year], from: birthday, to: now).year else { return nil }
        switch age {
        case ..<13: return UserAgeRange(min: nil, max: 12)
        case 13...17: return UserAgeRange(min: 13, max: 17)
        case 18...20: return UserAgeRange(min: 18, max: 20)
        default: return UserAgeRange(min: 21, max: nil)
        }
    }
}
