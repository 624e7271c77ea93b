import Foundation
import LimitedLoginCore
import SQLKit

private struct UserRow: Codable, Sendable {
    var id: String
    var firstName: String
    var middleName: String?
    var lastName: String
    var email: String
    var passwordHash: String
    var birthday: String?
    var gender: String?
    var hometownId: String?
    var hometownName: String?
    var locationId: String?
    var locationName: String?
    var link: String?
    var createdAt: Int64
    var pickable: Int64
    var ageRangeMin: Int64?
    var ageRangeMax: Int64?
    var gamingName: String?

    /// `passwordHash` nil: a user without a password (stored as an empty hash, which no password matches).
    init(_ user: TestUserRecord, passwordHash: String?, createdAt: Int64) {
        id = user.id
        firstName = user.firstName
        middleName = user.middleName
        lastName = user.lastName
        email = user.email
        self.passwordHash = passwordHash ?? ""
        birthday = user.birthday
        gender = user.gender
        hometownId = user.hometown?.id
        hometownName = user.hometown?.name
        locationId = user.location?.id
        locationName = user.location?.name
        link = user.link
        self.createdAt = createdAt
        pickable = user.pickable ? 1 : 0
        ageRangeMin = user.ageRange?.min.map(Int64.init)
        ageRangeMax = user.ageRange?.max.map(Int64.init)
        gamingName = user.gamingName
    }

    var record: TestUserRecord {
        TestUserRecord(
            id: id, firstName: firstName, middleName: middleName, lastName: lastName, email: email,
            birthday: birthday, gender: gender,
            hometown: hometownId.flatMap { id in hometownName.flatMap { Location(id: id, name: $0) } },
            location: locationId.flatMap { id in locationName.flatMap { Location(id: id, name: $0) } },
            link: link, pickable: pickable != 0,
            ageRange: UserAgeRange(min: ageRangeMin.map { Int($0) }, max: ageRangeMax.map { Int($0) }), gamingName: gamingName
        )
    }

    /// The stored hash, or nil for a user without a password.
    var storedPasswordHash: String? { passwordHash.isEmpty ? nil : passwordHash }
}

extension ProviderStore {
    /// Adds a test user with an already hashed password (nil: the user has none, and cannot sign in with
    /// one); ``StoreError/duplicate(_:)`` when the ID or email is taken. Emails are stored lowercased.
    package func createUser(_ user: TestUserRecord, passwordHash: String?) async throws(StoreError) {
        var user = user
        user.email = user.email.lowercased()
        let row = UserRow(user, passwordHash: passwordHash, createdAt: now())
        try await run("a test user with id \(user.id) or email \(user.email)") {
            try await db.insert(into: "ll_users").model(row, keyEncodingStrategy: .convertToSnakeCase).run()
        }
        caches.users.remove(user.id)
    }

    /// Replaces a test user's profile and password hash (nil: no password), keeping their ID, creation
    /// time, friendships and grants; ``StoreError/duplicate(_:)`` when the new email is another user's. With
    /// `original` (the user and hash as the edit read them), only the columns that differ from it are written,
    /// so that another edit made at the same moment (through any node) keeps its own.
    package func updateUser(
        _ user: TestUserRecord, passwordHash: String?, from original: (user: TestUserRecord, passwordHash: String?)? = nil
    ) async throws(StoreError) {
        var user = user
        user.email = user.email.lowercased()
        let row = UserRow(user, passwordHash: passwordHash, createdAt: now())
        let old = original.map { read in
            var user = read.user
            user.email = user.email.lowercased()
            return UserRow(user, passwordHash: read.passwordHash, createdAt: 0)
        }
        var changed: [(String, any Encodable & Sendable)] = []
        func column<Value: Encodable & Sendable & Equatable>(_ name: String, _ value: KeyPath<UserRow, Value>) {
            if let old, old[keyPath: value] == row[keyPath: value] { return }
            changed.append((name, row[keyPath: value]))
        }
        column("first_name", \.firstName)
        column("middle_name", \.middleName)
        column("last_name", \.lastName)
        column("email", \.email)
        column("password_hash", \.passwordHash)
        column("birthday", \.birthday)
        column("gender", \.gender)
        column("hometown_id", \.hometownId)
        column("hometown_name", \.hometownName)
        column("location_id", \.locationId)
        column("location_name", \.locationName)
        column("link", \.link)
        column("pickable", \.pickable)
        column("age_range_min", \.ageRangeMin)
        column("age_range_max", \.ageRangeMax)
        column("gaming_name", \.gamingName)
        guard !changed.isEmpty else { return }
        let columns = changed
        try await run("a test user with email \(user.email)") {
            var update = db.update("ll_users")
            for (name, value) in columns { update = update.set(name, to: value) }
            try await update.where("id", .equal, user.id).run()
        }
        caches.users.remove(user.id)
    }

    /// The test user with this ID, or nil. `fresh`: read from the database, not from this node's cache (for an
    /// edit that writes the record back).
    package func user(id: String, fresh: Bool = false) async throws(StoreError) -> TestUserRecord? {
        if !fresh, let cached = caches.users.value(for: id) { return cached }
        let user = try await run("user \(id)") {
            try await db.select().column("*").from("ll_users").where("id", .equal, id)
                .first(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)?.record
        }
        if let user { caches.users.store(user, for: id) }
        return user
    }

    /// The user with this email (case-insensitive) and the stored password hash (nil when the user has
    /// no password), or nil.
    func userWithPasswordHash(email: String) async throws(StoreError) -> (TestUserRecord, String?)? {
        try await run("user by email") {
            try await db.select().column("*").from("ll_users").where("email", .equal, email.lowercased())
                .first(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)
                .map { ($0.record, $0.storedPasswordHash) }
        }
    }

    /// Up to `limit` users the sign-in page may offer to pick, by name (first, then last, ignoring case;
    /// the ID last, so that the order is total); with a search, only those
    /// whose ID is the search, or whose name or email contains it (case-insensitive).
    ///
    /// The page asks for one more than it shows, to know whether to say that there are more: it never
    /// reads every user, so its size and cost do not grow with the directory.
    ///
    /// Only the app's own test users and the people with a role on it: another team's test users are not
    /// offered.
    func pickableUsers(forApp appID: String, matching search: String?, limit: Int) async throws(StoreError) -> [TestUserRecord] {
        let search = search?.trimmingCharacters(in: .whitespaces) ?? ""
        return try await run("pickable users") {
            let query = db.select().column("*").from("ll_users").where("pickable", .equal, Int64(1))
                .where(
                    SQLQueryString(
                        "(id IN (SELECT user_id FROM ll_app_test_users WHERE app_id = \(bind: appID)) OR id IN (SELECT user_id FROM ll_app_roles WHERE app_id = \(bind: appID)))"
                    ))
            if !search.isEmpty {
                let pattern = "%" + Self.escapedForLike(search.lowercased()) + "%"
                query.where { group in
                    group.where("id", .equal, search)
                        .orWhere(SQLQueryString("lower(email) LIKE \(bind: pattern) ESCAPE '\\'"))
                        .orWhere(SQLQueryString("lower(first_name || ' ' || last_name) LIKE \(bind: pattern) ESCAPE '\\'"))
                        .orWhere(
                            SQLQueryString(
                                "lower(first_name || ' ' || middle_name || ' ' || last_name) LIKE \(bind: pattern) ESCAPE '\\'"
                            ))
                }
            }
            return try await query.orderBy(SQLFunction("lower", args: SQLColumn("first_name")))
                .orderBy(SQLFunction("lower", args: SQLColumn("last_name"))).orderBy("id").limit(limit)
                .all(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }

    /// `text` with LIKE's wildcards (`%`, `_`) and the escape character itself escaped by a backslash.
    static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Whether the store holds no app and no test user (one query, however many there are).
    func holdsNoAppsOrUsers() async throws(StoreError) -> Bool {
        try await run("apps and users") {
            try await db.raw("SELECT 1 AS found FROM ll_apps UNION ALL SELECT 1 AS found FROM ll_users LIMIT 1").first() == nil
        }
    }

    /// Every test user, oldest first.
    package func users() async throws(StoreError) -> [TestUserRecord] {
        try await run("users") {
            try await db.select().column("*").from("ll_users").orderBy("created_at").orderBy("id")
                .all(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }

    /// The oldest `limit` test users and how many there are in all, in two small queries: the banner's, which
    /// reading every user made take seconds on a store of 100,000 users.
    package func firstUsers(_ limit: Int) async throws(StoreError) -> (users: [TestUserRecord], count: Int) {
        try await run("users") {
            let users = try await db.select().column("*").from("ll_users").orderBy("created_at").orderBy("id").limit(limit)
                .all(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
            let count = try await db.raw("SELECT COUNT(*) AS n FROM ll_users").first(decodingColumn: "n", as: Int.self) ?? users.count
            return (users, count)
        }
    }

    /// An app's test users, oldest first.
    package func testUsers(ofApp appID: String) async throws(StoreError) -> [TestUserRecord] {
        try await run("test users of app \(appID)") {
            try await db.select().column("*").from("ll_users")
                .where(SQLQueryString("id IN (SELECT user_id FROM ll_app_test_users WHERE app_id = \(bind: appID))"))
                .orderBy("created_at").orderBy("id")
                .all(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }

    /// Makes two users friends (both directions); already friends is not an error.
    package func addFriendship(_ first: String, _ second: String) async throws(StoreError) {
        guard first != second else { return }
        try await run("friendship") {
            try await db.insert(into: "ll_friendships").columns("user_id", "friend_id")
                .values(first, second).values(second, first)
                .ignoringConflicts(with: ["user_id", "friend_id"]).run()
        }
        caches.grantsChanged()
    }

    /// The IDs of a user's friends.
    package func friendIDs(of userID: String) async throws(StoreError) -> [String] {
        try await run("friends") {
            try await db.select().column("friend_id").from("ll_friendships").where("user_id", .equal, userID)
                .orderBy("friend_id").all(decodingColumn: "friend_id", as: String.self)
        }
    }
}
