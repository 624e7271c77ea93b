import SQLKit

extension ProviderStore {
    /// A person's role on an app, if they have one.
    package func role(appID: String, userID: String) async throws(StoreError) -> AppRole? {
        try await run("app role") {
            try await db.select().column("role").from("ll_app_roles").where("app_id", .equal, appID).where("user_id", .equal, userID)
                .first(decodingColumn: "role", as: String.self).flatMap(AppRole.init(rawValue:))
        }
    }

    /// Whether a person may use an app (docs/BEHAVIOUR.md, section 2): anyone a Live app, only the people
    /// with a role on it a Development-mode one. Every route checks it: the dialog, code exchange, Graph
    /// calls, token extension, `debug_token`, the OIDC status and admin minting.
    package func admits(_ app: AppRecord, userID: String) async throws(StoreError) -> Bool {
        guard app.mode == .development else { return true }
        return try await role(appID: app.id, userID: userID) != nil
    }

    /// Everyone with a role on an app, by user ID.
    package func roles(appID: String) async throws(StoreError) -> [(userID: String, role: AppRole)] {
        try await run("app role") {
            try await db.select().columns("user_id", "role").from("ll_app_roles").where("app_id", .equal, appID).orderBy("user_id").all()
                .compactMap { row in
                    guard let role = AppRole(rawValue: try row.decode(column: "role", as: String.self)) else { return nil }
                    return (try row.decode(column: "user_id", as: String.self), role)
                }
        }
    }

    /// Gives a person a role on an app (replacing the one they had), in one statement: two changes at once
    /// (through two nodes) end with one of the two roles, where a delete then an insert let the second insert
    /// fail as a duplicate.
    package func setRole(appID: String, userID: String, role: AppRole) async throws(StoreError) {
        try await run("app role") {
            try await db.insert(into: "ll_app_roles").columns("app_id", "user_id", "role").values(appID, userID, role.rawValue)
                .onConflict(with: ["app_id", "user_id"]) { $0.set(excludedValueOf: "role") }.run()
        }
    }

    /// Takes a person's role on an app away; false when they had none.
    package func removeRole(appID: String, userID: String) async throws(StoreError) -> Bool {
        guard try await role(appID: appID, userID: userID) != nil else { return false }
        try await run("app role") {
            try await db.delete(from: "ll_app_roles").where("app_id", .equal, appID).where("user_id", .equal, userID).run()
        }
        return true
    }
}
