import SQLKit
import Synchronization

/// When a store last deleted its expired sessions and authorization codes, so that the writes that add
/// them purge at most once per ``interval`` (per process; on a shared database each node purges on its
/// own schedule, and a second purge finds nothing).
final class ExpiryPurgeSchedule: Sendable {
    /// The least time between two purges, in seconds: a busy store holds at most about this long's worth of
    /// expired rows beyond their lifetime, and a purge reads only the expired rows (`expires_at` is indexed).
    static let interval: Int64 = 10

    /// The time from which the next purge is due (0: the first write purges).
    private let nextDue = Atomic<Int64>(0)

    init() {}

    /// True for exactly one caller once a purge is due at `now`, which then owns it.
    func claim(now: Int64) -> Bool {
        let due = nextDue.load(ordering: .relaxed)
        guard now >= due else { return false }
        return nextDue.compareExchange(expected: due, desired: now + Self.interval, ordering: .relaxed).exchanged
    }
}

extension ProviderStore {
    /// Deletes the sessions and authorization codes that expired before `now`: neither can be used any
    /// more (a session is read only while `expires_at` is ahead; a code is refused once expired), and
    /// without this an in-memory store, or a long-running file, would keep every one ever made.
    package func purgeExpiredSessionsAndCodes(now: Int64) async throws(StoreError) {
        try await run("session") {
            try await db.delete(from: "ll_sessions").where("expires_at", .lessThan, now).run()
        }
        try await run("authorization code") {
            try await db.delete(from: "ll_authorization_codes").where("expires_at", .lessThan, now).run()
        }
    }

    /// Purges when one is due (see ``ExpiryPurgeSchedule``); called after the writes that add sessions and
    /// codes. A failed purge is left to the next one: the write it follows has succeeded.
    func purgeExpiredSessionsAndCodesIfDue(now: Int64) async {
        guard caches.expiryPurge.claim(now: now) else { return }
        try? await purgeExpiredSessionsAndCodes(now: now)
    }
}
