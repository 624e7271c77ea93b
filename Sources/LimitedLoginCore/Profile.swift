import Foundation

/// The person who logged in, as the app may see them.
///
/// After a limited login it is built from the ID token's claims (``init(claims:refreshDate:isLimited:permissions:)``), the
/// mapping of docs/BEHAVIOUR.md, section 7, and ``isLimited`` is true.
public struct Profile: Sendable, Equatable, Codable {
    /// The app-scoped user ID.
    public let userID: String
    public let firstName: String?
    public let middleName: String?
    public let lastName: String?
    public let name: String?
    public let linkURL: URL?
    /// When the profile was last built.
    public let refreshDate: Date
    public let imageURL: URL?
    public let email: String?
    /// App-scoped IDs of friends who also use the app.
    public let friendIDs: [String]?
    /// Midnight UTC of the birthday.
    public let birthday: Date?
    public let ageRange: UserAgeRange?
    public let hometown: Location?
    public let location: Location?
    public let gender: String?
    /// The permissions the person granted at the login this profile came from (the iOS SDK's
    /// `Profile.permissions`); nil when unknown.
    public let permissions: Set<String>?
    /// True when the profile came from a limited login's ID token.
    public let isLimited: Bool

    public init(
        userID: String, firstName: String? = nil, middleName: String? = nil, lastName: String? = nil,
        name: String? = nil, linkURL: URL? = nil, refreshDate: Date = Date(), imageURL: URL? = nil,
        email: String? = nil, friendIDs: [String]? = nil, birthday: Date? = nil, ageRange: UserAgeRange? = nil,
        hometown: Location? = nil, location: Location? = nil, gender: String? = nil, isLimited: Bool = false,
        permissions: Set<String>? = nil
    ) {
        self.userID = userID
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.name = name
        self.linkURL = linkURL
        self.refreshDate = refreshDate
        self.imageURL = imageURL
        self.email = email
        self.friendIDs = friendIDs
        self.birthday = birthday
        self.ageRange = ageRange
        self.hometown = hometown
        self.location = location
        self.gender = gender
        self.isLimited = isLimited
        self.permissions = permissions
    }

    /// The profile an ID token describes.
    public init(
        claims: AuthenticationTokenClaims, refreshDate: Date = Date(), isLimited: Bool = true, permissions: Set<String>? = nil
    ) {
        self.init(
            userID: claims.sub,
            firstName: claims.givenName,
            middleName: claims.middleName,
            lastName: claims.familyName,
            name: claims.name,
            linkURL: claims.userLink.flatMap(URL.init(string:)),
            refreshDate: refreshDate,
            imageURL: claims.picture.flatMap(URL.init(string:)),
            email: claims.email,
            friendIDs: claims.userFriends,
            birthday: claims.userBirthday.flatMap(Birthday.date(from:)),
            ageRange: claims.userAgeRange,
            hometown: claims.userHometown,
            location: claims.userLocation,
            gender: claims.userGender,
            isLimited: isLimited,
            permissions: permissions
        )
    }
}

/// The `user_birthday` format, `MM/DD/YYYY`.
public enum Birthday {
    /// Midnight UTC of the date, or nil unless the text is exactly `MM/DD/YYYY` and a real calendar date.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[2] == UInt8(ascii: "/"), bytes[5] == UInt8(ascii: "/") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let month = number(0..<2), let day = number(3..<5), let year = number(6..<10),
            (1...12).contains(month), year >= 1
        else { return nil }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let daysInMonth = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...daysInMonth).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// `MM/DD/YYYY` for a date, read in UTC.
    public static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.month, 2))/\(pad(parts.day, 2))/\(pad(parts.year, 4))"
    }
}
