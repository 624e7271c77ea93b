import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// Tokens minted without a browser (docs/BEHAVIOUR.md, section 9).
extension AdminOperations {
    /// The keys a minting request may hold; any other is refused, naming it.
    static let mintingKeys = [
        "app_id", "user", "subject", "permissions", "nonce", "raw_nonce", "tracking", "defect", "claims", "lifetime", "iat", "exp",
        "ignore_development_mode",
    ]

    /// An ID token (and, for a classic login, an access token) minted as `POST /_admin/tokens` describes
    /// (``AdminTokenController``): the answer `{"id_token", "access_token"?, "claims", "granted_scopes", ...}`.
    func mintToken(_ body: JSONObject) async throws -> JSONObject {
        if let message = body.unknownKeyMessage(accepted: Self.mintingKeys) { throw AdminError.badRequest(message) }
        guard let appID = body["app_id"]?.stringValue, !appID.isEmpty else { throw AdminError.badRequest("Give \"app_id\".") }
        let subject: MintSubject
        switch (body["user"], body["subject"]) {
        case (.string(let name)?, nil) where !name.isEmpty: subject = .user(name)
        case (nil, .string(let sub)?) where MintSubject.isAcceptable(sub): subject = .unstored(sub)
        case (nil, nil): throw AdminError.badRequest("Give \"user\": a test user's ID or email (or \"subject\": a sub no stored user has).")
        case (_?, _?): throw AdminError.badRequest("Give \"user\" or \"subject\", not both.")
        case (_?, nil): throw AdminError.badRequest("\"user\" must be a test user's ID or email.")
        case (nil, _?): throw AdminError.badRequest("\"subject\" must be 1 to 64 letters, digits, '-', '_' or '.'.")
        }
        guard let app = try await services.store.app(id: appID) else {
            throw AdminError.notFound("No app with ID \(appID).")
        }
        guard AdminCaller.current.mayTouch(app: appID) else { throw AdminCaller.current.outOfScope("App \(appID) is not this credential's.") }
        let user: TestUserRecord
        switch subject {
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
        switch body["ignore_development_mode"] {
        case nil, .bool(false)?:
            if case .user = subject, try await !services.store.admits(app, userID: user.id) {
                throw AdminError.conflict(
                    "App \(app.id) is in development mode and \(user.id) has no role on it: give them one, or send \"ignore_development_mode\": true."
                )
            }
        case .bool(true)?: break
        default: throw AdminError.badRequest("\"ignore_development_mode\" must be true or false.")
        }
        let tracking: LoginTracking
        switch body["tracking"]?.stringValue ?? (body["tracking"] == nil ? "limited" : nil) {
        case "limited"?: tracking = .limited
        case "enabled"?: tracking = .enabled
        default: throw AdminError.badRequest("\"tracking\" must be \"limited\" or \"enabled\".")
        }
        if tracking == .enabled, case .unstored = subject {
            throw AdminError.badRequest(
                "A \"subject\" without a stored user gets an ID token only (\"tracking\": \"limited\"); give \"user\" for a classic login.")
        }
        var defect: TokenDefect?
        if let value = body["defect"] {
            guard let name = value.stringValue, let known = TokenDefect(rawValue: name) else {
                throw AdminError.badRequest(
                    "Unknown defect \(value.stringValue.map { "\"\($0)\"" } ?? "(not a string)"); one of: "
                        + TokenDefect.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            defect = known
        }
        let names: [String]
        switch body["permissions"] {
        case nil: names = ["public_profile"]
        case .string(let text)?: names = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        case .array(let values)?:
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw AdminError.badRequest("\"permissions\" must be a list of permission names.") }
            names = strings
        default: throw AdminError.badRequest("\"permissions\" must be a list of permission names, or one comma-separated string.")
        }
        let nonce: String
        switch (body["nonce"], body["raw_nonce"]) {
        case (nil, nil): nonce = UUID().uuidString
        case (.string(let text)?, nil): nonce = text
        case (nil, .string(let raw)?): nonce = Nonce.sha256Hex(ofRaw: raw)
        case (_?, _?): throw AdminError.badRequest("Give \"nonce\" or \"raw_nonce\", not both.")
        case (_?, nil): throw AdminError.badRequest("\"nonce\" must be a string.")
        case (nil, _?): throw AdminError.badRequest("\"raw_nonce\" must be a string.")
        }
        let overrides: TokenClaimOverrides.Request
        switch TokenClaimOverrides.read(body, issuedAt: ProviderTime.now(), lifetime: services.configuration.lifetimes.idToken) {
        case .failure(let message): throw AdminError.badRequest(message.text)
        case .success(let times): overrides = times
        }
        var permissions = Set(names.map { Permission(name: $0) })
        permissions.insert(.publicProfile)
        do { try LoginConfiguration.validate(permissions: permissions, tracking: tracking, nonce: nonce) } catch {
            throw AdminError.badRequest(error.description)
        }

        var granted: Set<Permission>
        switch subject {
        case .user:
            let completion = LoginCompletion(services: services)
            let scope = permissions.sorted { $0.name < $1.name }
            granted = try await completion.recordConsent(appID: app.id, userID: user.id, scope: scope, ticked: permissions).granted
        case .unstored:
            granted = permissions
        }
        if tracking == .limited { granted = granted.filter(\.isAllowedInLimitedLogin) }
        let issuer = TokenIssuer(services: services)
        var answer: [String: JSONValue] = [:]
        var accessToken: IssuedAccessToken?
        if tracking == .enabled {
            let issued = try await issuer.accessToken(app: app, userID: user.id)
            accessToken = issued
            answer["access_token"] = .string(issued.token)
            answer["expires_in"] = .number(Double(issued.expiresIn))
            answer["data_access_expiration_time"] = .number(Double(issued.dataAccessExpiresAt))
        }
        let idToken = try await issuer.idToken(
            app: app, user: user, granted: granted, nonce: nonce, accessToken: accessToken?.token, overrides: overrides.claims, defect: defect,
            lifetime: overrides.lifetime, subject: subject.unstoredSubject
        )
        answer["id_token"] = .string(idToken.token)
        answer["claims"] = .object(idToken.claims)
        answer["granted_scopes"] = .array(granted.map(\.name).sorted().map { .string($0) })
        if let defect { answer["defect"] = .string(defect.rawValue) }
        services.logger.info(
            "token minted",
            metadata: [
                "app": "\(app.id)", "user": "\(subject.unstoredSubject.map { "subject " + $0 } ?? user.id)", "limited": "\(tracking == .limited)",
                "defect": "\(defect?.rawValue ?? "none")",
            ])
        return JSONObject(answer)
    }
}
