import SQLKit

extension ProviderStore {
    /// Removes an app with its grants, codes and access tokens. App-scoped IDs are kept, so that an app
    /// registered again under the same ID sees the same people. Returns false for an unknown app.
    package func deleteApp(id: String) async throws(StoreError) -> Bool {
        guard try await app(id: id) != nil else { return false }
        try await run("app \(id)") {
            try await db.delete(from: "ll_grants").where("app_id", .equal, id).run()
            try await db.delete(from: "ll_authorization_codes").where("app_id", .equal, id).run()
            try await db.delete(from: "ll_access_tokens").where("app_id", .equal, id).run()
            try await db.delete(from: "ll_apps").where("id", .equal, id).run()
        }
        caches.apps.remove(id)
        caches.grantsChanged()
        return true
    }

    /// Moves an app to another business (nil: none). Returns the updated app, or nil when unknown.
    package func moveApp(id: String, toBusiness businessID: String?) async throws(StoreError) -> AppRecord? {
        guard var app = try await app(id: id) else { return nil }
        try await run("app \(id)") {
            try await db.update("ll_apps").set("business_id", to: businessID).where("id", .equal, id).run()
        }
        caches.apps.remove(id)
        app.businessID = businessID
        return app
    }

    /// Writes an app's changed fields (all but its ID); returns false for an unknown app.
    package func updateApp(_ app: AppRecord) async throws(StoreError) -> Bool {
        guard try await self.app(id: app.id) != nil else { return false }
        try await run("app \(app.id)") {
            try await db.update("ll_apps").set("name", to: app.name)
                .set("redirect_uris", to: app.redirectURIs.joined(separator: "\n")).set("secret", to: app.secret)
                .set("is_gaming", to: Int64(app.isGaming ? 1 : 0)).set("url_scheme_suffixes", to: app.urlSchemeSuffixes.joined(separator: "\n"))
                .set("requires_appsecret_proof", to: Int64(app.requiresAppSecretProof ? 1 : 0))
                .set("deauthorize_callback_url", to: app.deauthorizeCallbackURL ?? "")
                .set("data_deletion_callback_url", to: app.dataDeletionCallbackURL ?? "").set("mode", to: app.mode.rawValue)
                .where("id", .equal, app.id).run()
        }
        caches.apps.remove(app.id)
        return true
    }

    /// Removes a test user with their friendships, grants, sessions, codes and tokens. Returns false for an
    /// unknown user.
    package func deleteUser(id: String) async throws(StoreError) -> Bool {
        guard try await user(id: id) != nil else { return false }
        try await run("user \(id)") {
            try await db.delete(from: "ll_friendships").where("user_id", .equal, id).orWhere("friend_id", .equal, id).run()
            for table in ["ll_grants", "ll_sessions", "ll_authorization_codes", "ll_access_tokens"] {
                try await db.delete(from: table).where("user_id", .equal, id).run()
            }
            try await db.delete(from: "ll_users").where("id", .equal, id).run()
        }
        caches.users.remove(id)
        caches.sessions.removeAll()
        caches.grantsChanged()
        return true
    }

    /// Ends a friendship (both directions).
    package func removeFriendship(_ first: String, _ second: String) async throws(StoreError) {
        try await run("friendship") {
            try await db.delete(from: "ll_friendships")
                .where { $0.where("user_id", .equal, first).where("friend_id", .equal, second) }
                .orWhere { $0.where("user_id", .equal, second).where("friend_id", .equal, first) }
                .run()
        }
        caches.grantsChanged()
    }

    /// Removes every app, user, friendship, grant, session, code, token and app-scoped ID. Keys and
    /// secrets stay.
    package func reset() async throws(StoreError) {
        try await run("reset") {
            for table in [
                "ll_friendships", "ll_grants", "ll_sessions", "ll_authorization_codes", "ll_access_tokens",
                "ll_app_scoped_ids", "ll_users", "ll_apps",
            ] {
                try await db.delete(from: table).run()
            }
        }
        caches.apps.removeAll()
        caches.users.removeAll()
        caches.sessions.removeAll()
        caches.appScopedIDs.removeAll()
        caches.grants.removeAll()
        caches.grantsChanged()
    }
}
