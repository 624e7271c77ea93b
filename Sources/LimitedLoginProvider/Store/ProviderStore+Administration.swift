import SQLKit

extension ProviderStore {
    /// Removes an app with its grants, codes, access tokens and test-user memberships. App-scoped IDs are kept, so that an app
    /// registered again under the same ID sees the same people. Returns false for an unknown app.
    package func deleteApp(id: String) async throws(StoreError) -> Bool {
        guard try await app(id: id) != nil else { return false }
        // The app first: a grant saved after it is gone is not stored (``saveGrant(_:)``), and one saved just
        // before goes with the grants below.
        try await run("app \(id)") {
            try await db.delete(from: "ll_apps").where("id", .equal, id).run()
            try await db.delete(from: "ll_grants").where("app_id", .equal, id).run()
            try await db.delete(from: "ll_authorization_codes").where("app_id", .equal, id).run()
            try await db.delete(from: "ll_access_tokens").where("app_id", .equal, id).run()
            try await db.delete(from: "ll_app_test_users").where("app_id", .equal, id).run()
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

    /// What ``updateApp(_:from:)`` did.
    package enum AppUpdate: Sendable, Equatable {
        case saved
        case notFound
        /// A new secret was not written: the secret is no longer the one the edit read (another edit gave
        /// one meanwhile, whose answer is the secret that works). Nothing of this edit was written.
        case secretChangedMeanwhile
    }

    /// Writes an app's fields (all but its ID; with `original`, the app as the edit read it, only those that
    /// differ from it, so that another edit made at the same moment keeps its own). A new secret is written
    /// only over the secret the edit read (compare and set), so that of two new secrets at once the one
    /// answered is the one that works.
    package func updateApp(_ app: AppRecord, from original: AppRecord? = nil) async throws(StoreError) -> AppUpdate {
        guard try await self.app(id: app.id) != nil else { return .notFound }
        // Each column with its value, and whether the edit changed it.
        func column<Value: Encodable & Sendable & Equatable>(
            _ name: String, _ value: Value, _ old: (AppRecord) -> Value
        )
            -> (String, any Encodable & Sendable)?
        {
            guard let original, old(original) == value else { return (name, value) }
            return nil
        }
        let changed = [
            column("name", app.name) { $0.name },
            column("redirect_uris", app.redirectURIs.joined(separator: "\n")) { $0.redirectURIs.joined(separator: "\n") },
            column("secret", app.secret) { $0.secret },
            column("is_gaming", Int64(app.isGaming ? 1 : 0)) { Int64($0.isGaming ? 1 : 0) },
            column("url_scheme_suffixes", app.urlSchemeSuffixes.joined(separator: "\n")) { $0.urlSchemeSuffixes.joined(separator: "\n") },
            column("requires_appsecret_proof", Int64(app.requiresAppSecretProof ? 1 : 0)) { Int64($0.requiresAppSecretProof ? 1 : 0) },
            column("deauthorize_callback_url", app.deauthorizeCallbackURL ?? "") { $0.deauthorizeCallbackURL ?? "" },
            column("data_deletion_callback_url", app.dataDeletionCallbackURL ?? "") { $0.dataDeletionCallbackURL ?? "" },
            column("mode", app.mode.rawValue) { $0.mode.rawValue },
        ].compactMap { $0 }
        guard !changed.isEmpty else { return .saved }
        let secretRead = original.flatMap { $0.secret == app.secret ? nil : $0.secret }
        let written = try await run("app \(app.id)") {
            var update = db.update("ll_apps")
            for (name, value) in changed { update = update.set(name, to: value) }
            update = update.where("id", .equal, app.id)
            if let secretRead { update = update.where("secret", .equal, secretRead) }
            return try await update.returning("id").all().isEmpty == false
        }
        caches.apps.remove(app.id)
        if written { return .saved }
        return try await self.app(id: app.id, fresh: true) == nil ? .notFound : .secretChangedMeanwhile
    }

    /// Removes a test user with their friendships, grants, sessions, codes, tokens and apps. Returns false for an
    /// unknown user.
    package func deleteUser(id: String) async throws(StoreError) -> Bool {
        guard try await user(id: id) != nil else { return false }
        try await run("user \(id)") {
            // The user first: a membership added meanwhile through another node (``addTestUser(_:toApps:)``, which
            // inserts only while the user exists) either went in before, and goes with the rows below, or finds
            // no user.
            try await db.delete(from: "ll_users").where("id", .equal, id).run()
            try await db.delete(from: "ll_friendships").where("user_id", .equal, id).orWhere("friend_id", .equal, id).run()
            for table in ["ll_grants", "ll_sessions", "ll_authorization_codes", "ll_access_tokens", "ll_app_test_users"] {
                try await db.delete(from: table).where("user_id", .equal, id).run()
            }
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
                "ll_app_scoped_ids", "ll_app_test_users", "ll_app_roles", "ll_users", "ll_apps",
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
