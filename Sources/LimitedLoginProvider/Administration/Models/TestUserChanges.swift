/// An edit of a test user (`POST /_admin/users/{id}`, the Graph API's test-user edit, the console's user
/// form): the fields it names, each replaced, or removed when the new value is absent; the rest of the user
/// stays. The admin API's body is decoded into it once (``init(from:)``); the console and the Graph API make
/// it from their forms (``init(setting:to:)``). A field added to ``ProviderFixtures/User`` is added to the two
/// switches below (the compiler points to them).
struct TestUserChanges: Sendable, Decodable {
    typealias Field = ProviderFixtures.User.CodingKeys

    /// The fields the edit names, in the shape's order.
    let named: [Field]
    /// The named fields' new values (a removed one is nil); the fields not named are blank.
    private let new: ProviderFixtures.User

    /// The fields an edit may name: all of the shape's but the ID, the friends (`/_admin/friendships`) and
    /// the exported password hash.
    static let editable = Field.allCases.filter { ![.id, .friends, .passwordHash].contains($0) }

    /// `fields` of `new` replace the user's (a nil value removes the field); a 400 ``AdminError`` names an
    /// empty edit or a field that cannot be changed.
    init(setting fields: [Field], to new: ProviderFixtures.User) throws(AdminError) {
        try Self.check(fields.map(\.rawValue))
        named = Self.editable.filter(fields.contains)
        self.new = new
    }

    /// Refuses an edit that names nothing, or a field an edit cannot change.
    private static func check(_ names: [String]) throws(AdminError) {
        let fields = editable.map(\.rawValue).joined(separator: ", ")
        guard !names.isEmpty else { throw AdminError.badRequest("Send the fields to change: \(fields).") }
        if let unknown = names.first(where: { Field(rawValue: $0).map(editable.contains) != true }) {
            throw AdminError.badRequest("\"\(unknown)\" cannot be changed here; the fields are \(fields).")
        }
    }

    /// Whether the edit names `field`.
    func names(_ field: Field) -> Bool { named.contains(field) }

    /// `user` with the named fields replaced.
    func applied(to user: ProviderFixtures.User) -> ProviderFixtures.User {
        var user = user
        for field in named {
            switch field {
            case .firstName: user.firstName = new.firstName
            case .middleName: user.middleName = new.middleName
            case .lastName: user.lastName = new.lastName
            case .email: user.email = new.email
            case .password: user.password = new.password
            case .birthday: user.birthday = new.birthday
            case .gender: user.gender = new.gender
            case .hometown: user.hometown = new.hometown
            case .location: user.location = new.location
            case .link: user.link = new.link
            case .pickable: user.pickable = new.pickable
            case .ageRange: user.ageRange = new.ageRange
            case .gamingName: user.gamingName = new.gamingName
            case .apps: user.apps = new.apps
            case .id, .friends, .passwordHash: break
            }
        }
        return user
    }

    /// Reads the edit from the admin API's JSON body (``AdminJSONBody/decode(_:accepting:bytes:)``): each
    /// named field's value type-checked as the shape's own decoding does, a required field removed (null)
    /// refused as missing. An ``AdminError`` names an empty edit or a field that cannot be changed.
    init(from decoder: any Decoder) throws {
        try Self.check(try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
        let container = try decoder.container(keyedBy: Field.self)
        let named = Field.allCases.filter(container.contains)
        var new = ProviderFixtures.User(firstName: "", lastName: "", email: "")
        // A required field removed is missing, as it would be from a new user.
        func required(_ field: Field) throws -> String {
            if try container.decodeNil(forKey: field) {
                throw DecodingError.keyNotFound(field, DecodingError.Context(codingPath: [], debugDescription: "removed"))
            }
            return try container.decode(String.self, forKey: field)
        }
        for field in named {
            switch field {
            case .firstName: new.firstName = try required(field)
            case .middleName: new.middleName = try container.decodeIfPresent(String.self, forKey: field)
            case .lastName: new.lastName = try required(field)
            case .email: new.email = try required(field)
            case .password: new.password = try container.decodeIfPresent(String.self, forKey: field)
            case .birthday: new.birthday = try container.decodeIfPresent(String.self, forKey: field)
            case .gender: new.gender = try container.decodeIfPresent(String.self, forKey: field)
            case .hometown: new.hometown = try container.decodeIfPresent(ProviderFixtures.Place.self, forKey: field)
            case .location: new.location = try container.decodeIfPresent(ProviderFixtures.Place.self, forKey: field)
            case .link: new.link = try container.decodeIfPresent(String.self, forKey: field)
            case .pickable: new.pickable = try container.decodeIfPresent(Bool.self, forKey: field)
            case .ageRange: new.ageRange = try container.decodeIfPresent(ProviderFixtures.User.AgeRange.self, forKey: field)
            case .gamingName: new.gamingName = try container.decodeIfPresent(String.self, forKey: field)
            case .apps: new.apps = try container.decodeIfPresent([String].self, forKey: field)
            case .id, .friends, .passwordHash: break
            }
        }
        (self.named, self.new) = (named, new)
    }

    /// Any key of the body, to name one the edit cannot change.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
