import LimitedLoginJOSE

/// A made-up test user: the console's "Generate a test user", and the sign-in page's "Add a test user",
/// which gives a name and an email and has the rest made up here. Pickable, with no password.
struct GeneratedPerson: Sendable, Equatable {
    var firstName: String
    var lastName: String
    var email: String
    var birthday: String
    var gender: String

    private static let firstNames = [
        "Ada", "Bea", "Chidi", "Dara", "Emil", "Farah", "Goran", "Hana", "Ines", "Jonas", "Kemal", "Lena", "Mateo", "Noor", "Olga", "Priya",
    ]
    private static let lastNames = [
        "Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Haddad", "Kowalski", "Ferreira", "Nakamura", "Ibrahim", "Jensen",
    ]

    /// A person with every field made up, their email unique enough for a test store.
    static func random() -> GeneratedPerson {
        let first = firstNames.randomElement() ?? "Test"
        let last = lastNames.randomElement() ?? "User"
        return GeneratedPerson(name: "\(first) \(last)", email: nil)
    }

    /// A person called `name` (first word the first name, the rest the last name), with `email` or one
    /// made from the name; birthday and gender made up.
    init(name: String, email: String?) {
        let words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        firstName = words.first ?? "Test"
        lastName = words.count > 1 ? words.dropFirst().joined(separator: " ") : "User"
        let local = (firstName + "." + lastName).lowercased().unicodeScalars
            .filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." }
        self.email = email ?? "\(String(String.UnicodeScalarView(local))).\(Int.random(in: 1000...9999))@example.com"
        birthday = String(format2: Int.random(in: 1...12)) + "/" + String(format2: Int.random(in: 1...28)) + "/" + String(Int.random(in: 1960...2005))
        gender = ["female", "male"].randomElement() ?? "female"
    }

    /// The admin API's body for creating this person (`POST /_admin/users`).
    var fixtureJSON: JSONValue {
        .object([
            "first_name": .string(firstName), "last_name": .string(lastName), "email": .string(email),
            "birthday": .string(birthday), "gender": .string(gender), "pickable": true,
        ])
    }

    var fixture: ProviderFixtures.User {
        ProviderFixtures.User(firstName: firstName, lastName: lastName, email: email, birthday: birthday, gender: gender, pickable: true)
    }
}

extension String {
    /// Two digits, zero-padded.
    fileprivate init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}
