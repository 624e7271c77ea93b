import LimitedLoginCore
import SQLKit

private struct GrantRow: Codable, Sendable {
    var appId: String
    var userId: String
    var granted: String
    var declined: String
    var installed: Int64
    var updatedAt: Int64

    var record: GrantRecord {
        GrantRecord(
            appID: appId, userID: userId, granted: PermissionList.decode(granted),
            declined: PermissionList.decode(declined), installed: installed != 0, updatedAt: updatedAt
        )
    }
}

/// Permission sets as stored: sorted names joined by commas.
enum PermissionList {
    static func encode(_ permissions: Set<Permission>) -> String {
        permissions.map(\.name).sorted().joined(separator: ",")
    }

    static func decode(_ text: String) -> Set<Permission> {
        Set(text.split(separator: ",").map { Permission(name: String($0)) })
    }
}

extension ProviderStore {
    /// The app-scoped ID of a user in an app, made (randomly, once) on first use.
    ///
    /// Stable for (user, app) forever, also across an uninstall; different between apps.
    public func appScopedID(appID: String, userID: String) async throws(StoreError) -> String {
        try await run("app-scoped id") {
            let select = db.select().column("asid").from("ll_app_scoped_ids")
                .where("app_id", .equal, appID).where("user_id", .equal, userID)
            if let existing = try await select.first(decodingColumn: "asid", as: String.self) { return existing }
            try await db.insert(into: "ll_app_scoped_ids").columns("app_id", "user_id", "asid")
                .values(appID, userID, RandomIdentifiers.numericID(digits: 17))
                .ignoringConflicts(with: ["app_id", "user_id"]).run()
            guard let made = try await select.first(decodingColumn: "asid", as: String.self) else {
                throw StoreError.corrupt("app-scoped id of \(userID) in \(appID) vanished")
            }
            return made
        }
    }

    /// The user behind an app-scoped ID in an app, or nil.
    public func userID(forAppScopedID asid: String, appID: String) async throws(StoreError) -> String? {
        try await run("user of an app-scoped id") {
            try await db.select().column("user_id").from("ll_app_scoped_ids")
                .where("asid", .equal, asid).where("app_id", .equal, appID)
                .first(decodingColumn: "user_id", as: String.self)
        }
    }

    /// What a user granted an app, or nil when they never logged in to it.
    public func grant(appID: String, userID: String) async throws(StoreError) -> GrantRecord? {
        try await run("grant") {
            try await db.select().column("*").from("ll_grants")
                .where("app_id", .equal, appID).where("user_id", .equal, userID)
                .first(decoding: GrantRow.self, keyDecodingStrategy: .convertFromSnakeCase)?.record
        }
    }

    /// Stores a grant (installing the app), replacing any earlier one.
    public func saveGrant(_ grant: GrantRecord) async throws(StoreError) {
        try await run("grant") {
            try await db.insert(into: "ll_grants")
                .columns("app_id", "user_id", "granted", "declined", "installed", "updated_at")
                .values(
                    grant.appID, grant.userID, PermissionList.encode(grant.granted),
                    PermissionList.encode(grant.declined), Int64(grant.installed ? 1 : 0), grant.updatedAt
                )
                .onConflict(with: ["app_id", "user_id"]) {
                    $0.set(excludedValueOf: "granted").set(excludedValueOf: "declined")
                        .set(excludedValueOf: "installed").set(excludedValueOf: "updated_at")
                }
                .run()
        }
    }

    /// Ends a user's installation of an app: the grant stays on record but no longer counts. Returns
    /// false when the app was not installed.
    public func uninstall(appID: String, userID: String) async throws(StoreError) -> Bool {
        guard var grant = try await grant(appID: appID, userID: userID), grant.installed else { return false }
        grant.installed = false
        grant.updatedAt = ProviderTime.now()
        try await saveGrant(grant)
        return true
    }

    /// The app-scoped IDs (in `appID`) of the user's friends who have the app installed with
    /// `user_friends` granted (SPEC section 6), sorted.
    public func visibleFriendASIDs(userID: String, appID: String) async throws(StoreError) -> [String] {
        try await run("friends list") {
            let rows = try await db.raw("""
                SELECT a.asid AS asid, g.granted AS granted
                FROM ll_friendships f
                JOIN ll_grants g ON g.user_id = f.friend_id AND g.app_id = \(bind: appID)
                JOIN ll_app_scoped_ids a ON a.user_id = f.friend_id AND a.app_id = \(bind: appID)
                WHERE f.user_id = \(bind: userID) AND g.installed = \(bind: Int64(1))
                """).all()
            var asids: [String] = []
            for row in rows {
                let granted = PermissionList.decode(try row.decode(column: "granted", as: String.self))
                if granted.contains(.userFriends) { asids.append(try row.decode(column: "asid", as: String.self)) }
            }
            return asids.sorted()
        }
    }
}
