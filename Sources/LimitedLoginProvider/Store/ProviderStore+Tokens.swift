import SQLKit

private struct CodeRow: Codable, Sendable {
    var codeHash: String
    var appId: String
    var userId: String
    var redirectUri: String
    var codeChallenge: String?
    var granted: String
    var nonce: String?
    var expiresAt: Int64
}

private struct AccessTokenRow: Codable, Sendable {
    var tokenHash: String
    var appId: String
    var userId: String
    var issuedAt: Int64
    var expiresAt: Int64
    var dataAccessExpiresAt: Int64
    /// 1 once its installation ended (``AccessTokenRecord/revoked``).
    var revoked: Int64
}

extension ProviderStore {
    /// Stores an authorization code (by hash).
    func saveAuthorizationCode(_ code: String, _ record: AuthorizationCodeRecord) async throws(StoreError) {
        let row = CodeRow(
            codeHash: RandomIdentifiers.storageHash(code), appId: record.appID, userId: record.userID,
            redirectUri: record.redirectURI, codeChallenge: record.codeChallenge,
            granted: PermissionList.encode(record.granted), nonce: record.nonce, expiresAt: record.expiresAt
        )
        try await run("authorization code") {
            try await db.insert(into: "ll_authorization_codes").model(row, keyEncodingStrategy: .convertToSnakeCase).run()
        }
        await purgeExpiredSessionsAndCodesIfDue(now: now())
    }

    /// Takes a code out of the store: a code can be exchanged once, even by two racing requests.
    func consumeAuthorizationCode(_ code: String) async throws(StoreError) -> AuthorizationCodeRecord? {
        try await run("authorization code") {
            try await db.delete(from: "ll_authorization_codes")
                .where("code_hash", .equal, RandomIdentifiers.storageHash(code))
                .returning("*")
                .first(decoding: CodeRow.self, keyDecodingStrategy: .convertFromSnakeCase)
                .map {
                    AuthorizationCodeRecord(
                        appID: $0.appId, userID: $0.userId, redirectURI: $0.redirectUri, codeChallenge: $0.codeChallenge,
                        granted: PermissionList.decode($0.granted), nonce: $0.nonce, expiresAt: $0.expiresAt
                    )
                }
        }
    }

    /// Stores an access token (by hash).
    ///
    /// Stored revoked when the person's installation of the app has ended by the time it is written: a token
    /// refreshed (`fb_extend_sso_token`) while an uninstall ran, through this node or another, must stay dead
    /// as the installation's other tokens do, also after the person installs the app again.
    func saveAccessToken(_ token: String, _ record: AccessTokenRecord) async throws(StoreError) {
        let hash = RandomIdentifiers.storageHash(token)
        try await run("access token") {
            try await db.raw(
                """
                INSERT INTO ll_access_tokens (token_hash, app_id, user_id, issued_at, expires_at, data_access_expires_at, revoked) \
                SELECT \(bind: hash), \(bind: record.appID), \(bind: record.userID), \(bind: record.issuedAt), \(bind: record.expiresAt), \
                \(bind: record.dataAccessExpiresAt), CASE WHEN \(bind: Int64(record.revoked ? 1 : 0)) = 1 OR NOT EXISTS \
                (SELECT 1 FROM ll_grants WHERE app_id = \(bind: record.appID) AND user_id = \(bind: record.userID) AND installed = 1) \
                THEN 1 ELSE 0 END
                """
            ).run()
        }
    }

    /// Revokes every access token a user holds for an app (their installation ended); returns how many it
    /// changed.
    @discardableResult
    package func revokeAccessTokens(appID: String, userID: String) async throws(StoreError) -> Int {
        try await run("access tokens") {
            let tokens = try await db.select().column("token_hash").from("ll_access_tokens")
                .where("app_id", .equal, appID).where("user_id", .equal, userID).where("revoked", .equal, Int64(0))
                .all().count
            try await db.update("ll_access_tokens").set("revoked", to: Int64(1))
                .where("app_id", .equal, appID).where("user_id", .equal, userID).where("revoked", .equal, Int64(0))
                .run()
            return tokens
        }
    }

    /// What an access token stands for, or nil when it is unknown.
    package func accessToken(_ token: String) async throws(StoreError) -> AccessTokenRecord? {
        try await run("access token") {
            try await db.select().column("*").from("ll_access_tokens")
                .where("token_hash", .equal, RandomIdentifiers.storageHash(token))
                .first(decoding: AccessTokenRow.self, keyDecodingStrategy: .convertFromSnakeCase)
                .map {
                    AccessTokenRecord(
                        appID: $0.appId, userID: $0.userId, issuedAt: $0.issuedAt, expiresAt: $0.expiresAt,
                        dataAccessExpiresAt: $0.dataAccessExpiresAt, revoked: $0.revoked != 0
                    )
                }
        }
    }

    /// Every stored access token, by hash, oldest first (`export`).
    func allAccessTokens() async throws(StoreError) -> [ProviderFixtures.AccessToken] {
        try await run("access tokens") {
            try await db.select().column("*").from("ll_access_tokens").orderBy("issued_at").orderBy("token_hash")
                .all(decoding: AccessTokenRow.self, keyDecodingStrategy: .convertFromSnakeCase)
                .map {
                    ProviderFixtures.AccessToken(
                        tokenHash: $0.tokenHash, appID: $0.appId, userID: $0.userId, issuedAt: $0.issuedAt, expiresAt: $0.expiresAt,
                        dataAccessExpiresAt: $0.dataAccessExpiresAt, revoked: $0.revoked != 0 ? true : nil
                    )
                }
        }
    }

    /// Stores an exported access token by its hash, unless one with that hash is stored already (`import`).
    func importAccessToken(_ token: ProviderFixtures.AccessToken) async throws(StoreError) {
        let row = AccessTokenRow(
            tokenHash: token.tokenHash, appId: token.appID, userId: token.userID, issuedAt: token.issuedAt,
            expiresAt: token.expiresAt, dataAccessExpiresAt: token.dataAccessExpiresAt, revoked: token.revoked == true ? 1 : 0
        )
        try await run("access token") {
            try await db.insert(into: "ll_access_tokens").model(row, keyEncodingStrategy: .convertToSnakeCase)
                .ignoringConflicts(with: ["token_hash"]).run()
        }
    }
}
