import Hummingbird
import LimitedLoginCore

/// Records consent and sends the login's result to the app (SPEC section 2).
struct LoginCompletion: Sendable {
    let services: ProviderServices

    /// True when the installed grant has a decision (granted or declined) on every requested
    /// permission, so consent need not be shown again.
    static func hasDecided(_ grant: GrantRecord, on dialog: DialogRequest) -> Bool {
        grant.installed && Set(dialog.scope).isSubset(of: grant.granted.union(grant.declined))
    }

    /// Merges what the person ticked into their grant and installs the app.
    ///
    /// `public_profile` is always granted; each other requested permission is granted when ticked and
    /// declined otherwise; permissions not asked about keep their earlier decision (none after an
    /// uninstall, which starts afresh).
    func recordConsent(_ dialog: DialogRequest, userID: String, ticked: Set<Permission>) async throws -> GrantRecord {
        let existing = try await services.store.grant(appID: dialog.app.id, userID: userID)
        var granted: Set<Permission> = []
        var declined: Set<Permission> = []
        if let existing, existing.installed {
            granted = existing.granted
            declined = existing.declined
        }
        for permission in dialog.scope {
            if permission == .publicProfile || ticked.contains(permission) {
                granted.insert(permission)
                declined.remove(permission)
            } else {
                declined.insert(permission)
                granted.remove(permission)
            }
        }
        let grant = GrantRecord(
            appID: dialog.app.id, userID: userID, granted: granted, declined: declined, installed: true,
            updatedAt: ProviderTime.now()
        )
        try await services.store.saveGrant(grant)
        return grant
    }

    /// The success response: tokens and code as requested, state, granted and denied scopes.
    ///
    /// `friendASIDs` are the visible friends read with the grant, or nil to read them now.
    func complete(
        _ dialog: DialogRequest, user: TestUserRecord, grant: GrantRecord, friendASIDs: [String]?, afterPost: Bool
    ) async throws -> Response {
        let issuer = TokenIssuer(services: services)
        var granted = grant.granted
        if dialog.limited { granted = granted.filter(\.isAllowedInLimitedLogin) }
        var scopes = granted.map(\.name)
        if dialog.wantsIDToken { scopes.append("openid") }

        var parameters = FormParameters()
        var accessToken: IssuedAccessToken?
        if dialog.wantsAccessToken {
            let issued = try await issuer.accessToken(app: dialog.app, userID: user.id)
            accessToken = issued
            parameters.append("access_token", issued.token)
            parameters.append("data_access_expiration_time", String(issued.dataAccessExpiresAt))
            parameters.append("expires_in", String(issued.expiresIn))
        }
        if dialog.wantsIDToken, let nonce = dialog.nonce {
            let idToken = try await issuer.idToken(
                app: dialog.app, user: user, granted: granted, nonce: nonce, accessToken: accessToken?.token,
                friendASIDs: friendASIDs
            )
            parameters.append("id_token", idToken)
        }
        if dialog.wantsCode {
            parameters.append("code", try await issuer.code(request: dialog, userID: user.id, granted: granted))
        }
        if let state = dialog.target.state { parameters.append("state", state) }
        parameters.append("granted_scopes", scopes.sorted().joined(separator: ","))
        parameters.append("denied_scopes", grant.declined.map(\.name).sorted().joined(separator: ","))
        parameters.append("graph_domain", "facebook")
        services.logger.info("login completed", metadata: [
            "app": "\(dialog.app.id)", "limited": "\(dialog.limited)", "mode": "\(dialog.target.responseMode.rawValue)",
        ])
        services.metrics.loginCompleted(limited: dialog.limited)
        return try DialogResponder(pages: services.pages, metrics: services.metrics).respond(dialog.target, parameters, afterPost: afterPost)
    }
}
