import SQLKit

/// A named admin credential scoped to apps (docs/SECURITY.md, "Scoped admin credentials"): the store keeps
/// the SHA-256 of its token, never the token.
package struct AdminCredentialRecord: Sendable, Equatable {
    package var name: String
    package var tokenSHA256: String
    /// The app IDs it may touch, in order.
    package var apps: [String]
    package var createdAt: Int64
    /// When it was revoked; a revoked credential is kept so that its holder is told so.
    package var revokedAt: Int64?
}

extension ProviderStore {
    /// Stores a new credential; `.duplicate` when the name (or the token) is taken.
    package func createAdminCredential(_ record: AdminCredentialRecord) async throws(StoreError) {
        try await run("admin credential") {
            try await db.insert(into: "ll_admin_credentials").columns("name", "token_sha256", "apps", "created_at", "revoked_at")
                .values(record.name, record.tokenSHA256, record.apps.joined(separator: " "), record.createdAt, record.revokedAt).run()
        }
    }

    /// The credential whose token has this SHA-256 (read afresh: a revocation through another node counts at once).
    package func adminCredential(tokenSHA256: String) async throws(StoreError) -> AdminCredentialRecord? {
        try await run("admin credential") {
            try await db.select().columns("name", "token_sha256", "apps", "created_at", "revoked_at").from("ll_admin_credentials")
                .where("token_sha256", .equal, tokenSHA256).first().map(Self.credential)
        }
    }

    /// Every credential, revoked ones too, by name.
    package func adminCredentials() async throws(StoreError) -> [AdminCredentialRecord] {
        try await run("admin credential") {
            try await db.select().columns("name", "token_sha256", "apps", "created_at", "revoked_at").from("ll_admin_credentials")
                .orderBy("name").all().map(Self.credential)
        }
    }

    /// Revokes the named credential; false when there is none or it was revoked already.
    package func revokeAdminCredential(name: String, at time: Int64) async throws(StoreError) -> Bool {
        try await run("admin credential") {
            let rows = try await db.update("ll_admin_credentials").set("revoked_at", to: time).where("name", .equal, name)
                .where("revoked_at", .is, SQLLiteral.null).returning("name").all()
            return !rows.isEmpty
        }
    }

    fileprivate static func credential(_ row: any SQLRow) throws -> AdminCredentialRecord {
        AdminCredentialRecord(
            name: try row.decode(column: "name", as: String.self), tokenSHA256: try row.decode(column: "token_sha256", as: String.self),
            apps: try row.decode(column: "apps", as: String.self).split(separator: " ").map(String.init),
            createdAt: try row.decode(column: "created_at", as: Int64.self), revokedAt: try row.decode(column: "revoked_at", as: Int64?.self))
    }
}

extension ProviderStore {
    /// The credential with this name, revoked or not (read afresh, as ``adminCredential(tokenSHA256:)``).
    package func adminCredential(name: String) async throws(StoreError) -> AdminCredentialRecord? {
        try await run("admin credential") {
            try await db.select().columns("name", "token_sha256", "apps", "created_at", "revoked_at").from("ll_admin_credentials")
                .where("name", .equal, name).first().map(Self.credential)
        }
    }
}
