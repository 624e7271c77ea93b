/// What the scoped-credential operations take and answer (``AdminOperations/createCredential(_:)``).
extension AdminOperations {
    /// What `POST /_admin/credentials` takes.
    struct NewCredential: Decodable, Sendable {
        var name: String
        var apps: [String]
    }

    /// A credential as the admin API shows it; `token` only in the answer that made it.
    struct CredentialView: Sendable, Equatable {
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
    }
}
