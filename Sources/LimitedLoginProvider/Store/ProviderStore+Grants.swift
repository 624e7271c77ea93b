import LimitedLoginCore
import SQLKit

private struct GrantRow: Codable, Sendable {
    var appId: String
    var userId: String
    var granted: String
    var declined: String
    var installed: Int64
    var updatedAt: Int64
    var messengerPageId: String?

    var record: GrantRecord {
        GrantRecord(
            appID: appId, userID: userId, granted: PermissionList.decode(granted),
            declined: PermissionList.decode(declined), installed: installed != 0, updatedAt: updatedAt,
            messengerPageID: messengerPageId
        )
    }
}

/// Permission sets as stored: sorted names joined by commas.
enum PermissionList {
    static func encode(_ permissions: Set<Permission>) -> String {
        permissions.map(\.name).sorted().joined(separator: ",")
    }

    static func decode(_ text: String) -> Set<Permission> {
        Set(text.utf8.split(separator: UInt8(ascii: ",")).map { Permission(name: String(decoding: $0, as: UTF8.self)) })
    }

    /// True when the stored list holds `name`, without building the set.
    static func contains(_ text: String, _ name: String) -> Bool {
        text.utf8.split(separator: UInt8(ascii: ",")).contains { $0.elementsEqual(name.utf8) }
    }
}

extension ProviderStore {
    /// The app-scoped ID of a user in an app, made (randomly, once) on first use.
    ///
    /// Stable for (user, app) forever, also across an uninstall; different between apps.
    package func appScopedID(appID: String, userID: String) async throws(StoreError) -> String {
        let key = appID + " " + userID
        if let cached = caches.appScopedIDs.value(for: key) { return cached }
        let asid = try await run("app-scoped id") {
            let select = db.select().column("asid").from("ll_app_scoped_ids")
                .where("app_id", .equal, appID).where("user_id", .equal, userID)
            if let existing = try await select.first(decodingColumn: "asid", as: String.self) { return existing }
            try await db.insert(into: "ll_app_scoped_ids").columns("app_id", "user_id", "asid")
                .values(appID, userID, RandomIdentifiers.numericID(digits: 17))
                .ignoringConflicts(with: ["app_id", "user_id"]).run()
            // A new ASID can make a friend visible (the friends query joins on it).
            caches.grantsChanged()
            guard let made = try await select.first(decodingColumn: "asid", as: String.self) else {
                throw StoreError.corrupt("app-scoped id of \(userID) in \(appID) vanished")
            }
            return made
        }
        caches.appScopedIDs.store(asid, for: key)
        return asid
    }

    /// The user behind an app-scoped ID in an app, or nil.
    package func userID(forAppScopedID asid: String, appID: String) async throws(StoreError) -> String? {
        try await run("user of an app-scoped id") {
            try await db.select().column("user_id").from("ll_app_scoped_ids")
                .where("asid", .equal, asid).where("app_id", .equal, appID)
                .first(decodingColumn: "user_id", as: String.self)
        }
    }

    /// What a user granted an app, or nil when they never logged in to it.
    package func grant(appID: String, userID: String) async throws(StoreError) -> GrantRecord? {
        try await run("grant") {
            try await db.select().column("*").from("ll_grants")
                .where("app_id", .equal, appID).where("user_id", .equal, userID)
                .first(decoding: GrantRow.self, keyDecodingStrategy: .convertFromSnakeCase)?.record
        }
    }

    /// Stores a grant (installing the app), replacing any earlier one; nothing when the app is gone. A node
    /// that read the app from its cache just before another node deleted it would otherwise leave a grant
    /// that outlives the app, and a person already consented to an app registered again under its ID.
    package func saveGrant(_ grant: GrantRecord) async throws(StoreError) {
        try await run("grant") {
            try await db.raw(
                """
                INSERT INTO ll_grants (app_id, user_id, granted, declined, installed, updated_at, messenger_page_id) \
                SELECT \(bind: grant.appID), \(bind: grant.userID), \(bind: PermissionList.encode(grant.granted)), \
                \(bind: PermissionList.encode(grant.declined)), \(bind: Int64(grant.installed ? 1 : 0)), \(bind: grant.updatedAt), \
                \(bind: grant.messengerPageID) \
                WHERE EXISTS (SELECT 1 FROM ll_apps WHERE id = \(bind: grant.appID)) \
                ON CONFLICT (app_id, user_id) DO UPDATE SET granted = excluded.granted, declined = excluded.declined, \
                installed = excluded.installed, updated_at = excluded.updated_at, messenger_page_id = excluded.messenger_page_id
                """
            ).run()
        }
        caches.grantsChanged()
    }

    /// Stores a consent's grant only if the grant is still as `read` found it (nil: there was none), in one
    /// statement; false when another consent, revocation or uninstall (through any node) came in between, so
    /// that the caller reads it again and merges: two consents at once each keep their permissions.
    package func saveGrant(_ grant: GrantRecord, replacing read: GrantRecord?) async throws(StoreError) -> Bool {
        let saved = try await run("grant") {
            guard let read else {
                return try await db.raw(
                    """
                    INSERT INTO ll_grants (app_id, user_id, granted, declined, installed, updated_at, messenger_page_id) \
                    SELECT \(bind: grant.appID), \(bind: grant.userID), \(bind: PermissionList.encode(grant.granted)), \
                    \(bind: PermissionList.encode(grant.declined)), \(bind: Int64(grant.installed ? 1 : 0)), \(bind: grant.updatedAt), \
                    \(bind: grant.messengerPageID) \
                    WHERE EXISTS (SELECT 1 FROM ll_apps WHERE id = \(bind: grant.appID)) \
                    ON CONFLICT (app_id, user_id) DO NOTHING RETURNING app_id
                    """
                ).all().isEmpty == false
            }
            return try await db.update("ll_grants")
                .set("granted", to: PermissionList.encode(grant.granted)).set("declined", to: PermissionList.encode(grant.declined))
                .set("installed", to: Int64(grant.installed ? 1 : 0)).set("updated_at", to: grant.updatedAt)
                .set("messenger_page_id", to: grant.messengerPageID)
                .where("app_id", .equal, read.appID).where("user_id", .equal, read.userID)
                .where("installed", .equal, Int64(read.installed ? 1 : 0)).where("updated_at", .equal, read.updatedAt)
                .where("granted", .equal, PermissionList.encode(read.granted)).where("declined", .equal, PermissionList.encode(read.declined))
                .returning("app_id").first() != nil
        }
        if saved { caches.grantsChanged() }
        return saved
    }

    /// Changes an installed grant's permissions from `old`'s to `new`'s (and its `updatedAt`), in one statement
    /// that finds the grant as `old` was read: installed, with the same permissions. False when it changed since
    /// (an uninstall, another revocation, through this node or another), so that the caller reads it again
    /// instead of writing back what it read: a revocation beside an uninstall brought the installation back.
    package func changeGrantPermissions(from old: GrantRecord, to new: GrantRecord) async throws(StoreError) -> Bool {
        let changed = try await run("grant") {
            try await db.update("ll_grants")
                .set("granted", to: PermissionList.encode(new.granted)).set("declined", to: PermissionList.encode(new.declined))
                .set("updated_at", to: new.updatedAt)
                .where("app_id", .equal, old.appID).where("user_id", .equal, old.userID).where("installed", .equal, Int64(1))
                .where("granted", .equal, PermissionList.encode(old.granted)).where("declined", .equal, PermissionList.encode(old.declined))
                .returning("app_id")
                .first() != nil
        }
        if changed { caches.grantsChanged() }
        return changed
    }

    /// How ``changeGrantPermissions(reading:_:)`` ended.
    package enum GrantPermissionChange {
        /// Written: the grant as it is now.
        case changed(GrantRecord)
        /// The change had nothing to write: the grant as read.
        case unchanged(GrantRecord)
        /// Every read was changed by someone else before it could be written (eight times).
        case keptChanging
    }

    /// Reads a grant with `read`, lets `change` alter it (false: nothing to write), and writes it only if it
    /// is still installed and as read (``changeGrantPermissions(from:to:)``), reading it again when it is not.
    package func changeGrantPermissions(
        reading read: () async throws -> GrantRecord, _ change: (inout GrantRecord) throws -> Bool
    ) async throws -> GrantPermissionChange {
        for _ in 0..<8 {
            let before = try await read()
            var after = before
            guard try change(&after) else { return .unchanged(before) }
            if try await changeGrantPermissions(from: before, to: after) { return .changed(after) }
        }
        return .keptChanging
    }

    /// Ends a user's installation of an app: the grant stays on record but no longer counts. Returns
    /// false when the app was not installed. One statement decides: of two uninstalls at once (on one node
    /// or two), one ends the installation and the other finds it ended, so one deauthorize callback is posted.
    package func uninstall(appID: String, userID: String) async throws(StoreError) -> Bool {
        let updatedAt = now()
        let ended = try await run("grant") {
            try await db.update("ll_grants").set("installed", to: Int64(0)).set("updated_at", to: updatedAt)
                .where("app_id", .equal, appID).where("user_id", .equal, userID).where("installed", .equal, Int64(1))
                .returning("app_id")
                .first() != nil
        }
        guard ended else { return false }
        caches.grantsChanged()
        // The installation's access tokens die with it, and stay dead if the person installs the app again.
        try await revokeAccessTokens(appID: appID, userID: userID)
        return true
    }

    /// A user's grant for an app and the app-scoped IDs of their friends who are visible in it
    /// (``visibleFriendASIDs(userID:appID:)``), read in one statement: what a repeat login needs.
    package func grantAndVisibleFriends(appID: String, userID: String) async throws(StoreError) -> (grant: GrantRecord?, friendASIDs: [String]) {
        let key = appID + " " + userID
        // Read the generation before the database: a write that lands meanwhile bumps it after writing,
        // so what is read here is never kept under a generation that postdates a change it missed.
        let generation = caches.grantGeneration.load(ordering: .sequentiallyConsistent)
        if caches.isSoleWriter, let cached = caches.grants.value(for: key), cached.generation == generation {
            return (cached.grant, cached.friendASIDs)
        }
        let result = try await run("grant and friends") {
            let rows = try await db.raw(
                """
                SELECT 0 AS friend, g.granted AS granted, g.declined AS declined, g.installed AS installed,
                       g.updated_at AS updated_at, '' AS asid, g.messenger_page_id AS messenger_page_id
                FROM ll_grants g WHERE g.app_id = \(bind: appID) AND g.user_id = \(bind: userID)
                UNION ALL
                SELECT 1, g.granted, '', g.installed, 0, a.asid, NULL
                FROM ll_friendships f
                JOIN ll_grants g ON g.user_id = f.friend_id AND g.app_id = \(bind: appID)
                JOIN ll_app_scoped_ids a ON a.user_id = f.friend_id AND a.app_id = \(bind: appID)
                WHERE f.user_id = \(bind: userID) AND g.installed = \(bind: Int64(1))
                """
            ).all()
            var grant: GrantRecord?
            var friends: [String] = []
            for row in rows {
                let granted = try row.decode(column: "granted", as: String.self)
                if try row.decode(column: "friend", as: Int64.self) == 0 {
                    grant = GrantRecord(
                        appID: appID, userID: userID, granted: PermissionList.decode(granted),
                        declined: PermissionList.decode(try row.decode(column: "declined", as: String.self)),
                        installed: try row.decode(column: "installed", as: Int64.self) != 0,
                        updatedAt: try row.decode(column: "updated_at", as: Int64.self),
                        messengerPageID: try row.decode(column: "messenger_page_id", as: String?.self)
                    )
                } else if PermissionList.contains(granted, "user_friends") {
                    friends.append(try row.decode(column: "asid", as: String.self))
                }
            }
            return (grant, friends.sorted())
        }
        if caches.isSoleWriter {
            caches.grants.store(.init(grant: result.0, friendASIDs: result.1, generation: generation), for: key)
        }
        return result
    }

    /// The app-scoped IDs (in `appID`) of the user's friends who have the app installed with
    /// `user_friends` granted (docs/BEHAVIOUR.md, section 6), sorted.
    package func visibleFriendASIDs(userID: String, appID: String) async throws(StoreError) -> [String] {
        try await grantAndVisibleFriends(appID: appID, userID: userID).friendASIDs
    }
}

extension ProviderStore {
    /// The app and user behind an app-scoped ID, whatever the app (ASIDs are unique across apps).
    package func owner(ofAppScopedID asid: String) async throws(StoreError) -> (appID: String, userID: String)? {
        try await run("owner of an app-scoped id") {
            try await db.select().columns("app_id", "user_id").from("ll_app_scoped_ids").where("asid", .equal, asid)
                .first()
                .map { (try $0.decode(column: "app_id", as: String.self), try $0.decode(column: "user_id", as: String.self)) }
        }
    }
}

extension ProviderStore {
    /// Every grant on record (installed or not), by app then user: what the console and
    /// `GET /_admin/grants` list. `userID` narrows it to one person.
    package func grants(userID: String? = nil) async throws(StoreError) -> [GrantRecord] {
        try await run("grants") {
            var query = db.select().column("*").from("ll_grants")
            if let userID { query = query.where("user_id", .equal, userID) }
            return try await query.orderBy("app_id").orderBy("user_id")
                .all(decoding: GrantRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }

    /// Ends the data access of every access token a user holds for an app now (the 90-day window the
    /// Graph API checks), as if the window had run out. Returns how many tokens it changed.
    package func expireDataAccess(appID: String, userID: String) async throws(StoreError) -> Int {
        let now = now()
        return try await run("data access") {
            let tokens = try await db.select().column("token_hash").from("ll_access_tokens")
                .where("app_id", .equal, appID).where("user_id", .equal, userID)
                .where("data_access_expires_at", .greaterThan, now)
                .all().count
            try await db.update("ll_access_tokens").set("data_access_expires_at", to: now)
                .where("app_id", .equal, appID).where("user_id", .equal, userID)
                .where("data_access_expires_at", .greaterThan, now)
                .run()
            return tokens
        }
    }
}
