import SQLKit

/// The password checks in flight across the nodes of a shared database (``SignInThrottle``): each holds a
/// place under its limits in the store while it runs, so that a burst of guesses spread over several nodes is
/// held to the limit, not to the limit on each node. A node that dies mid-check leaves its places, which lapse
/// after ``signInCheckHold`` seconds; they are places, never failures.
extension ProviderStore {
    /// How long a place lasts at most. A check takes milliseconds, but a debug build on a loaded machine has
    /// taken most of a minute to get through forty at once (seen: places of 30 s lapsed mid-check and let more
    /// checks in); a crashed node's places hold a full limit's sign-ins back for no longer than this.
    static let signInCheckHold: Int64 = 300

    /// How far after a node's reading of the clock another node's window may begin and still count.
    static let signInClockSlack: Int64 = 5

    /// Takes a place for check `id` under every limit when, for each, the failures in the window plus the
    /// places held stay under it, and returns true; otherwise takes none and returns false. On PostgreSQL in
    /// one transaction holding an advisory lock per key, so that nodes take turns.
    /// The provider's time is read once the locks are held (a wait for them can be long under load).
    func holdSignInCheck(id: String, places: [SignInCheckGate.Place], window: Int64) async throws(StoreError) -> Bool {
        try await run("sign-in checks") {
            try await db.withSession { session in
                try await session.raw("BEGIN").run()
                do {
                    let held = try await Self.holdSignInCheck(id: id, places: places, window: window, on: session)
                    try await session.raw(held ? "COMMIT" : "ROLLBACK").run()
                    return held
                } catch {
                    try? await session.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
    }

    private static func holdSignInCheck(
        id: String, places: [SignInCheckGate.Place], window: Int64, on db: any SQLDatabase
    ) async throws -> Bool {
        for key in places.map(\.key).sorted() {
            try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: key)))").run()
        }
        let now = ProviderTime.now()
        try await db.delete(from: "ll_sign_in_checks").where("expires_at", .lessThanOrEqual, now).run()
        for place in places {
            // A window that began up to a few seconds after `now` counts: another node may have counted the
            // first failure after this node read the clock (seen under load: with `<= now`, every failure was
            // left out and twice the limit was checked). One further ahead (the clock was moved back) does
            // not, as in ``signInFailures(key:window:now:)``.
            let failures =
                try await db.select().column("attempts").from("ll_sign_in_attempts")
                .where("attempt_key", .equal, place.key).where("window_start", .greaterThan, now - window)
                .where("window_start", .lessThanOrEqual, now + signInClockSlack).first()
                .map { try $0.decode(column: "attempts", as: Int64.self) } ?? 0
            let held =
                try await db.raw("SELECT COUNT(*) AS held FROM ll_sign_in_checks WHERE attempt_key = \(bind: place.key)")
                .first().map { try $0.decode(column: "held", as: Int64.self) } ?? 0
            if failures + held >= Int64(place.limit) { return false }
        }
        for place in places {
            try await db.insert(into: "ll_sign_in_checks").columns("check_id", "attempt_key", "expires_at")
                .values(SQLBind(id), SQLBind(place.key), SQLBind(now + signInCheckHold)).run()
        }
        return true
    }

    /// Gives back the places check `id` holds.
    func releaseSignInCheck(id: String) async throws(StoreError) {
        try await run("sign-in checks") {
            try await db.delete(from: "ll_sign_in_checks").where("check_id", .equal, id).run()
        }
    }
}
