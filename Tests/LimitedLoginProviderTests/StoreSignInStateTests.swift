import Foundation
import LimitedLoginCore
import LimitedLoginTestSupport
import SQLKit
import Testing

@testable import LimitedLoginProvider

/// What the store keeps for the sign-in limits and single-use forms, on each dialect, and the
/// `0002_sign_in_hardening` migration on a store that predates it.
@Suite("Store: sign-in attempts, used form tokens, pickable users")
struct StoreSignInStateTests {
    @Test("failures count up in a window, read back within it, start afresh after it, are cleared and purged", arguments: StoreDialect.available)
    func attempts(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            let now: Int64 = 1_000_000
            #expect(try await store.countSignInFailure(key: "a", window: 60, now: now) == SignInAttemptCount(attempts: 1, windowStart: now))
            #expect(try await store.countSignInFailure(key: "a", window: 60, now: now + 59) == SignInAttemptCount(attempts: 2, windowStart: now))
            #expect(try await store.countSignInFailure(key: "b", window: 60, now: now + 1) == SignInAttemptCount(attempts: 1, windowStart: now + 1))
            #expect(try await store.signInFailures(key: "a", window: 60, now: now + 59) == SignInAttemptCount(attempts: 2, windowStart: now))
            #expect(
                try await store.signInFailures(key: "a", window: 60, now: now + 60) == SignInAttemptCount(attempts: 0, windowStart: now + 60),
                "a window that has ended counts nothing")
            #expect(try await store.signInFailures(key: "never", window: 60, now: now) == SignInAttemptCount(attempts: 0, windowStart: now))
            #expect(try await store.countSignInFailure(key: "a", window: 60, now: now + 60) == SignInAttemptCount(attempts: 1, windowStart: now + 60))
            try await store.clearSignInAttempts(key: "a")
            #expect(try await store.countSignInFailure(key: "a", window: 60, now: now + 61) == SignInAttemptCount(attempts: 1, windowStart: now + 61))
            try await store.purgeSignInAttempts(before: now + 61)
            #expect(
                try await store.countSignInFailure(key: "b", window: 600, now: now + 62) == SignInAttemptCount(attempts: 1, windowStart: now + 62),
                "b's counter (window from now + 1) was purged")
            #expect(try await store.countSignInFailure(key: "a", window: 600, now: now + 62).attempts == 2, "a's was kept")
        }
    }

    @Test("twenty failures counted at once get the counts 1 to 20", arguments: StoreDialect.available)
    func concurrentAttempts(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            let counts = try await withThrowingTaskGroup(of: Int64.self) { group in
                for _ in 0..<20 { group.addTask { try await store.countSignInFailure(key: "k", window: 60, now: 5_000).attempts } }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            #expect(counts.sorted() == Array(1...20))
        }
    }

    @Test("a form token is consumed once, also when ten requests post it at once; expired ones are purged", arguments: StoreDialect.available)
    func formTokens(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            #expect(try await store.consumeFormToken(hash: "h1", expiresAt: 2_000))
            #expect(try await store.consumeFormToken(hash: "h1", expiresAt: 2_000) == false)
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { try await store.consumeFormToken(hash: "h2", expiresAt: 3_000) } }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)
            #expect(try await store.usedFormsHorizon() == 0)
            try await store.purgeUsedFormTokens(settled: 2_500)
            #expect(try await store.usedFormsHorizon() == 2_500, "the horizon is recorded before anything is forgotten")
            #expect(try await store.consumeFormToken(hash: "h1", expiresAt: 2_000), "h1 expired and was purged")
            #expect(try await store.consumeFormToken(hash: "h2", expiresAt: 3_000) == false, "h2 is still kept")
            // Within a minute of the last horizon nothing new is recorded (a write a minute at most), and a
            // horizon never goes back, even when a node with an earlier clock records one.
            try await store.purgeUsedFormTokens(settled: 2_530)
            #expect(try await store.usedFormsHorizon() == 2_500)
            try await store.purgeUsedFormTokens(settled: 4_000)
            #expect(try await store.usedFormsHorizon() == 4_000)
            #expect(try await store.consumeFormToken(hash: "h2", expiresAt: 3_000), "h2 was purged at the new horizon")
        }
    }

    @Test("users keep their pickable flag and optional password; the picker's query pages and searches", arguments: StoreDialect.available)
    func pickableUsers(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            try await store.createUser(
                TestUserRecord(id: "1", firstName: "Ann", middleName: "Q", lastName: "Lee", email: "ann@example.com", pickable: true),
                passwordHash: nil)
            try await store.createUser(
                TestUserRecord(id: "2", firstName: "Ben", lastName: "Lee", email: "ben_x@example.com"), passwordHash: PasswordHasher.hash("pw"))
            try await store.createUser(
                TestUserRecord(id: "3", firstName: "Cy", lastName: "Lee", email: "cy%@example.com", pickable: true),
                passwordHash: PasswordHasher.hash("pw"))
            #expect(try await store.user(id: "1")?.pickable == true)
            #expect(try await store.user(id: "2")?.pickable == false)
            #expect(try await store.userWithPasswordHash(email: "ann@example.com")?.1 == nil)
            #expect(try await store.userWithPasswordHash(email: "ben_x@example.com")?.1 != nil)
            try await store.createApp(AppRecord(id: "A", secret: "a", name: "A"))
            try await store.createApp(AppRecord(id: "B", secret: "b", name: "B"))
            for id in ["1", "2", "3"] { try await store.addTestUser(id, toApps: ["A"]) }
            #expect(try await store.pickableUsers(forApp: "A", matching: nil, limit: 10).map(\.id) == ["1", "3"])
            #expect(try await store.pickableUsers(forApp: "A", matching: nil, limit: 1).map(\.id) == ["1"])
            #expect(try await store.pickableUsers(forApp: "A", matching: "LEE", limit: 10).map(\.id) == ["1", "3"])
            #expect(try await store.pickableUsers(forApp: "A", matching: "ann q lee", limit: 10).map(\.id) == ["1"])
            #expect(try await store.pickableUsers(forApp: "A", matching: "3", limit: 10).map(\.id) == ["3"])
            #expect(try await store.pickableUsers(forApp: "A", matching: "%", limit: 10).map(\.id) == ["3"], "% is a character, not a wildcard")
            #expect(
                try await store.pickableUsers(forApp: "A", matching: "_", limit: 10).map(\.id) == [],
                "Ben (ben_x) is not pickable; _ matches only itself")
            // Another app's picker offers none of A's test users, but the people with a role on it.
            #expect(try await store.pickableUsers(forApp: "B", matching: nil, limit: 10).map(\.id) == [])
            try await store.setRole(appID: "B", userID: "3", role: .tester)
            #expect(try await store.pickableUsers(forApp: "B", matching: nil, limit: 10).map(\.id) == ["3"])
            try await store.addTestUser("1", toApps: ["B", "no-such-app"])
            #expect(try await store.pickableUsers(forApp: "B", matching: nil, limit: 10).map(\.id) == ["1", "3"])
            #expect(try await store.appsOfTestUser("1") == ["A", "B"], "an unknown app is skipped")
            #expect(try await store.testUsers(ofApp: "B").map(\.id) == ["1"])
        }
    }

    @Test("migrating a store from before 0002: the seeded demo users stay pickable, other users are not")
    func migration() async throws {
        let path = temporaryDatabasePath()
        let store = try await ProviderStore.open(.sqliteFile(path: path), logger: TestFixtures.quietLogger)
        #expect(try await FixtureLoader(store: store).seedDemoDataIfEmpty())
        try await store.createUser(
            TestUserRecord(id: "9", firstName: "Old", lastName: "User", email: "old@example.com"), passwordHash: PasswordHasher.hash("pw"))
        try await store.createUser(
            TestUserRecord(
                id: "10", firstName: "Fake", lastName: "Alice", email: "alice@example.org", link: "https://www.facebook.com/alice.example"),
            passwordHash: PasswordHasher.hash("pw")
        )
        // Back to the schema before 0002 (SQLite drops a column since 3.35), without the later index on it.
        for statement in [
            "DROP INDEX ll_users_pickable_name", "DELETE FROM ll_schema_migrations WHERE name = '0011_pickable_users_by_name'",
            "DROP INDEX ll_users_pickable", "ALTER TABLE ll_users DROP COLUMN pickable", "DROP TABLE ll_sign_in_attempts",
            "DROP TABLE IF EXISTS ll_used_form_tokens", "DELETE FROM ll_schema_migrations WHERE name = '0002_sign_in_hardening'",
        ] {
            try await store.db.raw(SQLQueryString(statement)).run()
        }
        try await StoreMigrations.run(on: store.db)
        let users = try await store.users()
        #expect(users.filter(\.pickable).map(\.email).sorted() == ["alice@example.com", "bob@example.com", "carol@example.com"])
        #expect(try await store.consumeFormToken(hash: "after-migration", expiresAt: 1))
        await store.close()
    }
}
