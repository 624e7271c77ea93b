import LimitedLoginCore
import LimitedLoginJOSE

/// Tokens minted without a browser (docs/BEHAVIOUR.md, section 9).
extension AdminOperations {
    /// An ID token (and, for a classic login, an access token) as the request describes, through the same
    /// issuer, claims, app-scoped IDs, friends rule and grants as the dialog; the grant is recorded as a
    /// consent would record it.
    func mintToken(_ request: MintRequest) async throws -> MintedToken {
        guard let app = try await services.store.app(id: request.appID) else {
            throw AdminError.notFound("No app with ID \(request.appID).")
        }
        guard AdminCaller.current.mayTouch(app: app.id) else { throw AdminCaller.current.outOfScope("App \(app.id) is not this credential's.") }
        let user: TestUserRecord
        switch request.subject {
        case .user(let name):
            guard let stored = try await visibleUser(name) else {
                throw AdminError.notFound("No test user \(name) (give an ID or an email).")
            }
            user = stored
        case .unstored(let sub):
            user = MintSubject.standIn(for: sub)
        }
        // Development mode holds here too, unless the request says to mint anyway (a test of what a backend
        // does with such a token).
        if !request.ignoreDevelopmentMode, case .user = request.subject, try await !services.store.admits(app, userID: user.id) {
            throw AdminError.conflict(
                "App \(app.id) is in development mode and \(user.id) has no role on it: give them one, or send \"ignore_development_mode\": true."
            )
        }
        var granted: Set<Permission>
        switch request.subject {
        case .user:
            let completion = LoginCompletion(services: services)
            let scope = request.permissions.sorted { $0.name < $1.name }
            granted = try await completion.recordConsent(appID: app.id, userID: user.id, scope: scope, ticked: request.permissions).granted
        case .unstored:
            granted = request.permissions
        }
        if request.tracking == .limited { granted = granted.filter(\.isAllowedInLimitedLogin) }
        let issuer = TokenIssuer(services: services)
        let accessToken = request.tracking == .enabled ? try await issuer.accessToken(app: app, userID: user.id) : nil
        let idToken = try await issuer.idToken(
            app: app, user: user, granted: granted, nonce: request.nonce, accessToken: accessToken?.token, overrides: request.overrides.claims,
            defect: request.defect, lifetime: request.overrides.lifetime, subject: request.subject.unstoredSubject
        )
        services.logger.info(
            "token minted",
            metadata: [
                "app": "\(app.id)", "user": "\(request.subject.unstoredSubject.map { "subject " + $0 } ?? user.id)",
                "limited": "\(request.tracking == .limited)", "defect": "\(request.defect?.rawValue ?? "none")",
            ])
        return MintedToken(idToken: idToken, accessToken: accessToken, grantedScopes: granted.map(\.name).sorted(), defect: request.defect)
    }
}
