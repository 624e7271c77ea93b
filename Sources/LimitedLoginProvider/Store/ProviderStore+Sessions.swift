import SQLKit

extension ProviderStore {
    /// Starts a browser session for a user and returns its secret (the cookie value). Only its hash is
    /// stored.
    package func createSession(userID: String, lifetime: Int64) async throws(StoreError) -> String {
        let secret = RandomIdentifiers.secret()
        let now = now()
        try await run("session") {
            try await db.insert(into: "ll_sessions").columns("id_hash", "user_id", "created_at", "expires_at")
                .values(RandomIdentifiers.storageHash(secret), userID, now, now + lifetime).run()
        }
        await purgeExpiredSessionsAndCodesIfDue(now: now)
        return secret
    }

    /// The user of a live session, or nil for an unknown or expired one.
    package func sessionUserID(secret: String) async throws(StoreError) -> String? {
        let hash = RandomIdentifiers.storageHash(secret)
        let now = now()
        if let cached = caches.sessions.value(for: hash) {
            return cached.expiresAt > now ? cached.userID : nil
        }
        let row = try await run("session") {
            try await db.select().columns("user_id", "expires_at").from("ll_sessions")
                .where("id_hash", .equal, hash).where("expires_at", .greaterThan, now)
                .first()
                .map { (try $0.decode(column: "user_id", as: String.self), try $0.decode(column: "expires_at", as: Int64.self)) }
        }
        guard let (userID, expiresAt) = row else { return nil }
        caches.sessions.store(.init(userID: userID, expiresAt: expiresAt), for: hash)
        return userID
    }

    /// Ends a session.
    package func deleteSession(secret: String) async throws(StoreError) {
        try await run("session") {
            try await db.delete(from: "ll_sessions").where("id_hash", .equal, RandomIdentifiers.storageHash(secret)).run()
        }
        caches.sessions.remove(RandomIdentifiers.storageHash(secret))
    }
}
