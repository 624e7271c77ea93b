import Foundation
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Every kind of record the store keeps, written and read back, on each dialect.
@Suite("Store operations")
struct StoreOperationsTests {
    /// A fresh store with the test fixtures loaded.
    private func withStore(_ dialect: StoreDialect, _ body: (ProviderStore) async throws -> Void) async throws {
        try await withFreshStore(dialect) { store in
            try await FixtureLoader(store: store).load(TestFixtures.fixtures)
            try await body(store)
        }
    }

    @Test("apps: create, read, list, move to another business, delete", arguments: StoreDialect.available)
    func apps(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let app = AppRecord(
                id: "3333333333", secret: "s3", name: "Third", businessID: "77", redirectURIs: ["https://a.example/cb", "https://b.example/cb"])
            try await store.createApp(app)
            #expect(try await store.app(id: "3333333333") == app)
            #expect(try await store.apps().map(\.id).sorted() == [TestFixtures.appID, TestFixtures.otherAppID, "3333333333"].sorted())
            let moved = try await store.moveApp(id: "3333333333", toBusiness: "88")
            #expect(moved?.businessID == "88")
            #expect(try await store.app(id: "3333333333")?.businessID == "88")
            #expect(try await store.deleteApp(id: "3333333333"))
            #expect(try await store.app(id: "3333333333") == nil)
            #expect(try await store.deleteApp(id: "3333333333") == false)
        }
    }

    @Test("users and friendships: create, list, befriend, unfriend, delete", arguments: StoreDialect.available)
    func users(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let dave = TestUserRecord(id: "100004", firstName: "Dave", lastName: "Gray", email: "Dave@Example.com")
            try await store.createUser(dave, passwordHash: PasswordHasher.hash("pw"))
            #expect(try await store.user(id: "100004")?.email == "dave@example.com")
            #expect(try await store.users().count == 4)
            try await store.addFriendship("100004", TestFixtures.alice)
            try await store.addFriendship(TestFixtures.alice, "100004")
            #expect(try await store.friendIDs(of: "100004") == [TestFixtures.alice])
            #expect(try await store.friendIDs(of: TestFixtures.alice).contains("100004"))
            try await store.removeFriendship(TestFixtures.alice, "100004")
            #expect(try await store.friendIDs(of: "100004") == [])
            #expect(try await store.deleteUser(id: "100004"))
            #expect(try await store.user(id: "100004") == nil)
        }
    }

    @Test("sessions: created live, read by their secret only, deleted", arguments: StoreDialect.available)
    func sessions(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let secret = try await store.createSession(userID: TestFixtures.bob, lifetime: 3600)
            #expect(try await store.sessionUserID(secret: secret) == TestFixtures.bob)
            #expect(try await store.sessionUserID(secret: secret + "x") == nil)
            let expired = try await store.createSession(userID: TestFixtures.bob, lifetime: -1)
            #expect(try await store.sessionUserID(secret: expired) == nil)
            try await store.deleteSession(secret: secret)
            #expect(try await store.sessionUserID(secret: secret) == nil)
        }
    }

    @Test("authorization codes are single-use even when two redeem at once", arguments: StoreDialect.available)
    func codes(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let record = AuthorizationCodeRecord(
                appID: TestFixtures.appID, userID: TestFixtures.alice, redirectURI: "https://app.example/callback",
                codeChallenge: "challenge", granted: [.publicProfile, .email], nonce: "n", expiresAt: ProviderTime.now() + 600
            )
            try await store.saveAuthorizationCode("code-1", record)
            let results = try await withThrowingTaskGroup(of: AuthorizationCodeRecord?.self) { group in
                for _ in 0..<8 { group.addTask { try await store.consumeAuthorizationCode("code-1") } }
                var all: [AuthorizationCodeRecord?] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(results.compactMap { $0 } == [record])
            #expect(try await store.consumeAuthorizationCode("code-1") == nil)
        }
    }

    @Test("access tokens and app-scoped IDs: stored by hash, one ASID per person and app even when made at once", arguments: StoreDialect.available)
    func tokensAndASIDs(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            try await store.saveGrant(
                GrantRecord(
                    appID: TestFixtures.appID, userID: TestFixtures.alice, granted: [.publicProfile], declined: [], installed: true, updatedAt: 1))
            let record = AccessTokenRecord(appID: TestFixtures.appID, userID: TestFixtures.alice, issuedAt: 1, expiresAt: 2, dataAccessExpiresAt: 3)
            try await store.saveAccessToken("EAAtoken", record)
            #expect(try await store.accessToken("EAAtoken") == record)
            #expect(try await store.accessToken("EAAother") == nil)

            let asids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await store.appScopedID(appID: TestFixtures.otherAppID, userID: TestFixtures.carol) } }
                var all: Set<String> = []
                for try await asid in group { all.insert(asid) }
                return all
            }
            #expect(asids.count == 1)
            let asid = try #require(asids.first)
            #expect(try await store.userID(forAppScopedID: asid, appID: TestFixtures.otherAppID) == TestFixtures.carol)
            #expect(try await store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.carol) != asid)
        }
    }

    @Test("signing keys: inserted, listed, retired, deleted; settings inserted once", arguments: StoreDialect.available)
    func keysAndSettings(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let key = SigningKeyRecord(keyID: "kid-test", privateKeyPEM: "pem", createdAt: 10, signsFrom: 20, retiredAt: nil)
            try await store.insertSigningKey(key)
            #expect(try await store.signingKeys().contains(key))
            try await store.retireSigningKey(keyID: "kid-test", at: 30)
            #expect(try await store.signingKeys().first { $0.keyID == "kid-test" }?.retiredAt == 30)
            try await store.deleteSigningKey(keyID: "kid-test")
            #expect(try await store.signingKeys().contains { $0.keyID == "kid-test" } == false)
            #expect(try await store.setting("test_setting", orInsert: { "first" }) == "first")
            #expect(try await store.setting("test_setting", orInsert: { "second" }) == "first")
        }
    }

    @Test(
        "rotations made at once, their statements interleaved, leave exactly one key unretired: the last one's",
        arguments: StoreDialect.available)
    func interleavedRotations(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let old = SigningKeyRecord(keyID: "kid-old", privateKeyPEM: "pem", createdAt: 10, signsFrom: 10, retiredAt: nil)
            let first = SigningKeyRecord(keyID: "kid-first", privateKeyPEM: "pem", createdAt: 100, signsFrom: 100, retiredAt: nil)
            let second = SigningKeyRecord(keyID: "kid-second", privateKeyPEM: "pem", createdAt: 100, signsFrom: 160, retiredAt: nil)
            // Both new keys are stored before either rotation retires anything (two admin calls at once).
            try await store.insertSigningKey(old)
            try await store.insertSigningKey(first)
            try await store.insertSigningKey(second)
            try await store.retireSigningKeys(exceptLatest: first.keyID, at: first.signsFrom)
            try await store.retireSigningKeys(exceptLatest: second.keyID, at: second.signsFrom)
            let retired = Dictionary(uniqueKeysWithValues: try await store.signingKeys().map { ($0.keyID, $0.retiredAt ?? -1) })
            #expect(
                retired == ["kid-old": 100, "kid-first": 160, "kid-second": -1], "the first signs from 100 to 160, then the second (-1: not retired)")

            // A later rotation that signs sooner cancels the scheduled one; the key it retires is not brought back.
            let third = SigningKeyRecord(keyID: "kid-third", privateKeyPEM: "pem", createdAt: 120, signsFrom: 120, retiredAt: nil)
            try await store.insertSigningKey(third)
            try await store.retireSigningKeys(exceptLatest: third.keyID, at: third.signsFrom)
            let after = Dictionary(uniqueKeysWithValues: try await store.signingKeys().map { ($0.keyID, $0.retiredAt ?? -1) })
            #expect(after == ["kid-old": 100, "kid-first": 120, "kid-second": 120, "kid-third": -1])

            // A rotation whose key a drop beside it removed changes nothing.
            try await store.deleteSigningKey(keyID: "kid-third")
            try await store.retireSigningKeys(exceptLatest: "kid-third", at: 130)
            #expect(try await store.signingKeys().map(\.retiredAt) == [100, 120, 120])
        }
    }

    @Test("two drop_previous rotations at once leave one key, not none", arguments: StoreDialect.available)
    func interleavedDrops(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            for keyID in ["kid-old", "kid-first", "kid-second"] {
                try await store.insertSigningKey(SigningKeyRecord(keyID: keyID, privateKeyPEM: "pem", createdAt: 10, signsFrom: 10, retiredAt: nil))
            }
            try await store.deleteSigningKeys(exceptLatest: "kid-first")
            try await store.deleteSigningKeys(exceptLatest: "kid-second")
            #expect(
                try await store.signingKeys().map(\.keyID) == ["kid-first"], "the second's key went with the first's drop; its own drop found it gone"
            )

            // A drop after a plain rotation that retired its key: the dropping key is the one left, not retired.
            try await store.insertSigningKey(SigningKeyRecord(keyID: "kid-third", privateKeyPEM: "pem", createdAt: 20, signsFrom: 20, retiredAt: nil))
            try await store.insertSigningKey(
                SigningKeyRecord(keyID: "kid-fourth", privateKeyPEM: "pem", createdAt: 20, signsFrom: 20, retiredAt: nil))
            try await store.retireSigningKeys(exceptLatest: "kid-third", at: 20)
            try await store.deleteSigningKeys(exceptLatest: "kid-fourth")
            let left = try await store.signingKeys()
            #expect(left.map(\.keyID) == ["kid-fourth"] && left.first?.retiredAt == nil, "\(left)")
        }
    }

    @Test(
        "rotations at once through two nodes of one PostgreSQL database leave exactly one key that signs",
        .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
    func rotationsThroughTwoNodes() async throws {
        try await withTwoNodes { first, second in try await rotateThroughBoth(first, second) }
    }

    /// Two stores (two nodes) on one fresh PostgreSQL database.
    private func withTwoNodes(_ body: (ProviderStore, ProviderStore) async throws -> Void) async throws {
        let location = try await StoreDialect.postgres.freshLocation()
        let first = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        let second: ProviderStore
        do { second = try await ProviderStore.open(location, logger: TestFixtures.quietLogger) } catch {
            await first.close()
            throw error
        }
        do { try await body(first, second) } catch {
            await first.close()
            await second.close()
            throw error
        }
        await first.close()
        await second.close()
    }

    @Test(
        "two nodes starting at once on an empty PostgreSQL database store one first key between them",
        .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
    func firstKeysThroughTwoNodes() async throws {
        for _ in 1...8 {
            try await withTwoNodes { first, second in
                let keys = ["kid-a", "kid-b"].map { SigningKeyRecord(keyID: $0, privateKeyPEM: "pem", createdAt: 1, signsFrom: 1, retiredAt: nil) }
                async let one: Void = first.insertFirstSigningKey(keys[0])
                async let other: Void = second.insertFirstSigningKey(keys[1])
                _ = try await (one, other)
                let stored = try await first.signingKeys()
                #expect(stored.count == 1 && stored.first?.retiredAt == nil, "\(stored.map(\.keyID))")
            }
        }
    }

    @Test(
        "role changes at once through two nodes all succeed, and one of the roles is kept",
        .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
    func rolesThroughTwoNodes() async throws {
        try await withTwoNodes { first, second in
            try await FixtureLoader(store: first).load(TestFixtures.fixtures)
            for _ in 1...30 {
                async let one: Void = first.setRole(appID: TestFixtures.appID, userID: TestFixtures.bob, role: .tester)
                async let other: Void = second.setRole(appID: TestFixtures.appID, userID: TestFixtures.bob, role: .developer)
                _ = try await (one, other)
                let role = try await first.role(appID: TestFixtures.appID, userID: TestFixtures.bob)
                #expect(role == .tester || role == .developer)
            }
        }
    }

    private func rotateThroughBoth(_ first: ProviderStore, _ second: ProviderStore) async throws {
        try await first.insertSigningKey(SigningKeyRecord(keyID: "kid-0", privateKeyPEM: "pem", createdAt: 1, signsFrom: 1, retiredAt: nil))
        // Drops at once, then a drop beside a plain rotation: each round's two rotations in either order leave
        // one key that is not retired (without the lock, two drops each removed the other's key: none).
        for round in 1...24 {
            let drops = round <= 16
            let keys = (1...2).map { node in
                SigningKeyRecord(
                    keyID: "kid-\(round)-\(node)", privateKeyPEM: "pem", createdAt: Int64(round), signsFrom: Int64(round), retiredAt: nil)
            }
            async let one: Void = first.storeRotation(keys[0], dropPrevious: true)
            async let other: Void = second.storeRotation(keys[1], dropPrevious: drops)
            _ = try await (one, other)
            let left = try await first.signingKeys()
            let signing = left.filter { $0.retiredAt == nil }
            #expect(signing.count == 1 && keys.contains { $0.keyID == signing.first?.keyID }, "round \(round): \(left.map(\.keyID))")
            if drops { #expect(left.count == 1, "round \(round): \(left.map(\.keyID))") }
        }
    }

    @Test(
        "a permission change made from a grant read before an uninstall or another change is refused: the app stays uninstalled",
        arguments: StoreDialect.available)
    func grantChangesFromStaleReads(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            let installed = GrantRecord(
                appID: TestFixtures.appID, userID: TestFixtures.alice, granted: [.publicProfile, .email, .userFriends], declined: [], installed: true,
                updatedAt: 1)
            try await store.saveGrant(installed)
            var withoutEmail = installed
            withoutEmail.granted.remove(.email)
            withoutEmail.declined = [.email]
            var withoutFriends = installed
            withoutFriends.granted.remove(.userFriends)
            // Two revocations read the same grant: the second finds it changed, and is not written over the first.
            #expect(try await store.changeGrantPermissions(from: installed, to: withoutEmail))
            #expect(try await store.changeGrantPermissions(from: installed, to: withoutFriends) == false)
            // A revocation read before an uninstall does not install the app again.
            #expect(try await store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.alice))
            var late = withoutEmail
            late.granted.remove(.userFriends)
            #expect(try await store.changeGrantPermissions(from: withoutEmail, to: late) == false)
            let stored = try #require(try await store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice))
            #expect(!stored.installed && stored.granted == [.publicProfile, .userFriends] && stored.declined == [.email], "\(stored)")

            // A grant saved for an app deleted meanwhile (read from a cache just before) is not stored: the app
            // registered again under its ID finds no one consented.
            let app = try #require(try await store.app(id: TestFixtures.otherAppID))
            #expect(try await store.deleteApp(id: app.id))
            try await store.saveGrant(
                GrantRecord(
                    appID: app.id, userID: TestFixtures.alice, granted: [.publicProfile, .email], declined: [], installed: true, updatedAt: 2))
            try await store.createApp(app)
            #expect(try await store.grant(appID: app.id, userID: TestFixtures.alice) == nil)

            // An access token written after the installation ended (a refresh beside the uninstall) is dead at once,
            // and stays so when the person installs the app again.
            let lateToken = AccessTokenRecord(
                appID: TestFixtures.appID, userID: TestFixtures.alice, issuedAt: 10, expiresAt: 4_000_000_000, dataAccessExpiresAt: 4_000_000_000,
                revoked: false)
            try await store.saveAccessToken("EAAlate", lateToken)
            try await store.saveGrant(installed)
            #expect(try await store.accessToken("EAAlate")?.revoked == true)
        }
    }

    @Test("reset removes apps, users and grants", arguments: StoreDialect.available)
    func reset(_ dialect: StoreDialect) async throws {
        try await withStore(dialect) { store in
            try await store.saveGrant(
                GrantRecord(
                    appID: TestFixtures.appID, userID: TestFixtures.alice, granted: [.publicProfile], declined: [], installed: true, updatedAt: 1))
            try await store.reset()
            #expect(try await store.apps().isEmpty)
            #expect(try await store.users().isEmpty)
            #expect(try await store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice) == nil)
        }
    }
}
