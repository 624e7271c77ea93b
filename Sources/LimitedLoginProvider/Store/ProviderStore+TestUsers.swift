import SQLKit

/// Which apps each test user belongs to (`ll_app_test_users`), as on the real service: a user is a test user of
/// the apps it was made for or added to, and an app's token reads and changes only its own test users
/// (docs/BEHAVIOUR.md, "Test users belong to apps").
extension ProviderStore {
    /// Makes a user a test user of these apps (those it already belongs to are left as they are). Apps that do
    /// not exist are skipped: the caller checks them first, and one deleted meanwhile keeps no member.
    package func addTestUser(_ userID: String, toApps appIDs: [String]) async throws(StoreError) {
        guard !appIDs.isEmpty else { return }
        try await run("test user \(userID)'s apps") {
            for appID in Set(appIDs).sorted() {
                // Only while the app and the user exist: a membership never outlives either (one statement, so a
                // delete through another node at the same moment cannot slip between the check and the insert).
                try await db.raw(
                    """
                    INSERT INTO ll_app_test_users (app_id, user_id)
                    SELECT a.id, u.id FROM ll_apps a, ll_users u WHERE a.id = \(bind: appID) AND u.id = \(bind: userID)
                    ON CONFLICT (app_id, user_id) DO NOTHING
                    """
                ).run()
            }
        }
    }

    /// Takes a user off one app's test users; false when they were not one.
    package func removeTestUser(_ userID: String, fromApp appID: String) async throws(StoreError) -> Bool {
        guard try await isTestUser(userID, ofApp: appID) else { return false }
        try await run("test user \(userID)'s apps") {
            try await db.delete(from: "ll_app_test_users").where("app_id", .equal, appID).where("user_id", .equal, userID).run()
        }
        return true
    }

    /// Makes the user's apps exactly these (the admin API's edit of `apps`).
    package func setTestUserApps(_ userID: String, to appIDs: [String]) async throws(StoreError) {
        let wanted = Set(appIDs)
        let current = Set(try await appsOfTestUser(userID))
        try await addTestUser(userID, toApps: Array(wanted.subtracting(current)))
        let leaving = current.subtracting(wanted).sorted()
        guard !leaving.isEmpty else { return }
        try await run("test user \(userID)'s apps") {
            for appID in leaving {
                try await db.delete(from: "ll_app_test_users").where("app_id", .equal, appID).where("user_id", .equal, userID).run()
            }
        }
    }

    /// Whether the user is a test user of the app.
    package func isTestUser(_ userID: String, ofApp appID: String) async throws(StoreError) -> Bool {
        try await run("test user \(userID)'s apps") {
            try await db.select().column("app_id").from("ll_app_test_users").where("app_id", .equal, appID)
                .where("user_id", .equal, userID).first() != nil
        }
    }

    /// The IDs of the apps a user is a test user of, in order.
    package func appsOfTestUser(_ userID: String) async throws(StoreError) -> [String] {
        try await run("test user \(userID)'s apps") {
            try await db.select().column("app_id").from("ll_app_test_users").where("user_id", .equal, userID)
                .orderBy("app_id").all(decodingColumn: "app_id", as: String.self)
        }
    }

    /// Every app's test users at once, by user ID (for lists of every user: one query, not one per user).
    package func appsOfTestUsers() async throws(StoreError) -> [String: [String]] {
        try await run("test users' apps") {
            var apps: [String: [String]] = [:]
            for row in try await db.select().columns("app_id", "user_id").from("ll_app_test_users").orderBy("app_id").all() {
                apps[try row.decode(column: "user_id", as: String.self), default: []].append(try row.decode(column: "app_id", as: String.self))
            }
            return apps
        }
    }
}
