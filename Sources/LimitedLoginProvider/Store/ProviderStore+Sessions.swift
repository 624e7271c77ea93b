import Foundation
import SQLKit
import Synchronization

extension ProviderStore {
    /// How many browsers a person stays signed in on: a sign-in beyond it ends the person's oldest
    /// session (docs/BEHAVIOUR.md, section 2). Without it a store kept a 30-day row for every sign-in of
    /// a test user, and a long run on `:memory:` grew without bound.
    package static let sessionsPerPerson = 100

    /// Starts a browser session for a user and returns its secret (the cookie value). Only its hash is
    /// stored. The user's sessions beyond the newest ``sessionsPerPerson`` end.
    package func createSession(userID: String, lifetime: Int64) async throws(StoreError) -> String {
        let secret = RandomIdentifiers.secret()
        let hash = RandomIdentifiers.storageHash(secret)
        let now = now()
        let order = Self.sessionOrder(now: now)
        try await run("session") {
            try await db.insert(into: "ll_sessions").columns("id_hash", "user_id", "created_at", "expires_at", "created_us")
                .values(hash, userID, now, now + lifetime, order).run()
            // The oldest beyond the limit, never the one just made (others may share its second).
            let oldest = try await db.select().column("id_hash").from("ll_sessions")
                .where("user_id", .equal, userID).where("id_hash", .notEqual, hash)
                .orderBy("created_us", .descending).orderBy("id_hash", .descending)
                .offset(Self.sessionsPerPerson - 1).limit(1000)
                .all(decodingColumn: "id_hash", as: String.self)
            guard !oldest.isEmpty else { return }
            try await db.delete(from: "ll_sessions").where("id_hash", .in, oldest).run()
            for ended in oldest { caches.sessions.remove(ended) }
        }
        await purgeExpiredSessionsAndCodesIfDue(now: now)
        return secret
    }

    /// When a session began, in microseconds on the provider's clock: its second, and the microseconds of the
    /// system's clock within it, never less than the last one this node gave (sign-ins in one second stay
    /// in order).
    private static func sessionOrder(now: Int64) -> Int64 {
        var system = timespec()
        clock_gettime(CLOCK_REALTIME, &system)
        let candidate = now * 1_000_000 + Int64(system.tv_nsec / 1000)
        return lastSessionOrder.withLock { last in
            last = max(last + 1, candidate)
            return last
        }
    }

    private static let lastSessionOrder = Mutex<Int64>(0)

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
