/// Which test users an app has: a new app has none (apps own their test users), and these add existing ones
/// to it or take them off, as the Graph API's `uid` + `owner_access_token` and `DELETE …?uid=` do for apps.
extension AdminOperations {
    /// The app's test users' IDs, oldest first.
    func testUsers(appID: String) async throws -> [String] {
        try requireTouchable(app: appID)
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        return try await store.testUsers(ofApp: appID).map(\.id)
    }

    /// Makes the person (ID or email) a test user of the app (already one: nothing changes); returns their ID.
    func addTestUser(appID: String, user: String) async throws -> String {
        try requireTouchable(app: appID)
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        guard let person = try await visibleUser(user) else { throw AdminError.notFound("No test user with ID or email \(user).") }
        try await store.addTestUser(person.id, toApps: [appID])
        return person.id
    }

    /// Takes the person off the app's test users (the user and their other apps stay).
    func removeTestUser(appID: String, user: String) async throws {
        try requireTouchable(app: appID)
        guard let person = try await store.user(idOrEmail: user) else { throw AdminError.notFound("No test user with ID or email \(user).") }
        guard try await store.removeTestUser(person.id, fromApp: appID) else {
            throw AdminError.notFound("\(person.email) is not a test user of app \(appID).")
        }
    }
}
