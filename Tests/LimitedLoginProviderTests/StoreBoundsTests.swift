import Foundation
import LimitedLoginTestSupport
import SQLKit
import Testing

@testable import LimitedLoginProvider

/// What keeps a store's size bounded under many sign-ins: a person's sessions are capped, and used forms
/// are kept as small integer keys (carried over from the old table by `0007_compact_used_forms`).
@Suite("Store: bounded sessions and used forms")
struct StoreBoundsTests {
    @Test("a sign-in beyond a person's limit ends their oldest session only, also one this node had cached", arguments: StoreDialect.available)
    func sessionLimit(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            #expect(try await FixtureLoader(store: store).seedDemoDataIfEmpty())
            let alice = try #require(try await store.users().first { $0.email == "alice@example.com" }).id
            let bob = try #require(try await store.users().first { $0.email == "bob@example.com" }).id
            let bobs = try await store.createSession(userID: bob, lifetime: 3600)
            var alices: [String] = []
            for _ in 0..<ProviderStore.sessionsPerPerson {
                alices.append(try await store.createSession(userID: alice, lifetime: 3600))
            }
            // Read (and cached) before the limit is passed.
            #expect(try await store.sessionUserID(secret: alices[0]) == alice)
            let newest = try await store.createSession(userID: alice, lifetime: 3600)
            #expect(try await store.sessionUserID(secret: newest) == alice)
            let ended = try await store.sessionUserID(secret: alices[0])
            #expect(ended == nil, "the oldest of \(ProviderStore.sessionsPerPerson + 1) ended")
            for secret in alices.dropFirst() { #expect(try await store.sessionUserID(secret: secret) == alice) }
            #expect(try await store.sessionUserID(secret: bobs) == bob, "another person's session is not counted")
            let rows = try await store.db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("ll_sessions")
                .where("user_id", .equal, alice).first(decodingColumn: "n", as: Int.self)
            #expect(rows == ProviderStore.sessionsPerPerson)
        }
    }

    @Test("a migration whose record cannot be written leaves nothing half-made: the next run applies it whole", arguments: StoreDialect.available)
    func migrationIsAtomic(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            // Back to before 0012, and a record of it that cannot be written (as a full disk would refuse it).
            let (block, unblock) =
                dialect == .postgres
                ? (
                    "ALTER TABLE ll_schema_migrations ADD CONSTRAINT block_0012 CHECK (name <> '0012_revoked_access_tokens') NOT VALID",
                    "ALTER TABLE ll_schema_migrations DROP CONSTRAINT block_0012"
                )
                : (
                    "CREATE TRIGGER block_0012 BEFORE INSERT ON ll_schema_migrations BEGIN SELECT RAISE(ABORT, 'disk full'); END",
                    "DROP TRIGGER block_0012"
                )
            for statement in [
                "ALTER TABLE ll_access_tokens DROP COLUMN revoked",
                "DELETE FROM ll_schema_migrations WHERE name = '0012_revoked_access_tokens'",
                block,
            ] {
                try await store.db.raw(SQLQueryString(statement)).run()
            }
            await #expect(throws: (any Error).self) { try await StoreMigrations.run(on: store.db) }
            // The column went with the transaction, so the migration runs again cleanly.
            try await store.db.raw(SQLQueryString(unblock)).run()
            try await StoreMigrations.run(on: store.db)
            let names = try await store.db.select().column("name").from("ll_schema_migrations").all(decodingColumn: "name", as: String.self)
            #expect(names.contains("0012_revoked_access_tokens"))
            #expect(try await store.revokeAccessTokens(appID: "none", userID: "none") == 0, "the revoked column is there")
        }
    }

    @Test("used forms of the old table are still used after 0007_compact_used_forms", arguments: StoreDialect.available)
    func usedFormsCarriedOver(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            // Back to the table before 0007, with one form used in it.
            for statement in [
                "DROP TABLE ll_used_forms",
                "CREATE TABLE ll_used_form_tokens (token_hash TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
                "INSERT INTO ll_used_form_tokens (token_hash, expires_at) VALUES ('used-before', 9000000000)",
                "DELETE FROM ll_schema_migrations WHERE name = '0007_compact_used_forms'",
            ] {
                try await store.db.raw(SQLQueryString(statement)).run()
            }
            try await StoreMigrations.run(on: store.db)
            #expect(try await store.consumeFormToken(hash: "used-before", expiresAt: 9_000_000_000) == false, "still used")
            #expect(try await store.consumeFormToken(hash: "new", expiresAt: 9_000_000_000))
            #expect(try await store.consumeFormToken(hash: "new", expiresAt: 9_000_000_000) == false)
        }
    }
}
