import SQLKit

private struct SigningKeyRow: Codable, Sendable {
    var keyId: String
    var privateKeyPem: String
    var createdAt: Int64
    var signsFrom: Int64
    var retiredAt: Int64?

    init(_ key: SigningKeyRecord) {
        keyId = key.keyID
        privateKeyPem = key.privateKeyPEM
        createdAt = key.createdAt
        signsFrom = key.signsFrom
        retiredAt = key.retiredAt
    }

    var record: SigningKeyRecord {
        SigningKeyRecord(keyID: keyId, privateKeyPEM: privateKeyPem, createdAt: createdAt, signsFrom: signsFrom, retiredAt: retiredAt)
    }
}

extension ProviderStore {
    /// Every stored signing key, oldest first.
    package func signingKeys() async throws(StoreError) -> [SigningKeyRecord] {
        try await run("signing keys") {
            try await db.select().column("*").from("ll_signing_keys").orderBy("created_at").orderBy("key_id")
                .all(decoding: SigningKeyRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }

    /// Stores a signing key.
    package func insertSigningKey(_ key: SigningKeyRecord) async throws(StoreError) {
        let row = SigningKeyRow(key)
        try await run("signing key \(key.keyID)") {
            try await db.insert(into: "ll_signing_keys").model(row, keyEncodingStrategy: .convertToSnakeCase).run()
        }
    }

    /// A setting's value, storing `makeValue()` first when there is none. When two nodes race, both get
    /// the value that was stored first.
    func setting(_ name: String, orInsert makeValue: () -> String) async throws(StoreError) -> String {
        let candidate = makeValue()
        return try await run("setting \(name)") {
            try await db.insert(into: "ll_settings").columns("name", "value").values(name, candidate)
                .ignoringConflicts(with: ["name"]).run()
            guard
                let value = try await db.select().column("value").from("ll_settings").where("name", .equal, name)
                    .first(decodingColumn: "value", as: String.self)
            else { throw StoreError.corrupt("setting \(name) vanished") }
            return value
        }
    }
}

extension ProviderStore {
    /// The advisory-lock key that serializes key rotations across the nodes of a PostgreSQL database
    /// ("LLROTATE" as a number).
    static let rotationLockKey: Int64 = 0x4C4C_524F_5441_5445

    /// Stores a rotation's new key, then retires every other key from its `signsFrom` (or, with
    /// `dropPrevious`, removes them).
    ///
    /// Through one node, rotations already run one after another (``RotationQueue``). Nodes sharing a
    /// PostgreSQL database also run them one after another: the statements run in one transaction that
    /// holds an advisory lock, so that two drop_previous rotations at once cannot each remove the other's
    /// new key (each statement reading the keys as committed before the other's removal) and leave none.
    /// Other nodes' readers see the new key and the retirement together, at the commit.
    func storeRotation(_ record: SigningKeyRecord, dropPrevious: Bool) async throws(StoreError) {
        guard location.isShared else {
            // One process owns an SQLite store, and its rotations are queued: no other writer to wait for.
            try await run("signing key \(record.keyID)") {
                try await Self.storeRotationStatements(record, dropPrevious: dropPrevious, on: db)
            }
            return
        }
        try await run("signing key \(record.keyID)") {
            try await Self.underRotationLock(db) { session in
                try await Self.storeRotationStatements(record, dropPrevious: dropPrevious, on: session)
            }
        }
    }

    /// Stores a first start's key unless the store has one by now: another node starting on the same empty
    /// database stored its own first (then this one is dropped, and the node signs with the other's). Under the
    /// rotations' lock on PostgreSQL, so that two such starts store one key between them.
    func insertFirstSigningKey(_ record: SigningKeyRecord) async throws(StoreError) {
        let row = SigningKeyRow(record)
        let insert: @Sendable (any SQLDatabase) async throws -> Void = { db in
            guard try await db.select().column("key_id").from("ll_signing_keys").limit(1).first() == nil else { return }
            try await db.insert(into: "ll_signing_keys").model(row, keyEncodingStrategy: .convertToSnakeCase).run()
        }
        guard location.isShared else {
            try await run("signing key \(record.keyID)") { try await insert(db) }
            return
        }
        try await run("signing key \(record.keyID)") { try await Self.underRotationLock(db, insert) }
    }

    /// Runs `body` in a transaction that holds the rotations' advisory lock (PostgreSQL).
    private static func underRotationLock(_ db: any SQLDatabase, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        try await db.withSession { session in
            try await session.raw("BEGIN").run()
            do {
                try await session.raw("SELECT pg_advisory_xact_lock(\(bind: Self.rotationLockKey))").run()
                try await body(session)
                try await session.raw("COMMIT").run()
            } catch {
                try? await session.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// The new key first: a reload between these statements (on SQLite, /health's) always finds a key to
    /// sign with, and a failure after the insert leaves the old keys where they were, not none.
    private static func storeRotationStatements(_ record: SigningKeyRecord, dropPrevious: Bool, on db: any SQLDatabase) async throws {
        let row = SigningKeyRow(record)
        try await db.insert(into: "ll_signing_keys").model(row, keyEncodingStrategy: .convertToSnakeCase).run()
        // The latest rotation, in the same transaction: a node that has not read it yet rereads the keys before
        // it signs (``ClusterSigning``).
        try await db.insert(into: "ll_settings").columns("name", "value").values(SigningKeyring.latestRotationSetting, record.keyID)
            .onConflict(with: ["name"]) { $0.set(excludedValueOf: "value") }.run()
        if dropPrevious {
            try await deleteSigningKeys(exceptLatest: record.keyID, on: db)
        } else {
            try await retireSigningKeys(exceptLatest: record.keyID, at: record.signsFrom, on: db)
        }
    }

    /// Sets when a key stops signing.
    func retireSigningKey(keyID: String, at time: Int64) async throws(StoreError) {
        try await run("signing key \(keyID)") {
            try await db.update("ll_signing_keys").set("retired_at", to: time).where("key_id", .equal, keyID).run()
        }
    }

    /// Makes `keyID` the latest rotation's key, in one statement: every other key that would sign at or after
    /// `time` (not retired, or retiring later) retires at `time`, and `keyID` itself is not retired. Nothing
    /// changes when `keyID` is gone (a `drop_previous` rotation beside this one removed it).
    ///
    /// One statement, so that rotations made at once (through one node or several) leave exactly one key
    /// that is not retired, whatever their order: the one whose statement ran last, as if they had run one
    /// after another. Each reading the keys first and retiring what it had read left every new key unretired.
    func retireSigningKeys(exceptLatest keyID: String, at time: Int64) async throws(StoreError) {
        try await run("signing key \(keyID)") { try await Self.retireSigningKeys(exceptLatest: keyID, at: time, on: db) }
    }

    private static func retireSigningKeys(exceptLatest keyID: String, at time: Int64, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE ll_signing_keys SET retired_at = CASE WHEN key_id = \(bind: keyID) THEN NULL ELSE \(bind: time) END \
            WHERE (key_id = \(bind: keyID) OR retired_at IS NULL OR retired_at > \(bind: time)) \
            AND EXISTS (SELECT 1 FROM ll_signing_keys AS latest WHERE latest.key_id = \(bind: keyID))
            """
        ).run()
    }

    /// Removes every key but `keyID`, in one statement; nothing when `keyID` is gone (a `drop_previous`
    /// rotation beside this one removed it), so that two such rotations one after the other leave one key, not
    /// none. `keyID` itself is then not retired (a rotation beside this one may have retired it).
    func deleteSigningKeys(exceptLatest keyID: String) async throws(StoreError) {
        try await run("signing key \(keyID)") { try await Self.deleteSigningKeys(exceptLatest: keyID, on: db) }
    }

    private static func deleteSigningKeys(exceptLatest keyID: String, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            DELETE FROM ll_signing_keys WHERE key_id <> \(bind: keyID) \
            AND EXISTS (SELECT 1 FROM ll_signing_keys AS latest WHERE latest.key_id = \(bind: keyID))
            """
        ).run()
        try await db.raw("UPDATE ll_signing_keys SET retired_at = NULL WHERE key_id = \(bind: keyID)").run()
    }

    /// Removes a key that is past its retention.
    func deleteSigningKey(keyID: String) async throws(StoreError) {
        try await run("signing key \(keyID)") {
            try await db.delete(from: "ll_signing_keys").where("key_id", .equal, keyID).run()
        }
    }

    /// Keeps a signing key's public part (its JWK, `kid` included) for good; nothing when it is kept already.
    func keepPublicKey(keyID: String, jwk: String, createdAt: Int64) async throws(StoreError) {
        try await run("public key \(keyID)") {
            try await db.insert(into: "ll_public_keys").columns("key_id", "jwk", "created_at").values(keyID, jwk, createdAt)
                .ignoringConflicts(with: ["key_id"]).run()
        }
    }

    /// The IDs of the keys whose public parts are kept.
    func keptPublicKeyIDs() async throws(StoreError) -> Set<String> {
        try await run("public keys") {
            Set(try await db.select().column("key_id").from("ll_public_keys").all(decodingColumn: "key_id", as: String.self))
        }
    }

    /// The public part of a key the store held, dropped or not (its JWK), or nil.
    func keptPublicKey(keyID: String) async throws(StoreError) -> String? {
        try await run("public key \(keyID)") {
            try await db.select().column("jwk").from("ll_public_keys").where("key_id", .equal, keyID).first(decodingColumn: "jwk", as: String.self)
        }
    }
}
