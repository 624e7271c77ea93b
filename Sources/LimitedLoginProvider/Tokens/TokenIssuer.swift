import LimitedLoginCore
import LimitedLoginJOSE

/// A classic access token as issued.
struct IssuedAccessToken: Sendable {
    let token: String
    let expiresIn: Int64
    let dataAccessExpiresAt: Int64
}

/// An ID token as issued, with the claims it carries.
struct IssuedIDToken: Sendable {
    let token: String
    let claims: JSONObject
}

/// Issues ID tokens, access tokens and codes for a person and an app: the one token factory behind the
/// dialog, the code exchange and the admin API's minting (docs/BEHAVIOUR.md, section 9).
struct TokenIssuer: Sendable {
    let services: ProviderServices
    var lifetimes: TokenLifetimes { services.configuration.lifetimes }

    /// An ID token. `overrides` replace claims (a queued scenario's, or a minting request's); `defect` makes the
    /// token wrong in one named way, `lifetime` replaces the configured one and `subject` is the `sub` of a
    /// subject no stored user has, without friends (the admin API's minting only).
    func idToken(
        app: AppRecord, user: TestUserRecord, granted: Set<Permission>, nonce: String, accessToken: String? = nil,
        friendASIDs: [String]? = nil, overrides: [String: JSONValue] = [:], defect: TokenDefect? = nil, lifetime: Int64? = nil,
        subject: String? = nil
    ) async throws -> IssuedIDToken {
        let lifetime = lifetime ?? lifetimes.idToken
        // First: the key and the clock as the store says now (the token's times are on that clock).
        let keys = try await ClusterSigning.keys(services)
        let store = services.store
        let asid: String
        if let subject { asid = subject } else { asid = try await store.appScopedID(appID: app.id, userID: user.id) }
        var friends: [String] = []
        if subject == nil, granted.contains(.userFriends) {
            if let friendASIDs { friends = friendASIDs } else { friends = try await store.visibleFriendASIDs(userID: user.id, appID: app.id) }
        }
        let now = ProviderTime.now()
        var builder = IDTokenClaimsBuilder(
            issuer: services.urls.issuer, app: app, user: user, asid: asid, granted: granted, nonce: nonce,
            issuedAt: now, friendASIDs: friends, pictureURL: services.urls.pictureURL(asid: asid)
        )
        builder.lifetime = lifetime
        builder.accessTokenHash = accessToken.map(AccessTokenHash.of)
        var object = builder.claims()
        if !overrides.isEmpty || defect != nil {
            var claims = object.dictionary
            for (name, value) in overrides {
                if case .null = value { claims[name] = nil } else { claims[name] = value }
            }
            defect?.adjust(&claims, now: now, lifetime: lifetime)
            object = JSONObject(claims)
        }
        let token: String
        if let defect { token = try await defect.sign(claims: object, signer: keys.signer) } else { token = try keys.signer.sign(claims: object) }
        services.clock.noteIssued(at: now)
        services.metrics.tokenIssued("id_token")
        return IssuedIDToken(token: token, claims: object)
    }

    /// A classic access token. A refresh keeps the data-access expiry of the login it continues
    /// (`dataAccessExpiresAt`); a login starts a new one.
    func accessToken(app: AppRecord, userID: String, dataAccessExpiresAt: Int64? = nil) async throws -> IssuedAccessToken {
        let token = "EAA" + RandomIdentifiers.secret(byteCount: 48)
        let now = ProviderTime.now()
        let record = AccessTokenRecord(
            appID: app.id, userID: userID, issuedAt: now, expiresAt: now + lifetimes.accessToken,
            dataAccessExpiresAt: dataAccessExpiresAt ?? now + lifetimes.dataAccess
        )
        try await services.store.saveAccessToken(token, record)
        services.clock.noteIssued(at: now)
        services.metrics.tokenIssued("access_token")
        return IssuedAccessToken(token: token, expiresIn: lifetimes.accessToken, dataAccessExpiresAt: record.dataAccessExpiresAt)
    }

    func code(request: DialogRequest, userID: String, granted: Set<Permission>) async throws -> String {
        let code = RandomIdentifiers.secret(byteCount: 32)
        try await services.store.saveAuthorizationCode(
            code,
            AuthorizationCodeRecord(
                appID: request.app.id, userID: userID, redirectURI: request.target.redirectURI,
                codeChallenge: request.codeChallenge, granted: granted, nonce: request.nonce,
                expiresAt: ProviderTime.now() + lifetimes.code
            ))
        services.metrics.tokenIssued("code")
        return code
    }
}
