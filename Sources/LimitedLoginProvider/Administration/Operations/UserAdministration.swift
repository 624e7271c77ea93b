import LimitedLoginCore

/// Test users: list, create, edit, delete (each named by ID or email).
extension AdminOperations {
    func users() async throws -> [AdminUser] {
        var users: [AdminUser] = []
        let apps = try await store.appsOfTestUsers()
        for user in try await store.users() where AdminCaller.current.maySee(userOfApps: apps[user.id] ?? []) {
            users.append(AdminUser(record: user, friends: try await store.friendIDs(of: user.id), apps: apps[user.id] ?? []))
        }
        return users
    }

    /// Refuses a list of apps that names one the store does not hold.
    private func requireApps(_ apps: [String]?) async throws {
        for app in apps ?? [] where try await store.app(id: app) == nil {
            throw AdminError.badRequest("The app \(app) does not exist: a test user belongs to existing apps (give their IDs).")
        }
    }

    /// A new test user in the fixtures file's shape (friends by ID or email); an ID is made when not given.
    func createUser(_ user: ProviderFixtures.User) async throws -> AdminUser {
        var user = user
        do { try ProviderFixtures(users: [user]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        var friendIDs: [String] = []
        for friend in user.friends ?? [] {
            // To a scoped credential, another team's user is no one to befriend (``visibleUser(_:)``).
            guard let found = try await visibleUser(friend) else {
                throw AdminError.badRequest("The friend \(friend) is not a test user (give an ID or an email).")
            }
            friendIDs.append(found.id)
        }
        if user.friends != nil { user.friends = friendIDs }
        try await requireApps(user.apps)
        try requireChangeable(userApps: user.apps ?? [], what: "A new test user (\"apps\")")
        if user.id == nil { user.id = RandomIdentifiers.numericID() }
        do {
            try await FixtureLoader(store: store).create(user)
        } catch let error as StoreError {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("A test user with this ID or email already exists.")
        }
        return try await storedUser(user.id ?? "")
    }

    /// The named fields replace the user's (a removed optional one goes; a `password` replaces theirs); the
    /// rest, their ID, friendships and grants stay. Checked as a new user is.
    func editUser(_ idOrEmail: String, changes: TestUserChanges) async throws -> AdminUser {
        // From the database (as editApp): a cached record written back could undo another node's change.
        guard let found = try await visibleUser(idOrEmail), let existing = try await store.user(id: found.id, fresh: true) else {
            throw AdminError.notFound("No test user with ID or email \(idOrEmail).")
        }
        try requireChangeable(userApps: try await store.appsOfTestUser(existing.id), what: "A test user changed here")
        let storedHash = try await store.userWithPasswordHash(email: existing.email)?.1
        var user = changes.applied(to: ProviderFixtures.User(record: existing, friends: nil))
        if !changes.names(.password) { user.passwordHash = storedHash }
        // Checked without the ID: it is not changed here, and a user an earlier version took with an ID the rule
        // now refuses stays editable.
        user.id = nil
        do { try ProviderFixtures(users: [user]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        user.id = existing.id
        if changes.names(.apps) {
            try await requireApps(user.apps)
            try requireChangeable(userApps: user.apps ?? [], what: "A test user's new \"apps\"")
        }
        let record = TestUserRecord(fixture: user, id: existing.id)
        do {
            try await store.updateUser(
                record, passwordHash: await PasswordHasher.storedHash(user.passwordHash, orHashing: user.password),
                from: (existing, storedHash))
        } catch {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("Another test user has the email \(user.email).")
        }
        if changes.names(.apps) { try await store.setTestUserApps(existing.id, to: user.apps ?? []) }
        return try await storedUser(existing.id)
    }

    /// Deletes the user named by ID or email; returns their ID.
    func deleteUser(_ idOrEmail: String) async throws -> String {
        guard let user = try await visibleUser(idOrEmail) else { throw AdminError.notFound("No test user with ID or email \(idOrEmail).") }
        try requireChangeable(userApps: try await store.appsOfTestUser(user.id), what: "A test user deleted here")
        guard try await store.deleteUser(id: user.id) else { throw AdminError.notFound("No test user with ID or email \(idOrEmail).") }
        return user.id
    }

    /// Makes two test users friends, or not (`friends: false`); each by ID or email.
    func setFriendship(_ first: String, _ second: String, friends: Bool) async throws {
        var ids: [String] = []
        for who in [first, second] {
            guard let user = try await store.user(idOrEmail: who) else { throw AdminError.notFound("No test user with ID or email \(who).") }
            ids.append(user.id)
        }
        guard ids[0] != ids[1] else { throw AdminError.badRequest("A test user cannot be their own friend.") }
        if friends { try await store.addFriendship(ids[0], ids[1]) } else { try await store.removeFriendship(ids[0], ids[1]) }
    }

    private func storedUser(_ id: String) async throws -> AdminUser {
        guard let stored = try await store.user(id: id) else { throw AdminError(.internalServerError, "The user \(id) was not stored.") }
        return AdminUser(record: stored, friends: try await store.friendIDs(of: id), apps: try await store.appsOfTestUser(id))
    }
}
