import Crypto
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// The claims of an ID token (docs/BEHAVIOUR.md, section 3): the standard ones, then one group per granted permission.
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

    /// The claims, in name order (the order `JSONObject(_:)` gives a dictionary's members), made once: the
    /// issuer signs this object as it is unless overrides or a defect change it.
    func claims() -> JSONObject {
        let has = ClaimPermissions(granted)
        var name: String?
        var givenName: String?
        var middleName: String?
        var familyName: String?
        var picture: String?
        // A gaming app sees the gaming profile in place of the public one (the seeds: gaming_profile "is used in
        // place of the public_profile permission for Facebook Login for Gaming Apps"): the avatar name, and the
        // first name and picture only with gaming_user_picture.
        if app.isGaming {
            if has.publicProfile || has.gamingProfile { name = user.gamingName ?? user.fullName }
        } else if has.publicProfile {
            name = user.fullName
            givenName = user.firstName
            if let middle = user.middleName, !middle.isEmpty { middleName = middle }
            familyName = user.lastName
            picture = pictureURL
        }
        // Elsewhere the gaming permissions add what public_profile did not give.
        if has.gamingProfile, name == nil { name = user.gamingName ?? user.fullName }
        if has.gamingUserPicture {
            if givenName == nil { givenName = user.firstName }
            if picture == nil { picture = pictureURL }
        }

        var claims = JSONObject(minimumCapacity: 21)
        func add(_ key: String, _ value: String?) {
            if let value { claims[key] = .string(value) }
        }
        // By name, byte order.
        add("at_hash", accessTokenHash)
        add("aud", app.id)
        if has.email { add("email", user.email) }
        claims["exp"] = .number(Double(issuedAt + lifetime))
        add("family_name", familyName)
        add("given_name", givenName)
        claims["iat"] = .number(Double(issuedAt))
        add("iss", issuer)
        add("jti", RandomIdentifiers.tokenID())
        add("middle_name", middleName)
        add("name", name)
        add("nonce", nonce)
        add("picture", picture)
        add("sub", asid)
        if has.userAgeRange, let range = Self.ageRange(of: user, at: issuedAt) { claims["user_age_range"] = range.json }
        if has.userBirthday { add("user_birthday", user.birthday) }
        if has.userFriends { claims["user_friends"] = .array(friendASIDs.map { .string($0) }) }
        if has.userGender { add("user_gender", user.gender) }
        if has.userHometown, let hometown = user.hometown { claims["user_hometown"] = hometown.json }
        if has.userLink { add("user_link", user.link) }
        if has.userLocation, let location = user.location { claims["user_location"] = location.json }
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

/// Which of the permissions that add claims were granted, found in one pass over the grant: asking the
/// `Set` for each would hash the permission's name a dozen times a token.
private struct ClaimPermissions {
    var publicProfile = false, gamingProfile = false, gamingUserPicture = false, email = false
    var userFriends = false, userBirthday = false, userAgeRange = false, userHometown = false
    var userLocation = false, userGender = false, userLink = false

    init(_ granted: Set<Permission>) {
        for permission in granted { note(permission) }
    }

    private mutating func note(_ permission: Permission) {
        switch permission {
        case .publicProfile: publicProfile = true
        case .gamingProfile: gamingProfile = true
        case .gamingUserPicture: gamingUserPicture = true
        case .email: email = true
        case .userFriends: userFriends = true
        case .userBirthday: userBirthday = true
        case .userAgeRange: userAgeRange = true
        case .userHometown: userHometown = true
        case .userLocation: userLocation = true
        case .userGender: userGender = true
        case .userLink: userLink = true
        case .custom(let name):
            // `.custom("email")` equals `.email` (permissions are equal by name): a known name counts as its case.
            let known = Permission(name: name)
            if case .custom = known { return }
            note(known)
        default: break
        }
    }
}
