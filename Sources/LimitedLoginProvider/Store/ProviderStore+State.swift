import LimitedLoginCore
import SQLKit

/// The whole state as `export` writes it and `--fixtures` loads it back.
extension ProviderStore {
    /// Every grant, by app then user.
    package func allGrants() async throws(StoreError) -> [GrantRecord] {
        try await run("grants") {
            try await db.select().columns("app_id", "user_id", "granted", "declined", "installed", "updated_at", "messenger_page_id").from(
                "ll_grants"
            )
            .orderBy("app_id").orderBy("user_id").all().map { row in
                GrantRecord(
                    appID: try row.decode(column: "app_id", as: String.self), userID: try row.decode(column: "user_id", as: String.self),
                    granted: PermissionList.decode(try row.decode(column: "granted", as: String.self)),
                    declined: PermissionList.decode(try row.decode(column: "declined", as: String.self)),
                    installed: try row.decode(column: "installed", as: Int64.self) != 0,
                    updatedAt: try row.decode(column: "updated_at", as: Int64.self),
                    messengerPageID: try row.decode(column: "messenger_page_id", as: String?.self)
                )
            }
        }
    }

    /// Every app-scoped ID, by app then user.
    package func allAppScopedIDs() async throws(StoreError) -> [(appID: String, userID: String, asid: String)] {
        try await run("app-scoped ids") {
            try await db.select().columns("app_id", "user_id", "asid").from("ll_app_scoped_ids").orderBy("app_id").orderBy("user_id").all()
                .map {
                    (
                        try $0.decode(column: "app_id", as: String.self), try $0.decode(column: "user_id", as: String.self),
                        try $0.decode(column: "asid", as: String.self)
                    )
                }
        }
    }

    /// Stores an app-scoped ID unless the person already has one in the app (that one stays).
    func importAppScopedID(appID: String, userID: String, asid: String) async throws(StoreError) {
        try await run("app-scoped id \(asid)") {
            try await db.insert(into: "ll_app_scoped_ids").columns("app_id", "user_id", "asid")
                .values(appID, userID, asid).ignoringConflicts().run()
        }
        caches.appScopedIDs.removeAll()
        caches.grantsChanged()
    }

    /// The stored password hash of a user, nil for a user without a password.
    func passwordHash(userID: String) async throws(StoreError) -> String? {
        guard let user = try await user(id: userID) else { return nil }
        return try await userWithPasswordHash(email: user.email)?.1 ?? nil
    }
}
