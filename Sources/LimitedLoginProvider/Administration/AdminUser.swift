import LimitedLoginCore
import LimitedLoginJOSE

/// A test user as the admin API answers it: the fixtures file's fields (no password) and `friends`.
struct AdminUser: Sendable, Equatable {
    let record: TestUserRecord
    let friends: [String]

    /// The fields `POST /_admin/users/:id` changes, in the fixtures file's names.
    static let editableFields = [
        "first_name", "middle_name", "last_name", "email", "password", "birthday", "gender", "hometown", "location", "link",
        "pickable", "age_range", "gaming_name",
    ]

    var json: JSONValue {
        let user = record
        var object: [String: JSONValue] = [
            "id": .string(user.id), "first_name": .string(user.firstName), "last_name": .string(user.lastName),
            "email": .string(user.email), "friends": .array(friends.map { .string($0) }), "pickable": .bool(user.pickable),
        ]
        if let middle = user.middleName { object["middle_name"] = .string(middle) }
        if let birthday = user.birthday { object["birthday"] = .string(birthday) }
        if let gender = user.gender { object["gender"] = .string(gender) }
        if let link = user.link { object["link"] = .string(link) }
        if let hometown = user.hometown { object["hometown"] = hometown.json }
        if let location = user.location { object["location"] = location.json }
        if let range = user.ageRange { object["age_range"] = range.json }
        if let gamingName = user.gamingName { object["gaming_name"] = .string(gamingName) }
        return .object(JSONObject(object))
    }
}
