import LimitedLoginCore
import LimitedLoginJOSE
import Logging

/// Puts fixtures and the first-start demo data into the store.
struct FixtureLoader: Sendable {
    let store: ProviderStore
    /// Where imported signing keys are announced (``StateImport``); nil says nothing.
    var logger: Logger? = nil

    /// The demo app seeded on first start.
    static let demoAppID = "1000000000000001"

    /// Loads fixtures; apps and users whose ID (or email) exist already are left alone, so a restart
    /// with the same file changes nothing. One that another node makes meanwhile (two nodes starting at once
    /// on an empty PostgreSQL database both seed it) is left alone too, not an error. Returns how many apps
    /// and users it added.
    ///
    /// Every app and user the document names is checked first (``checkReferences(_:)``): a document refused
    /// for a name it does not know changes nothing.
    @discardableResult
    func load(_ fixtures: ProviderFixtures) async throws -> (apps: Int, users: Int) {
        try await checkReferences(fixtures)
        var added = (apps: 0, users: 0)
        var newApps: [String] = []
        for app in fixtures.apps where try await store.app(id: app.id) == nil {
            do {
                try await store.createApp(AppRecord(fixture: app, secret: RandomIdentifiers.appSecret()))
                added.apps += 1
                newApps.append(app.id)
            } catch {
                guard case .duplicate = error else { throw error }
            }
        }
        var idsByKey: [String: String] = [:]
        for user in fixtures.users {
            if let existing = try await store.userWithPasswordHash(email: user.email)?.0 {
                idsByKey[user.email.lowercased()] = existing.id
                if let id = user.id { idsByKey[id] = existing.id }
                continue
            }
            let id: String
            do {
                id = try await createUserAlone(user)
                added.users += 1
            } catch let error as StoreError {
                guard case .duplicate = error, let existing = try await store.userWithPasswordHash(email: user.email)?.0 else { throw error }
                id = existing.id
            }
            idsByKey[user.email.lowercased()] = id
            idsByKey[id] = id
            if let given = user.id { idsByKey[given] = id }
        }
        for user in fixtures.users {
            guard let id = idsByKey[user.email.lowercased()] else { continue }
            for friend in user.friends ?? [] {
                if let friendID = idsByKey[friend] ?? idsByKey[friend.lowercased()] {
                    try await store.addFriendship(id, friendID)
                } else if try await store.user(id: friend) != nil {
                    try await store.addFriendship(id, friend)
                } else {
                    throw FixturesError.invalid("user \(user.email) lists an unknown friend \"\(friend)\"")
                }
            }
        }
        // An app a file brings has the store's test users, as every app had before apps owned their test users
        // (a file of apps loaded into a store with the demo users lets them in); a user the file gives `apps`
        // belongs to those alone.
        if !newApps.isEmpty {
            let narrowed = Set(fixtures.users.filter { $0.apps != nil }.compactMap { idsByKey[$0.email.lowercased()] })
            for user in try await store.users() where !narrowed.contains(user.id) {
                try await store.addTestUser(user.id, toApps: newApps)
            }
        }
        // Roles name people by ID or email, so they follow the users.
        for app in fixtures.apps {
            for (person, name) in (app.roles ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let role = AppRole(rawValue: name) else { continue }
                var userID = idsByKey[person] ?? idsByKey[person.lowercased()]
                if userID == nil { userID = try await store.user(idOrEmail: person)?.id }
                guard let userID else {
                    throw FixturesError.invalid("app \(app.id) gives a role to an unknown user \"\(person)\"")
                }
                try await store.setRole(appID: app.id, userID: userID, role: role)
            }
        }
        try await StateImport(store: store, logger: logger).load(fixtures)
        // An export of a store emptied on purpose: this one stays empty too (the demo data is not seeded).
        if fixtures.emptied == true { try await store.setSetting(AdminStateController.emptiedSetting, to: "1") }
        return added
    }

    /// Reads, writes nothing: each friend, role holder, grant, app-scoped ID, access token and scenario names an
    /// app and a user the document or the store holds, each signing key reads, and each scenario's outcome
    /// parses; the first that does not is the error ``load(_:)`` would have stopped at, with what came before
    /// it already written.
    func checkReferences(_ fixtures: ProviderFixtures) async throws {
        let documentApps = Set(fixtures.apps.map(\.id))
        var documentUsers: Set<String> = []
        for user in fixtures.users {
            documentUsers.insert(user.email.lowercased())
            if let id = user.id { documentUsers.insert(id) }
        }
        func knownApp(_ id: String) async throws -> Bool {
            if documentApps.contains(id) { return true }
            return try await store.app(id: id) != nil
        }
        func knownUser(_ key: String, byEmailInStore: Bool) async throws -> Bool {
            if documentUsers.contains(key) || documentUsers.contains(key.lowercased()) { return true }
            return byEmailInStore ? try await store.user(idOrEmail: key) != nil : try await store.user(id: key) != nil
        }
        for user in fixtures.users {
            for friend in user.friends ?? [] where try await !knownUser(friend, byEmailInStore: false) {
                throw FixturesError.invalid("user \(user.email) lists an unknown friend \"\(friend)\"")
            }
            for app in user.apps ?? [] where try await !knownApp(app) {
                throw FixturesError.invalid("user \(user.email) names an unknown app \(app)")
            }
        }
        for app in fixtures.apps {
            for person in (app.roles ?? [:]).keys.sorted() where try await !knownUser(person, byEmailInStore: true) {
                throw FixturesError.invalid("app \(app.id) gives a role to an unknown user \"\(person)\"")
            }
        }
        func requireKnown(appID: String, userID: String, what: String) async throws {
            guard try await knownApp(appID) else { throw FixturesError.invalid("\(what) names an unknown app \(appID)") }
            guard try await knownUser(userID, byEmailInStore: false) else { throw FixturesError.invalid("\(what) names an unknown user \(userID)") }
        }
        for entry in fixtures.appScopedIDs ?? [] {
            try await requireKnown(appID: entry.appID, userID: entry.userID, what: "app-scoped ID \(entry.asid)")
        }
        for grant in fixtures.grants ?? [] { try await requireKnown(appID: grant.appID, userID: grant.userID, what: "a grant") }
        for token in fixtures.accessTokens ?? [] { try await requireKnown(appID: token.appID, userID: token.userID, what: "an access token") }
        for key in fixtures.signingKeys ?? [] {
            do { _ = try RS256PrivateKey(pem: key.privateKeyPEM) } catch {
                throw FixturesError.invalid("signing key \(key.kid) is unreadable: \(error.description)")
            }
        }
        for entry in fixtures.scenarios ?? [] {
            guard try await knownApp(entry.appID) else { throw FixturesError.invalid("a scenario names an unknown app \(entry.appID)") }
            if let userID = entry.userID, try await !knownUser(userID, byEmailInStore: false) {
                throw FixturesError.invalid("a scenario names an unknown user \(userID)")
            }
            guard case .object(let body) = entry.outcome.value else { throw FixturesError.invalid("a scenario's outcome must be an object") }
            if case .failure(let error) = Scenario.Outcome.parse(body) {
                throw FixturesError.invalid("a scenario for app \(entry.appID): \(error.message)")
            }
        }
    }

    /// Adds one user and their friendships with existing users (given by ID).
    func create(_ user: ProviderFixtures.User) async throws {
        let id = try await createUserAlone(user)
        for friend in user.friends ?? [] { try await store.addFriendship(id, friend) }
    }

    /// Stores a user (a random ID when none is given) as a test user of their apps (absent: every app the store
    /// holds now), and returns the ID. (An app a fixtures file brings gets the store's users in ``load(_:)``.)
    private func createUserAlone(_ user: ProviderFixtures.User) async throws -> String {
        let id = user.id ?? RandomIdentifiers.numericID()
        try await store.createUser(
            TestUserRecord(fixture: user, id: id), passwordHash: await PasswordHasher.storedHash(user.passwordHash, orHashing: user.password)
        )
        let apps: [String]
        if let given = user.apps { apps = given } else { apps = try await store.apps().map(\.id) }
        try await store.addTestUser(id, toApps: apps)
        return id
    }

    /// On an empty store: a demo app and three test users who are all friends (password `password`, and
    /// pickable: they are there to try the dialog with).
    func seedDemoDataIfEmpty() async throws -> Bool {
        guard try await store.holdsNoAppsOrUsers() else { return false }
        let users: [ProviderFixtures.User] = [
            Self.demoUser("Alice", "Example", "alice@example.com", "04/12/1990", "female", ["bob@example.com", "carol@example.com"]),
            Self.demoUser("Bob", "Example", "bob@example.com", "09/30/2004", "male", ["carol@example.com"]),
            Self.demoUser("Carol", "Example", "carol@example.com", "12/01/1985", "female", []),
        ]
        try await load(
            ProviderFixtures(
                apps: [.init(id: Self.demoAppID, secret: nil, name: "Demo App", redirectURIs: nil, businessID: nil)],
                users: users
            ))
        return true
    }

    private static func demoUser(
        _ first: String, _ last: String, _ email: String, _ birthday: String, _ gender: String, _ friends: [String]
    ) -> ProviderFixtures.User {
        ProviderFixtures.User(
            id: nil, firstName: first, middleName: nil, lastName: last, email: email, password: "password",
            birthday: birthday, gender: gender, hometown: .init(id: "110000000000001", name: "Springfield"),
            location: .init(id: "110000000000002", name: "Shelbyville"),
            link: "https://www.facebook.com/\(first.lowercased()).example", friends: friends, pickable: true
        )
    }
}
