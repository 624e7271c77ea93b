import SQLKit

extension ProviderStore {
    /// Starts a browser session for a user and returns its secret (the cookie value). Only its hash is
    /// stored.
    public func createSession(userID: String, lifetime: Int64) async throws(StoreError) -> String {
        let secret = RandomIdentifiers.secret()
        let now = ProviderTime.now()
        try await run("session") {
            try await db.insert(into: "ll_sessions").columns("id_hash", "user_id", "created_at", "expires_at")
                .values(RandomIdentifiers.storageHash(secret), userID, now, now + lifetime).run()
        }
        return secret
    }

    /// The user of a live session, or nil for an unknown or expired one.
    public func sessionUserID(secret: String) async throws(StoreError) -> String? {
        try await run("session") {
            try await db.select().column("user_id").from("ll_sessions")
                .where("id_hash", .equal, RandomIdentifiers.storageHash(secret))
                .where("expires_at", .greaterThan, ProviderTime.now())
                .first(decodingColumn: "user_id", as: String.self)
        }
    }

    /// Ends a session.
    public func deleteSession(secret: String) async throws(StoreError) {
        try await run("session") {
            try await db.delete(from: "ll_sessions").where("id_hash", .equal, RandomIdentifiers.storageHash(secret)).run()
        }
    }
}
