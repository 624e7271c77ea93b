import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// Records consent and sends the login's result to the app (docs/BEHAVIOUR.md, section 2).
struct LoginCompletion: Sendable {
    let services: ProviderServices

    /// True when the installed grant has a decision (granted or declined) on every requested
    /// permission, so consent need not be shown again.
    static func hasDecided(_ grant: GrantRecord, on dialog: DialogRequest) -> Bool {
        // Each asked permission looked up where it is, without making two sets on every login.
        grant.installed && dialog.scope.allSatisfy { grant.granted.contains($0) || grant.declined.contains($0) }
    }

    /// Merges what the person ticked into their grant and installs the app.
    ///
    /// `public_profile` is always granted; each other requested permission is granted when ticked and
    /// declined otherwise; permissions not asked about keep their earlier decision (none after an
    /// uninstall, which starts afresh).
    func recordConsent(_ dialog: DialogRequest, userID: String, ticked: Set<Permission>) async throws -> GrantRecord {
        try await recordConsent(
            appID: dialog.app.id, userID: userID, scope: dialog.scope, ticked: ticked, messengerPageID: dialog.messengerPageID
        )
    }

    /// The same for a consent given outside the dialog (the admin API's minting): `scope` asked, `ticked` kept.
    /// `messengerPageID` is the request's `messenger_page_id`, kept in the grant with `user_messenger_contact`.
    func recordConsent(
        appID: String, userID: String, scope: [Permission], ticked: Set<Permission>, messengerPageID requestedPage: String? = nil
    ) async throws -> GrantRecord {
        // Written over the grant as read, read again when another consent (or a revocation, an uninstall)
        // came in between through any node: each consent's permissions are merged into the other's.
        for _ in 1...8 {
            let existing = try await services.store.grant(appID: appID, userID: userID)
            let grant = Self.consented(existing, appID: appID, userID: userID, scope: scope, ticked: ticked, messengerPageID: requestedPage)
            if try await services.store.saveGrant(grant, replacing: existing) { return grant }
            // Nothing saved for an app deleted meanwhile: as before, the consent is answered and nothing kept.
            if existing == nil, try await services.store.app(id: appID, fresh: true) == nil { return grant }
        }
        throw StoreError.unavailable("the grant of \(userID) for app \(appID) kept changing; try again")
    }

    /// The grant a consent leaves: `existing`'s decisions (none when uninstalled), with each permission of `scope`
    /// granted when ticked (`public_profile` always) and declined otherwise.
    static func consented(
        _ existing: GrantRecord?, appID: String, userID: String, scope: [Permission], ticked: Set<Permission>, messengerPageID requestedPage: String?
    ) -> GrantRecord {
        var granted: Set<Permission> = []
        var declined: Set<Permission> = []
        if let existing, existing.installed {
            granted = existing.granted
            declined = existing.declined
        }
        for permission in scope {
            if permission == .publicProfile || ticked.contains(permission) {
                granted.insert(permission)
                declined.remove(permission)
            } else {
                declined.insert(permission)
                granted.remove(permission)
            }
        }
        // The Messenger page stays with the grant while user_messenger_contact is granted; a new request names it again.
        var messengerPageID = granted.contains(.userMessengerContact) ? existing?.messengerPageID : nil
        if scope.contains(.userMessengerContact), granted.contains(.userMessengerContact), let requested = requestedPage {
            messengerPageID = requested
        }
        let grant = GrantRecord(
            appID: appID, userID: userID, granted: granted, declined: declined, installed: true,
            updatedAt: ProviderTime.now(), messengerPageID: messengerPageID
        )
        return grant
    }

    /// The success response: tokens and code as requested, state, granted and denied scopes.
    ///
    /// `friendASIDs` are the visible friends read with the grant, or nil to read them now.
    func complete(
        _ dialog: DialogRequest, user: TestUserRecord, grant: GrantRecord, friendASIDs: [String]?, afterPost: Bool
    ) async throws -> Response {
        var overrides: [String: JSONValue] = [:]
        if let scenario = services.scenarios.take(appID: dialog.app.id, userID: user.id) {
            if let response = try answer(scenario, dialog, afterPost: afterPost) { return response }
            if case .claims(let claims) = scenario.outcome {
                services.logger.info("scenario used", metadata: ["app": "\(dialog.app.id)", "scenario": "\(scenario.id)", "outcome": "claims"])
                overrides = claims.dictionary
            }
        }
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
        var claims: JSONObject?
        var returned: [String] = accessToken == nil ? [] : ["access_token"]
        if dialog.wantsIDToken, let nonce = dialog.nonce {
            let idToken = try await issuer.idToken(
                app: dialog.app, user: user, granted: granted, nonce: nonce, accessToken: accessToken?.token,
                friendASIDs: friendASIDs, overrides: overrides
            )
            parameters.append("id_token", idToken.token)
            claims = idToken.claims
            returned.insert("id_token", at: 0)
        }
        var code: String?
        if dialog.wantsCode {
            let issued = try await issuer.code(request: dialog, userID: user.id, granted: granted)
            code = issued
            parameters.append("code", issued)
            returned.append("code")
        }
        if dialog.responseTypes.contains(.signedRequest) {
            // The iOS SDK takes AccessToken.userID from it (a classic login has no ID token to read it from).
            let asid = try await services.store.appScopedID(appID: dialog.app.id, userID: user.id)
            parameters.append("signed_request", SignedRequest.make(userID: asid, code: code, issuedAt: ProviderTime.now(), secret: dialog.app.secret))
            returned.append("signed_request")
        }
        if dialog.responseTypes.contains(.userTokenNonce) {
            parameters.append("user_token_nonce", services.userTokenNonce.value(appID: dialog.app.id, userID: user.id))
            returned.append("user_token_nonce")
        }
        if let state = dialog.target.state { parameters.append("state", state) }
        let grantedNames = scopes.sorted()
        let declinedNames = grant.declined.map(\.name).sorted()
        parameters.append("granted_scopes", grantedNames.joined(separator: ","))
        parameters.append("denied_scopes", declinedNames.joined(separator: ","))
        parameters.append("graph_domain", dialog.app.graphDomain)
        services.logger.info(
            "login completed",
            metadata: RequestLogContext.adding(to: [
                "app": "\(dialog.app.id)", "user": "\(user.id)", "limited": "\(dialog.limited)", "mode": "\(dialog.target.responseMode.rawValue)",
                "permissions": "\(grantedNames.joined(separator: ","))",
            ]))
        services.metrics.loginCompleted(limited: dialog.limited)
        services.recentLogins.record(
            RecentLogins.Entry(
                time: ProviderTime.now(), appID: dialog.app.id, appName: dialog.app.name, userID: user.id, userName: user.fullName,
                mode: dialog.limited ? "limited" : "classic", responseMode: dialog.target.responseMode.rawValue,
                granted: grantedNames, declined: declinedNames, returned: returned, claims: claims
            ))
        return try DialogResponder(services: services).respond(dialog.target, parameters, afterPost: afterPost)
    }

    /// A queued cancel or error for this person's login, answered in place of the page the dialog would
    /// show now (nil: no such scenario is next). A queued claims scenario waits for the login to complete.
    func scenarioAnswer(_ dialog: DialogRequest, user: TestUserRecord, afterPost: Bool) throws -> Response? {
        let scenario = services.scenarios.take(appID: dialog.app.id, userID: user.id) { outcome in
            if case .claims = outcome { return false }
            return true
        }
        return try scenario.flatMap { try answer($0, dialog, afterPost: afterPost) }
    }

    /// The dialog's answer for a cancel or error scenario; nil for a claims one, which changes the token instead.
    private func answer(_ scenario: Scenario, _ dialog: DialogRequest, afterPost: Bool) throws -> Response? {
        let responder = DialogResponder(services: services)
        switch scenario.outcome {
        case .cancel:
            services.logger.info("scenario used", metadata: ["app": "\(dialog.app.id)", "scenario": "\(scenario.id)", "outcome": "cancel"])
            return try responder.respondCancelled(dialog.target, retrying: dialog.query, afterPost: afterPost)
        case .error(let error, let code, let message):
            services.logger.info("scenario used", metadata: ["app": "\(dialog.app.id)", "scenario": "\(scenario.id)", "outcome": "error"])
            return try responder.respond(
                dialog.target, error: DialogErrorResponse(error: error, code: code, message: message), retrying: dialog.query, afterPost: afterPost)
        case .claims:
            return nil
        }
    }
}
