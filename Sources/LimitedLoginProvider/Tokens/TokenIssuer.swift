import LimitedLoginCore
import LimitedLoginJOSE

/// A classic access token as issued.
struct IssuedAccessToken: Sendable {
    let token: String
    let expiresIn: Int64
    let dataAccessExpiresAt: Int64
}

/// Issues ID tokens, access tokens and codes for a person and an app.
struct TokenIssuer: Sendable {
    /// Long-lived user access tokens last about 60 days.
    static let accessTokenLifetime: Int64 = 60 * 24 * 3600
    /// Data access lasts 90 days from the login.
    static let dataAccessLifetime: Int64 = 90 * 24 * 3600
    static let codeLifetime: Int64 = 600

    let services: ProviderServices

    func idToken(
        app: AppRecord, user: TestUserRecord, granted: Set<Permission>, nonce: String, accessToken: String? = nil,
        friendASIDs: [String]? = nil
    ) async throws -> String {
        let store = services.store
        let asid = try await store.appScopedID(appID: app.id, userID: user.id)
        var friends: [String] = []
        if granted.contains(.userFriends) {
            if let friendASIDs { friends = friendASIDs } else { friends = try await store.visibleFriendASIDs(userID: user.id, appID: app.id) }
        }
        var builder = IDTokenClaimsBuilder(
            issuer: services.urls.issuer, app: app, user: user, asid: asid, granted: granted, nonce: nonce,
            issuedAt: ProviderTime.now(), friendASIDs: friends, pictureURL: services.urls.pictureURL(asid: asid)
        )
        builder.accessTokenHash = accessToken.map(AccessTokenHash.of)
        let keys = try await services.keyring.current()
        let token = try keys.signer.sign(claims: builder.claims())
        services.metrics.tokenIssued("id_token")
        return token
    }

    func accessToken(app: AppRecord, userID: String) async throws -> IssuedAccessToken {
        let token = "EAA" + RandomIdentifiers.secret(byteCount: 48)
        let now = ProviderTime.now()
        let record = AccessTokenRecord(
            appID: app.id, userID: userID, issuedAt: now, expiresAt: now + Self.accessTokenLifetime,
            dataAccessExpiresAt: now + Self.dataAccessLifetime
        )
        try await services.store.saveAccessToken(token, record)
        services.metrics.tokenIssued("access_token")
        return IssuedAccessToken(token: token, expiresIn: Self.accessTokenLifetime, dataAccessExpiresAt: record.dataAccessExpiresAt)
    }

    func code(request: DialogRequest, userID: String, granted: Set<Permission>) async throws -> String {
        let code = RandomIdentifiers.secret(byteCount: 32)
        try await services.store.saveAuthorizationCode(code, AuthorizationCodeRecord(
            appID: request.app.id, userID: userID, redirectURI: request.target.redirectURI,
            codeChallenge: request.codeChallenge, granted: granted, nonce: request.nonce,
            expiresAt: ProviderTime.now() + Self.codeLifetime
        ))
        services.metrics.tokenIssued("code")
        return code
    }
}
