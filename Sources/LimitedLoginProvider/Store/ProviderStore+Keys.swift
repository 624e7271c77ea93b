import SQLKit

private struct SigningKeyRow: Codable, Sendable {
    var keyId: String
    var privateKeyPem: String
    var createdAt: Int64
    var signsFrom: Int64
    var retiredAt: Int64?

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
        let row = SigningKeyRow(
            keyId: key.keyID, privateKeyPem: key.privateKeyPEM, createdAt: key.createdAt, signsFrom: key.signsFrom,
            retiredAt: key.retiredAt
        )
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
    /// Sets when a key stops signing.
    func retireSigningKey(keyID: String, at time: Int64) async throws(StoreError) {
        try await run("signing key \(keyID)") {
            try await db.update("ll_signing_keys").set("retired_at", to: time).where("key_id", .equal, keyID).run()
        }
    }

    /// Removes a key that is past its retention.
    func deleteSigningKey(keyID: String) async throws(StoreError) {
        try await run("signing key \(keyID)") {
            try await db.delete(from: "ll_signing_keys").where("key_id", .equal, keyID).run()
        }
    }
}
