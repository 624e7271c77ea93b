import SQLKit

extension ProviderStore {
    /// Marks a form token used. True the first time; false when it was used before, also when two
    /// requests (on any nodes of a shared database) post it at once: the insert is the test.
    ///
    /// Only the token's hash is kept, until `expiresAt`, after which the token is refused anyway.
    func consumeFormToken(hash: String, expiresAt: Int64) async throws(StoreError) -> Bool {
        try await run("form token") {
            try await db.insert(into: "ll_used_form_tokens").columns("token_hash", "expires_at")
                .values(hash, expiresAt)
                .ignoringConflicts(with: ["token_hash"])
                .returning("token_hash")
                .first() != nil
        }
    }

    /// Forgets used tokens that expired before `now`.
    func purgeUsedFormTokens(now: Int64) async throws(StoreError) {
        try await run("form token") {
            try await db.delete(from: "ll_used_form_tokens").where("expires_at", .lessThan, now).run()
        }
    }
}
