import Foundation
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// The store's behaviour, run on each dialect: SQLite, and PostgreSQL when `scripts/test` started one.
@Suite("Store")
struct StoreTests {
    private func openStore(_ location: StoreLocation = .sqliteMemory) async throws -> ProviderStore {
        let store = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        try await FixtureLoader(store: store).load(TestFixtures.fixtures)
        return store
    }

    private func openStore(_ dialect: StoreDialect) async throws -> ProviderStore {
        try await openStore(try await dialect.freshLocation())
    }

    @Test("the grant and friends list follow every write that changes them", arguments: StoreDialect.available)
    func grantCacheInvalidation(_ dialect: StoreDialect) async throws {
        let store = try await openStore(dialect)
        let app = TestFixtures.appID
        #expect(try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).grant == nil)

        let aliceGrant = GrantRecord(
            appID: app, userID: TestFixtures.alice, granted: [.publicProfile, .userFriends], declined: [], installed: true, updatedAt: 1)
        try await store.saveGrant(aliceGrant)
        #expect(try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).grant == aliceGrant)

        // Bob installs with user_friends, but has no ASID yet: not visible (the query joins on ASIDs).
        try await store.saveGrant(
            GrantRecord(appID: app, userID: TestFixtures.bob, granted: [.publicProfile, .userFriends], declined: [], installed: true, updatedAt: 2))
        #expect(try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).friendASIDs == [])
        let bobASID = try await store.appScopedID(appID: app, userID: TestFixtures.bob)
        #expect(try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).friendASIDs == [bobASID], "a new ASID invalidates")

        // Carol installs and gets an ASID, but is not Alice's friend... until she is.
        try await store.saveGrant(
            GrantRecord(appID: app, userID: TestFixtures.carol, granted: [.publicProfile, .userFriends], declined: [], installed: true, updatedAt: 3))
        let carolASID = try await store.appScopedID(appID: app, userID: TestFixtures.carol)
        let withCarol = try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).friendASIDs
        #expect(withCarol == [bobASID, carolASID].sorted(), "Alice and Carol are friends in the fixtures")

        #expect(try await store.uninstall(appID: app, userID: TestFixtures.bob))
        #expect(try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).friendASIDs == [carolASID])
        #expect(try await store.uninstall(appID: app, userID: TestFixtures.bob) == false, "already uninstalled")

        let dave = TestUserRecord(id: "100004", firstName: "Dave", lastName: "Gray", email: "dave@example.com")
        try await store.createUser(dave, passwordHash: PasswordHasher.hash("pw"))
        try await store.saveGrant(GrantRecord(appID: app, userID: dave.id, granted: [.userFriends], declined: [], installed: true, updatedAt: 4))
        let daveASID = try await store.appScopedID(appID: app, userID: dave.id)
        #expect(try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).friendASIDs == [carolASID])
        try await store.addFriendship(TestFixtures.alice, dave.id)
        #expect(
            try await store.grantAndVisibleFriends(appID: app, userID: TestFixtures.alice).friendASIDs == [carolASID, daveASID].sorted(),
            "a new friendship invalidates")
        await store.close()
    }

    @Test("a second process cannot open an SQLite file in use; the error says why")
    func exclusiveFile() async throws {
        let path = temporaryDatabasePath()
        let first = try await openStore(.sqliteFile(path: path))
        // Another connection in this process stands in for another process: SQLite locks per connection.
        do {
            let second = try await ProviderStore.open(.sqliteFile(path: path), logger: TestFixtures.quietLogger)
            await second.close()
            Issue.record("a second store opened a locked file")
        } catch {
            #expect(
                error
                    == .unavailable(
                        "SQLite file \(path) is in use by another provider process (an SQLite store serves one process; stop the other one, or give another --database)"
                    ))
        }
        await first.close()
        let reopened = try await ProviderStore.open(.sqliteFile(path: path), logger: TestFixtures.quietLogger)
        #expect(try await reopened.apps().count == 2, "closed, the file opens again with its data")
        await reopened.close()
    }

    @Test(
        "two first starts seeding one empty store at once (two nodes on a new PostgreSQL database) both succeed, and seed it once",
        arguments: StoreDialect.available)
    func concurrentSeeding(dialect: StoreDialect) async throws {
        let location = try await dialect.freshLocation()
        let store = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        // The other node: a second store on the same PostgreSQL database; on SQLite (one process), the same store.
        let other = dialect == .postgres ? try await ProviderStore.open(location, logger: TestFixtures.quietLogger) : store
        async let first = FixtureLoader(store: store).seedDemoDataIfEmpty()
        async let second = FixtureLoader(store: other).seedDemoDataIfEmpty()
        let seeded = try await [first, second]
        #expect(seeded.contains(true), "at least one of them found the store empty")
        #expect(try await store.apps().map(\.id) == [FixtureLoader.demoAppID])
        #expect(try await store.users().map(\.email).sorted() == ["alice@example.com", "bob@example.com", "carol@example.com"])
        if dialect == .postgres { await other.close() }
        await store.close()
    }

    @Test(
        "two nodes on one PostgreSQL database: a fresh read sees the other node's new secret at once, and app-scoped IDs are not kept",
        arguments: StoreDialect.available.filter { $0 == .postgres })
    func freshReadsAcrossNodes(dialect: StoreDialect) async throws {
        let location = try await dialect.freshLocation()
        let nodeA = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        let nodeB = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        try await FixtureLoader(store: nodeA).load(TestFixtures.fixtures)
        let before = try #require(try await nodeB.app(id: TestFixtures.appID))
        var rotated = try #require(try await nodeA.app(id: TestFixtures.appID))
        rotated.secret = "rotated-through-node-a"
        #expect(try await nodeA.updateApp(rotated) == .saved)
        #expect(try await nodeB.app(id: TestFixtures.appID, fresh: true)?.secret == "rotated-through-node-a")
        #expect(before.secret != "rotated-through-node-a")
        #expect(nodeB.caches.appScopedIDs.value(for: TestFixtures.appID + " " + TestFixtures.alice) == nil)
        _ = try await nodeB.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
        #expect(nodeB.caches.appScopedIDs.value(for: TestFixtures.appID + " " + TestFixtures.alice) == nil, "not kept on a shared database")
        await nodeB.close()
        await nodeA.close()
    }

    @Test("two edits of one app read at the same moment keep each other's changes: a new name beside a new secret", arguments: StoreDialect.available)
    func editsKeepEachOther(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            try await FixtureLoader(store: store).load(TestFixtures.fixtures)
            let original = try #require(try await store.app(id: TestFixtures.appID, fresh: true))
            var renamed = original
            renamed.name = "Renamed"
            var rotated = original
            rotated.secret = "rotated-secret"
            #expect(try await store.updateApp(renamed, from: original) == .saved)
            #expect(try await store.updateApp(rotated, from: original) == .saved)
            let stored = try #require(try await store.app(id: TestFixtures.appID, fresh: true))
            #expect(stored.name == "Renamed" && stored.secret == "rotated-secret", "\(stored.name), \(stored.secret)")
            // A second new secret made from the same read: refused, and nothing of its edit written.
            var again = original
            again.secret = "second-secret"
            again.name = "Not written"
            #expect(try await store.updateApp(again, from: original) == .secretChangedMeanwhile)
            let kept = try #require(try await store.app(id: TestFixtures.appID, fresh: true))
            #expect(kept.secret == "rotated-secret" && kept.name == "Renamed")
        }
    }

    @Test("the banner's users: the oldest few and the count, without reading every user (issue #58)", arguments: StoreDialect.available)
    func firstUsers(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            try await FixtureLoader(store: store).load(TestFixtures.fixtures)
            let every = try await store.users()
            let (first, count) = try await store.firstUsers(2)
            #expect(count == every.count && count > 2)
            #expect(first.map(\.id) == every.prefix(2).map(\.id))
        }
    }

    @Test(
        "two edits of one user read at the same moment keep each other's changes: a new name beside a new gender (issue #58)",
        arguments: StoreDialect.available)
    func userEditsKeepEachOther(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            try await FixtureLoader(store: store).load(TestFixtures.fixtures)
            let original = try #require(try await store.user(id: TestFixtures.alice, fresh: true))
            let hash = try await store.userWithPasswordHash(email: original.email)?.1
            var renamed = original
            renamed.firstName = "Alicia"
            var regendered = original
            regendered.gender = "female-edited"
            try await store.updateUser(renamed, passwordHash: hash, from: (original, hash))
            try await store.updateUser(regendered, passwordHash: hash, from: (original, hash))
            let stored = try #require(try await store.user(id: TestFixtures.alice, fresh: true))
            #expect(stored.firstName == "Alicia" && stored.gender == "female-edited", "\(stored.firstName), \(stored.gender ?? "nil")")
            #expect(try await store.userWithPasswordHash(email: original.email)?.1 == hash, "the password hash is kept")
        }
    }

    @Test(
        "two new secrets at once through two nodes of one PostgreSQL database: one is saved and answered, the other refused (issue #58)",
        .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
    func newSecretsThroughTwoNodes() async throws {
        let location = try await StoreDialect.postgres.freshLocation()
        let nodeA = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        let nodeB = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        try await FixtureLoader(store: nodeA).load(TestFixtures.fixtures)
        for round in 1...12 {
            let originalA = try #require(try await nodeA.app(id: TestFixtures.appID, fresh: true))
            let originalB = try #require(try await nodeB.app(id: TestFixtures.appID, fresh: true))
            var edited = (originalA, originalB)
            edited.0.secret = "secret-\(round)-a"
            edited.1.secret = "secret-\(round)-b"
            let (first, second) = edited
            async let one = nodeA.updateApp(first, from: originalA)
            async let other = nodeB.updateApp(second, from: originalB)
            let outcomes = try await [one, other]
            #expect(outcomes.filter { $0 == .saved }.count == 1 && outcomes.contains(.secretChangedMeanwhile), "round \(round): \(outcomes)")
            let stored = try #require(try await nodeA.app(id: TestFixtures.appID, fresh: true))
            #expect(stored.secret == (outcomes[0] == .saved ? first.secret : second.secret), "the answered secret is the stored one")
        }
        await nodeB.close()
        await nodeA.close()
    }

    @Test("duplicate apps and users are refused as duplicates; emails are case-insensitive", arguments: StoreDialect.available)
    func duplicates(_ dialect: StoreDialect) async throws {
        let store = try await openStore(dialect)
        do {
            try await store.createApp(AppRecord(id: TestFixtures.appID, secret: "x", name: "Again"))
            Issue.record("a duplicate app was stored")
        } catch {
            #expect(error == .duplicate("app \(TestFixtures.appID)"))
        }
        do {
            try await store.createUser(TestUserRecord(id: "999", firstName: "A", lastName: "B", email: "ALICE@example.com"), passwordHash: "x")
            Issue.record("a duplicate email was stored")
        } catch {
            #expect(error == .duplicate("a test user with id 999 or email alice@example.com"))
        }
        await store.close()
    }

    @Test("passwords are stored as salted PBKDF2 and checked exactly")
    func passwords() {
        let stored = PasswordHasher.hash("correct horse")
        #expect(stored.hasPrefix("pbkdf2-sha256$20000$"))
        #expect(stored != PasswordHasher.hash("correct horse"), "salted")
        #expect(PasswordHasher.verify("correct horse", against: stored))
        #expect(!PasswordHasher.verify("correct horse ", against: stored))
        #expect(!PasswordHasher.verify("correct horse", against: "pbkdf2-sha256$20000$$"))
        #expect(!PasswordHasher.verify("", against: "garbage"))
    }
}
