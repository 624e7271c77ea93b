/// What the scoped-credential operations take and answer (``AdminOperations/createCredential(_:)``).
extension AdminOperations {
    /// What `POST /_admin/credentials` takes.
    struct NewCredential: Decodable, Sendable {
        var name: String
        var apps: [String]
    }

    /// A credential as the admin API shows it: `{"name", "apps", "created_at", "revoked_at", "token"?}`,
    /// `revoked_at` null while it works and `token` only in the answer that made it.
    struct CredentialView: Sendable, Equatable, Encodable {
        var name: String
        var apps: [String]
        var created_at: Int64
        var revoked_at: Int64?
        var token: String?

        init(_ record: AdminCredentialRecord, token: String? = nil) {
            name = record.name
            apps = record.apps
            created_at = record.createdAt
            revoked_at = record.revokedAt
            self.token = token
        }

        private enum CodingKeys: String, CodingKey { case name, apps, created_at, revoked_at, token }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(apps, forKey: .apps)
            try container.encode(created_at, forKey: .created_at)
            try container.encode(revoked_at, forKey: .revoked_at)  // null while the credential works
            try container.encodeIfPresent(token, forKey: .token)
        }
    }

    /// An entry of the admin log as `GET /_admin/log` shows it: `{"at", "credential", "operation", "target",
    /// "node"}`, `at` in seconds since 1970.
    struct LogEntryView: Sendable, Equatable, Encodable {
        var at: Int64
        var credential: String
        var operation: String
        var target: String
        var node: String

        init(_ entry: AdminLogEntry) {
            at = entry.at / 1_000_000
            credential = entry.credential
            operation = entry.operation
            target = entry.target
            node = entry.node
        }
    }
}
