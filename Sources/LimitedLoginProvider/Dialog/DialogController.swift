import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The login dialog (docs/BEHAVIOUR.md, section 2): `GET [/{version}]/dialog/oauth`, the sign-in form and the
/// consent form.
struct DialogController: Sendable {
    static let signInPath = "/dialog/oauth/signin"
    static let confirmPath = "/dialog/oauth/confirm"

    let services: ProviderServices
    var parser: DialogRequestParser { DialogRequestParser(store: services.store) }
    var responder: DialogResponder { DialogResponder(services: services) }
    var completion: LoginCompletion { LoginCompletion(services: services) }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dialog/oauth") { request, _ in try await show(request) }
        router.get("/:version/dialog/oauth") { request, context in
            guard let version = context.parameters.get("version"), Self.isVersion(version) else {
                throw HTTPError(.notFound)
            }
            return try await show(request)
        }
        router.get(RouterPath(Self.signInPath)) { request, _ in try await searchUsers(request) }
        router.post(RouterPath(Self.signInPath)) { request, _ in try await signIn(request) }
        router.post(RouterPath(Self.confirmPath)) { request, _ in try await confirm(request) }
    }

    /// `v21.0`, `v2.12`: a `v`, digits, a dot, digits.
    static func isVersion(_ text: String) -> Bool {
        // Read as bytes: it runs on every dialog request.
        var utf8 = text.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "v") else { return false }
        var digits = 0
        var parts = 1
        while let byte = utf8.next() {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts == 1 else { return false }
                parts = 2
                digits = 0
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 4 else { return false }
                digits += 1
            }
        }
        return parts == 2 && digits > 0
    }

    // MARK: - GET /dialog/oauth

    private func show(_ request: Request) async throws -> Response {
        let dialog: DialogRequest
        do { dialog = try await parser.parse(query: request.uri.query ?? "") } catch {
            return try failure(error, afterPost: false)
        }
        let user = try await signedInUser(request)
        if dialog.promptNone {
            return try await silent(dialog, user: user)
        }
        guard let user else {
            return try await signInPage(dialog, request: request, error: nil, email: nil, status: .ok)
        }
        if let refusal = try await developmentModeRefusal(dialog, user: user) {
            return try errorPage(refusal, switchingAccount: BrowserCookies.value(BrowserCookies.session, in: request).map { (dialog, $0) })
        }
        if let answer = try completion.scenarioAnswer(dialog, user: user, afterPost: false) { return answer }
        let (grant, friends) = try await services.store.grantAndVisibleFriends(appID: dialog.app.id, userID: user.id)
        if dialog.authType == nil, let grant, LoginCompletion.hasDecided(grant, on: dialog) {
            return try await completion.complete(dialog, user: user, grant: grant, friendASIDs: friends, afterPost: false)
        }
        return try await consentPage(dialog, user: user, request: request)
    }

    /// `prompt=none`: answer without showing anything.
    private func silent(_ dialog: DialogRequest, user: TestUserRecord?) async throws -> Response {
        guard let user, try await developmentModeRefusal(dialog, user: user) == nil else {
            return try responder.respond(dialog.target, error: .loginRequired, afterPost: false)
        }
        if let hint = dialog.idTokenHint {
            let verified: String
            do {
                verified = try await ReturnedTokenChecker(services: services)
                    .verify(hint, appID: dialog.app.id, acceptingExpired: true, includingDroppedKeys: true).claims.sub
            } catch {
                return try responder.respond(
                    dialog.target,
                    error: .invalidRequest("The id_token_hint is not an ID token this provider issued for this app: \(error.description)"),
                    afterPost: false
                )
            }
            let asid = try await services.store.appScopedID(appID: dialog.app.id, userID: user.id)
            guard verified.hasSameBytes(as: asid) else {
                return try responder.respond(dialog.target, error: .loginRequired, afterPost: false)
            }
        }
        let (grant, friends) = try await services.store.grantAndVisibleFriends(appID: dialog.app.id, userID: user.id)
        guard let grant, LoginCompletion.hasDecided(grant, on: dialog) else {
            return try responder.respond(dialog.target, error: .consentRequired, afterPost: false)
        }
        return try await completion.complete(dialog, user: user, grant: grant, friendASIDs: friends, afterPost: false)
    }

    // MARK: - POST /dialog/oauth/confirm

    private func confirm(_ request: Request) async throws -> Response {
        let (form, parsed) = try await postedDialog(request)
        let dialog: DialogRequest
        switch parsed {
        case .success(let request): dialog = request
        case .failure(let error): return try failure(error, afterPost: true)
        }
        let session = BrowserCookies.value(BrowserCookies.session, in: request)
        guard let session, let userID = try await services.store.sessionUserID(secret: session),
            let user = try await services.store.user(id: userID)
        else {
            return Responses.redirect(to: "/dialog/oauth?" + dialog.query, afterPost: true)
        }
        let consentBinding = Self.consentBinding(session: session, request: try value(form, "request") ?? "")
        if let refusal = try await spendFormToken(try value(form, "csrf_token"), for: .consent, binding: consentBinding) {
            return try errorPage(refusal, retrying: dialog)
        }
        let action = try value(form, "action")
        // "Switch account" first: it is also how someone refused by a Development-mode app gets out.
        if action != "switch", let refusal = try await developmentModeRefusal(dialog, user: user) {
            return try errorPage(refusal, switchingAccount: (dialog, session))
        }
        switch action {
        case "continue"?:
            let ticked = Set(form.all("permission").map { Permission(name: $0) })
            let grant = try await completion.recordConsent(dialog, userID: user.id, ticked: ticked)
            return try await completion.complete(dialog, user: user, grant: grant, friendASIDs: nil, afterPost: true)
        case "cancel"?:
            return try responder.respondCancelled(dialog.target, retrying: dialog.query, afterPost: true)
        case "switch"?:
            // "Not you?": this browser's session ends, and the same dialog request starts again at sign-in.
            try await services.store.deleteSession(secret: session)
            var response = Responses.redirect(to: "/dialog/oauth?" + dialog.query, afterPost: true)
            response.setCookie(BrowserCookies.make(name: BrowserCookies.session, value: "", maxAge: 0, secure: services.urls.isSecure))
            return response
        default:
            return try errorPage(.badRequest("The consent form needs action=continue, action=cancel or action=switch."))
        }
    }

    /// An app in Development mode lets in only the people with a role on it (docs/BEHAVIOUR.md, section 2),
    /// with the real service's page for the others.
    func developmentModeRefusal(_ dialog: DialogRequest, user: TestUserRecord) async throws -> DialogPageError? {
        guard try await !services.store.admits(dialog.app, userID: user.id) else { return nil }
        return Self.appNotSetUp
    }

    static let appNotSetUp = DialogPageError(
        status: 403, title: "App not set up",
        message:
            "This app is still in development mode, and you don't have access to it. Switch to a registered test user or ask an app admin for permissions."
    )

    // MARK: - Pages

    /// A posted dialog form and the dialog request it carries (field `request`), or why that request fails.
    func postedDialog(_ request: Request) async throws -> (FormParameters, Result<DialogRequest, DialogFailure>) {
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        let query = try value(form, "request") ?? ""
        do { return (form, .success(try await parser.parse(query: query))) } catch {
            return (form, .failure(error))
        }
    }

    /// A form field; a repeated one is a bad request.
    func value(_ form: FormParameters, _ name: String) throws(HTTPError) -> String? {
        do { return try form.single(name) } catch {
            throw HTTPError(.badRequest, message: "The form is ambiguous: \(error.description).")
        }
    }

    static let csrfFailure = DialogPageError(
        status: 403, title: "This page has expired",
        message: "The form's security token is missing or wrong. Try again, or go back to the app and start the login again."
    )

    static let formExpired = DialogPageError(
        status: 403, title: "This page has expired",
        message: "The form was open for longer than an hour. Try again, or go back to the app and start the login again."
    )

    static let formReplayed = DialogPageError(
        status: 403, title: "This form was already sent",
        message: "Each form of the login dialog can be sent once, and this one was. Try again, or go back to the app and start the login again."
    )

    /// Checks a posted form token and consumes it in the store (single use, on every node). Nil when the
    /// form may go on; otherwise the page to answer with.
    /// What a consent form's token is bound to: the browser's session and the dialog request the form was
    /// shown for, so that the token of one request's page cannot consent to another (an app, scope or redirect
    /// the person was never shown).
    static func consentBinding(session: String, request: String) -> String {
        session + "|" + request
    }

    func spendFormToken(_ token: String?, for purpose: CSRFProtection.Purpose, binding: String?) async throws -> DialogPageError? {
        let now = ProviderTime.now()
        switch services.csrf.check(token, for: purpose, binding: binding, now: now) {
        case .invalid:
            return Self.csrfFailure
        case .expired:
            return Self.formExpired
        case .valid(let hash, let expiresAt):
            try await services.store.purgeUsedFormTokens(settled: ProviderTime.settledNow())
            // Its record may be gone: refused, so that a clock moved back cannot make a used form usable again.
            if expiresAt < (try await services.store.usedFormsHorizon()) { return Self.formExpired }
            return try await services.store.consumeFormToken(hash: hash, expiresAt: expiresAt) ? nil : Self.formReplayed
        }
    }

    func signedInUser(_ request: Request) async throws -> TestUserRecord? {
        guard let secret = BrowserCookies.value(BrowserCookies.session, in: request),
            let userID = try await services.store.sessionUserID(secret: secret)
        else { return nil }
        return try await services.store.user(id: userID)
    }

    func failure(_ failure: DialogFailure, afterPost: Bool) throws -> Response {
        switch failure {
        case .page(let page): return try errorPage(page)
        case .redirect(let target, let error): return try responder.respond(target, error: error, afterPost: afterPost)
        }
    }

    /// The page for `error`; with `retrying`, a "Try again" that reopens that dialog request (a form that
    /// was sent twice, or kept open too long, leaves the request itself good).
    /// `switchingAccount`: the dialog request and the browser's session, for a page that offers "Switch account"
    /// (a person an app in Development mode refuses: the session would otherwise keep them on this page).
    func errorPage(
        _ error: DialogPageError, retrying dialog: DialogRequest? = nil, switchingAccount: (DialogRequest, String)? = nil
    ) throws -> Response {
        // An operator looking into "the login does not work" needs the reason the person was shown.
        services.logger.log(
            level: error.status >= 500 ? .error : .info, "dialog error page: \(error.title)",
            metadata: RequestLogContext.adding(to: ["status": "\(error.status)", "reason": "\(error.message)"])
        )
        services.metrics.dialogShown("error")
        services.metrics.error("dialog_page", code: String(error.status))
        // Every error page has a way out: the provider's home page, whatever else it offers.
        var context: [String: Any] = ["title": error.title, "message": error.message, "homeURL": services.urls.baseURL + "/"]
        if let dialog { context["retryURL"] = "/dialog/oauth?" + dialog.query }
        if let (dialog, session) = switchingAccount {
            context["switchAccount"] = true
            context["confirmPath"] = Self.confirmPath
            context["csrfToken"] = services.csrf.token(
                for: .consent, binding: Self.consentBinding(session: session, request: dialog.query), now: ProviderTime.now())
            context["request"] = dialog.query
        }
        let html = try services.pages.render(.error, context)
        var response = Responses.html(html, status: HTTPResponse.Status(code: error.status))
        if error.status == 503 { response.headers[.retryAfter] = String(StoreOutage.retryAfter) }
        return response
    }

    private func consentPage(_ dialog: DialogRequest, user: TestUserRecord, request: Request) async throws -> Response {
        guard let session = BrowserCookies.value(BrowserCookies.session, in: request) else {
            throw HTTPError(.internalServerError)
        }
        let permissions: [[String: Any]] = dialog.scope.map { permission in
            [
                "name": permission.name,
                "words": PermissionWording.words(for: permission),
                "required": permission == .publicProfile,
            ]
        }
        services.metrics.dialogShown("consent")
        let html = try services.pages.render(
            .consent,
            [
                "title": "\(dialog.app.name) is requesting access",
                "appName": dialog.app.name,
                "appInitial": Avatar.initial(of: dialog.app.name),
                "userInitial": Avatar.initial(of: user.fullName),
                "avatarClass": Avatar.colorClass(for: user.id),
                "hasOptional": dialog.scope.contains { $0 != .publicProfile },
                "userName": user.fullName,
                "firstName": user.firstName,
                "limited": dialog.limited,
                "permissions": permissions,
                "confirmPath": Self.confirmPath,
                "csrfToken": services.csrf.token(
                    for: .consent, binding: Self.consentBinding(session: session, request: dialog.query), now: ProviderTime.now()),
                "request": dialog.query,
            ])
        return Responses.html(html)
    }
}
