import LimitedLoginJOSE

/// The people's roles on apps, which let them log in to an app in Development mode.
extension AdminOperations {
    /// An app's roles, by user ID.
    func roles(appID: String) async throws -> [(userID: String, role: AppRole)] {
        try requireTouchable(app: appID)
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        return try await store.roles(appID: appID)
    }

    /// Gives the person (ID or email) a role on the app: `admin`, `developer` or `tester`.
    func setRole(appID: String, user: String, role name: String) async throws -> (userID: String, role: AppRole) {
        try requireTouchable(app: appID)
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        guard let person = try await visibleUser(user) else { throw AdminError.notFound("No test user with ID or email \(user).") }
        guard let role = AppRole(rawValue: name) else { throw AdminError.badRequest("The role \"\(name)\" must be admin, developer or tester.") }
        try await store.setRole(appID: appID, userID: person.id, role: role)
        return (person.id, role)
    }

    /// Takes the person's role on the app away.
    func removeRole(appID: String, user: String) async throws {
        try requireTouchable(app: appID)
        guard let person = try await store.user(idOrEmail: user) else { throw AdminError.notFound("No test user with ID or email \(user).") }
        guard try await store.removeRole(appID: appID, userID: person.id) else {
            throw AdminError.notFound("\(person.email) has no role on app \(appID).")
        }
    }

    /// The app's roles become exactly `lines`, each `<ID or email> <role>` (the console's form); every line is
    /// checked before anything changes.
    func replaceRoles(appID: String, lines: [String]) async throws {
        try await replaceRoles(appID: appID, with: try await roles(appID: appID, lines: lines))
    }

    /// The roles `lines` give, by user ID, each line checked; nothing is written.
    func roles(appID: String, lines: [String]) async throws -> [String: AppRole] {
        try requireTouchable(app: appID)
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        var wanted: [String: AppRole] = [:]
        for line in lines {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard words.count == 2, let role = AppRole(rawValue: words[1].lowercased()) else {
                throw AdminError.badRequest("Each role line is a test user's email or ID, then admin, developer or tester: \"\(line)\" is not.")
            }
            guard let person = try await store.user(idOrEmail: words[0]) else {
                throw AdminError.notFound("No test user with ID or email \(words[0]).")
            }
            wanted[person.id] = role
        }
        return wanted
    }

    /// The app's roles become exactly `wanted` (from ``roles(appID:lines:)``).
    func replaceRoles(appID: String, with wanted: [String: AppRole]) async throws {
        try requireTouchable(app: appID)
        for (userID, _) in try await store.roles(appID: appID) where wanted[userID] == nil {
            _ = try await store.removeRole(appID: appID, userID: userID)
        }
        for (userID, role) in wanted { try await store.setRole(appID: appID, userID: userID, role: role) }
    }
}
