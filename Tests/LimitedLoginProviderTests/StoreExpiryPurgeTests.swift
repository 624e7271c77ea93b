import Foundation
import LimitedLoginTestSupport
import SQLKit
import Testing

@testable import LimitedLoginProvider

/// Expired sessions and authorization codes leave the store: on an SQLite file, in memory, and on
/// PostgreSQL when a test server is configured.
@Suite("Store: expired sessions and authorization codes are purged")
struct StoreExpiryPurgeTests {
    /// Every kind of store: SQLite file and PostgreSQL (when configured) from `StoreDialect`, and memory.
    static let locations: [String] = StoreDialect.available.map(\.rawValue) + ["memory"]

    private func withStore(_ kind: String, _ body: (ProviderStore) async throws -> Void) async throws {
        let location: StoreLocation
        if let dialect = StoreDialect(rawValue: kind) { location = try await dialect.freshLocation() } else { location = .sqliteMemory }
        let store = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        do { try await body(store) } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    private func rows(_ table: String, in store: ProviderStore) async throws -> Int {
        try await store.db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table)
            .first(decodingColumn: "n", as: Int.self) ?? -1
    }

    private func code(expiresAt: Int64) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            appID: "1111111111", userID: "100001", redirectURI: "https://app.example/callback", codeChallenge: nil,
            granted: [.publicProfile], nonce: "n", expiresAt: expiresAt
        )
    }

    @Test("a purge deletes what expired before now and keeps the rest", arguments: locations)
    func purgeKeepsLiveRecords(_ kind: String) async throws {
        try await withStore(kind) { store in
            let now = ProviderTime.now()
            // The first write purges (nothing yet); the next ones within the interval do not. The provider's
            // clock stands still, so that a busy machine taking longer than the interval changes nothing.
            let live = try await ProviderTime.$clock.withValue(ProviderClock(system: { now })) {
                let live = try await store.createSession(userID: "100001", lifetime: 3600)
                _ = try await store.createSession(userID: "100002", lifetime: -10)
                _ = try await store.createSession(userID: "100003", lifetime: -5)
                try await store.saveAuthorizationCode("expired-code", code(expiresAt: now - 5))
                try await store.saveAuthorizationCode("live-code", code(expiresAt: now + 600))
                return live
            }
            #expect(try await rows("ll_sessions", in: store) == 3)
            #expect(try await rows("ll_authorization_codes", in: store) == 2)

            try await store.purgeExpiredSessionsAndCodes(now: now)
            #expect(try await rows("ll_sessions", in: store) == 1)
            #expect(try await rows("ll_authorization_codes", in: store) == 1)
            #expect(try await store.sessionUserID(secret: live) == "100001")
            #expect(try await store.consumeAuthorizationCode("live-code")?.userID == "100001")
            #expect(try await store.consumeAuthorizationCode("expired-code") == nil)
        }
    }

    @Test("the writes that add sessions and codes purge by themselves, at most once every ten seconds", arguments: locations)
    func purgedOnWrite(_ kind: String) async throws {
        try await withStore(kind) { store in
            let now = ProviderTime.now()
            // The provider's clock stands still here, so that a busy machine taking more than the interval
            // between two writes changes nothing (issue #30: it failed a run under load).
            let standing = ProviderClock(system: { now })
            try await ProviderTime.$clock.withValue(standing) {
                // The first write of a process finds a purge due: its own expired session goes at once.
                _ = try await store.createSession(userID: "100001", lifetime: -10)
                #expect(try await rows("ll_sessions", in: store) == 0)
                // Within the interval, nothing more is purged.
                _ = try await store.createSession(userID: "100002", lifetime: -10)
                try await store.saveAuthorizationCode("expired-code", code(expiresAt: now - 5))
                #expect(try await rows("ll_sessions", in: store) == 1)
                #expect(try await rows("ll_authorization_codes", in: store) == 1)
            }
            // An interval later (the provider's clock moved), the next write purges both tables.
            let clock = ProviderClock(system: { now + ExpiryPurgeSchedule.interval })
            try await ProviderTime.$clock.withValue(clock) {
                try await store.saveAuthorizationCode("live-code", code(expiresAt: now + 600))
            }
            #expect(try await rows("ll_sessions", in: store) == 0)
            #expect(try await rows("ll_authorization_codes", in: store) == 1)
        }
    }

    @Test("the schedule gives a due purge to one caller")
    func scheduleClaims() {
        let schedule = ExpiryPurgeSchedule()
        #expect(schedule.claim(now: 1_000))
        #expect(!schedule.claim(now: 1_000))
        #expect(!schedule.claim(now: 1_000 + ExpiryPurgeSchedule.interval - 1))
        #expect(schedule.claim(now: 1_000 + ExpiryPurgeSchedule.interval))
    }
}
