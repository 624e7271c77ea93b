import Foundation
import HTTPTypes
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The console at `/_console`: a tester's web page for what the admin API does, signed in with the admin
/// token, or with a scoped credential's token, which shows and allows only what that credential may touch
/// (``ConsoleSection/isOpen(to:)``, ``ConsoleAction/isOpen(_:to:)``). Plain HTML forms (no script needed); each form is one admin operation (``AdminOperations``,
/// ``ConsoleAction``), checked against the session's CSRF token first.
///
/// - `GET /_console`: the overview, or the sign-in; `GET /_console/{section}`: a section (``ConsoleSection``),
///   its list searched with `?q=`.
/// - `POST /_console/signin` (`admin_token`), `POST /_console/signout`.
/// - `POST /_console/actions/:name`: a change; on success the browser is sent back to the action's
///   section (303) with a notice, on a refusal the section is shown with the admin API's message and
///   status and the form as it was typed. A minted token is shown on the answer itself (200), once.
/// - `GET /_console/confirm/:name`: the question before a delete, removal or uninstall (whose links
///   lead there); `GET /_console/export`: the state as a fixtures document.
struct ConsoleController: Sendable {
    let services: ProviderServices
    let adminToken: String
    let session: ConsoleSession
    let operations: AdminOperations

    init(services: ProviderServices, adminToken: String) {
        self.services = services
        self.adminToken = adminToken
        session = ConsoleSession(csrf: services.csrf, adminToken: adminToken)
        operations = AdminOperations(services: services)
    }

    static let forgedForm =
        "This form did not come from this console session (its security token is missing or wrong). Reload the console and try again."

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/_console") { request, _ in try await show(request, section: .overview) }
        router.post("/_console/signin") { request, _ in try await signIn(request) }
        router.post("/_console/signout") { request, _ in try await signOut(request) }
        router.post("/_console/actions/:name") { request, context in try await act(request, name: context.parameters.get("name") ?? "") }
        // The fixed paths before the section parameter beside them.
        router.get("/_console/confirm/:name") { request, context in try await confirm(request, action: context.parameters.get("name") ?? "") }
        router.get("/_console/export") { request, _ in try await export(request) }
        router.get("/_console/:name") { request, context in
            guard let section = ConsoleSection(pathComponent: context.parameters.get("name") ?? "") else { throw HTTPError(.notFound) }
            return try await show(request, section: section)
        }
    }

    private var secure: Bool { services.urls.isSecure }

    /// The request's console session in the current generation (``ConsoleEpoch``), with who signed it in; nil
    /// without one, or when its credential was revoked.
    private func currentSession(_ request: Request) async throws -> (cookie: String, caller: AdminCaller)? {
        guard let presented = session.presented(in: request) else { return nil }
        let epoch = try await ConsoleEpoch.current(services.store)
        let now = ProviderTime.systemNow()
        guard let name = presented.credentialName else {
            return session.isValid(presented, credential: nil, now: now, epoch: epoch) ? (presented.value, .organisation) : nil
        }
        guard let credential = try await services.store.adminCredential(name: name), credential.revokedAt == nil,
            session.isValid(presented, credential: credential, now: now, epoch: epoch)
        else { return nil }
        return (presented.value, .credential(name: credential.name, apps: Set(credential.apps)))
    }

    private func show(_ request: Request, section: ConsoleSection) async throws -> Response {
        guard let (current, caller) = try await currentSession(request) else {
            return try signInPage(errorMessage: nil, status: .ok)
        }
        let query = Self.query(of: request)
        var shown = ConsolePage.Shown()
        shown.notice = query.all("done").first.flatMap { ConsoleAction.doneMessage(for: $0) }
        shown.search = query.all("q").first.map { String($0.prefix(200)) }
        return try await AdminCaller.$current.withValue(caller) {
            let page = ConsolePage(services: services, operations: operations)
            guard section.isOpen(to: caller) else {
                shown.errorMessage = Self.closedSection(section, to: caller)
                return try await page.render(.overview, csrf: session.formToken(for: current), shown, status: .forbidden)
            }
            return try await page.render(section, csrf: session.formToken(for: current), shown)
        }
    }

    static func closedSection(_ section: ConsoleSection, to caller: AdminCaller) -> String {
        "\(section.title) needs the organisation's admin token. The credential \(caller.logName) may touch only its apps and their test users."
    }

    /// `GET /_console/confirm/{action}?…`: the question before a change that cannot be undone.
    private func confirm(_ request: Request, action: String) async throws -> Response {
        guard let (current, caller) = try await currentSession(request) else {
            return try signInPage(errorMessage: nil, status: .ok)
        }
        return try await AdminCaller.$current.withValue(caller) { try await confirm(request, action: action, csrf: session.formToken(for: current)) }
    }

    private func confirm(_ request: Request, action: String, csrf: String) async throws -> Response {
        let page = ConsolePage(services: services, operations: operations)
        var query: [String: String] = [:]
        for pair in Self.query(of: request).pairs where query[pair.name] == nil { query[pair.name] = pair.value }
        // A scoped credential is asked only about what it may change: another app's, or a user of none of its
        // apps, is not found.
        if case .credential = AdminCaller.current {
            let appOK = query["app_id"].map { AdminCaller.current.mayTouch(app: $0) } ?? true
            var userOK = true
            if let user = query["user_id"] { userOK = try await operations.visibleUser(user) != nil }
            guard ConsoleAction.isOpen(action, to: AdminCaller.current), appOK, userOK else {
                var shown = ConsolePage.Shown()
                shown.errorMessage = "Nothing this credential may change is named there."
                return try await page.render(.overview, csrf: csrf, shown, status: .notFound)
            }
        }
        switch try await ConsoleConfirmation.make(action, query: query, store: services.store) {
        case .failure(let refusal):
            var shown = ConsolePage.Shown()
            shown.errorMessage = refusal.message
            return try await page.render(refusal.section, csrf: csrf, shown, status: .notFound)
        case .success(let confirmation):
            var context = page.frame(confirmation.section, csrf: csrf, ConsolePage.Shown())
            context["title"] = "Console: " + confirmation.question
            context.merge(confirmation.context()) { _, new in new }
            return Responses.html(try services.pages.render(.consoleConfirm, context), policy: Responses.consolePolicy)
        }
    }

    /// `GET /_console/export[?include_keys=true]`: the state as a fixtures document, to download.
    private func export(_ request: Request) async throws -> Response {
        guard let (_, caller) = try await currentSession(request) else {
            return try signInPage(errorMessage: "Sign in to the console first (or again: console sign-ins last 8 hours).", status: .unauthorized)
        }
        guard caller == .organisation else {
            return Responses.json(caller.outOfScope("Exporting the state needs the organisation's admin token.").json, status: .forbidden)
        }
        let includeKeys = Self.query(of: request).all("include_keys").first == "true"
        let data = try await operations.exportState(includingKeys: includeKeys)
        var response = Responses.jsonBytes(Array(data))
        response.headers[.contentDisposition] =
            "attachment; filename=\"limited-login-state\(includeKeys ? "-with-keys" : "").json\""
        return response
    }

    /// A console page's query, read as the console's GET forms encode it (a space is `+`); an unreadable
    /// one counts as empty.
    private static func query(of request: Request) -> FormParameters {
        (try? FormParameters(encoded: request.uri.query ?? "")) ?? FormParameters()
    }

    private func signInPage(errorMessage: String?, status: HTTPResponse.Status) throws -> Response {
        var context: [String: Any] = ["title": "Console: sign in"]
        if let errorMessage { context["errorMessage"] = errorMessage }
        let html = try services.pages.render(.consoleSignIn, context)
        return Responses.html(html, status: status, policy: Responses.consolePolicy)
    }

    private func signIn(_ request: Request) async throws -> Response {
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        // Another site's page cannot post here (it could not read the answer, but its wrong tokens would count
        // against this address): refused before the token is looked at, and not counted.
        if let site = CrossSitePost.refusal(request, publicBaseURL: services.urls.baseURL) {
            services.logger.notice("console sign-in refused: a post from another site", metadata: ["from": "\(site)"])
            return try signInPage(errorMessage: CrossSitePost.message, status: .forbidden)
        }
        let given = form.all("admin_token").count == 1 ? form.all("admin_token").first ?? "" : ""
        var credential: AdminCredentialRecord?
        if AdminCredentialToken.isCredentialShaped(given),
            let found = try await services.store.adminCredential(tokenSHA256: AdminCredentialToken.hash(given)), found.revokedAt == nil
        {
            credential = found
        }
        // The right token always signs in: wrong ones are counted only to slow guessing (as the admin API's).
        if credential == nil, given.isEmpty || !constantTimeEquals(given, adminToken) {
            let address = ClientAddress.of(request, trusting: services.configuration.trustedProxies)
            let now = ProviderTime.systemNow()
            if let retryAfter = await services.adminTokenAttempts.refusal(address: address, now: now) {
                var response = try signInPage(
                    errorMessage: AdminController.tooManyWrongTokens(retryAfter: retryAfter), status: .tooManyRequests)
                response.headers[.retryAfter] = String(retryAfter)
                return response
            }
            await services.adminTokenAttempts.failed(address: address, now: now)
            services.logger.notice("console sign-in refused: wrong admin token")
            return try signInPage(errorMessage: "That is not this provider's admin token.", status: .unauthorized)
        }
        services.logger.notice("console signed in", metadata: ["credential": "\(credential?.name ?? AdminCaller.organisation.logName)"])
        var response = Responses.redirect(to: "/_console", afterPost: true)
        let epoch = try await ConsoleEpoch.current(services.store)
        response.setCookie(
            session.cookie(session.newSession(now: ProviderTime.systemNow(), epoch: epoch, credential: credential), secure: secure))
        return response
    }

    private func signOut(_ request: Request) async throws -> Response {
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        guard let (current, caller) = try await currentSession(request) else {
            return Responses.redirect(to: "/_console", afterPost: true)
        }
        guard session.isFormToken(form.all("csrf").first, for: current) else { return try forged() }
        if case .credential(let name, _) = caller {
            // A team's sign-out ends its browser's session (revoking the credential ends all of its sessions).
            services.logger.notice("console signed out", metadata: ["credential": "\(name)"])
            var response = Responses.redirect(to: "/_console", afterPost: true)
            response.setCookie(session.endingCookie(secure: secure))
            return response
        }
        // Ends this session and every other one for good (a new generation), not only this browser's cookie.
        try await ConsoleEpoch.renew(services.store)
        services.logger.notice("console signed out: every console session ended")
        var response = Responses.redirect(to: "/_console", afterPost: true)
        response.setCookie(session.endingCookie(secure: secure))
        return response
    }

    private func act(_ request: Request, name: String) async throws -> Response {
        guard let (current, caller) = try await currentSession(request) else {
            return try signInPage(errorMessage: "Sign in to the console first (or again: console sign-ins last 8 hours).", status: .unauthorized)
        }
        return try await AdminCaller.$current.withValue(caller) { try await act(request, name: name, session: current) }
    }

    private func act(_ request: Request, name: String, session current: String) async throws -> Response {
        var request = request
        let limit = name == "import-state" ? AdminStateController.maximumImportSize : services.configuration.maximumBodySize
        let form = try await request.formBody(limit: limit)
        guard form.all("csrf").count == 1, session.isFormToken(form.all("csrf").first, for: current) else { return try forged() }
        let csrf = session.formToken(for: current)
        let page = ConsolePage(services: services, operations: operations)
        let section = ConsoleAction.section(of: name)
        // A refused form is shown again with what was typed; so is a minting's, to mint the next one.
        var shown = ConsolePage.Shown()
        shown.kept = ConsoleKeptForm(action: name, form: form)
        if name == "inspect-token" {
            let token = (form.all("token").first ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty, token.utf8.count <= ConsoleTokenView.maximumLength else {
                shown.errorMessage =
                    token.isEmpty ? "Paste an ID token to decode." : "That is longer than any ID token (\(ConsoleTokenView.maximumLength) bytes)."
                return try await page.render(.tokens, csrf: csrf, shown, status: .badRequest)
            }
            shown.token = await ConsoleTokenView.make(heading: "The token", token: token, appID: form.all("app_id").first, services: services)
            shown.notice = ConsoleAction.doneMessage(for: name)
            return try await page.render(.tokens, csrf: csrf, shown)
        }
        guard ConsoleAction.isOpen(name, to: AdminCaller.current) else {
            shown.errorMessage = AdminCaller.current.outOfScope("This change needs the organisation's admin token.").message
            return try await page.render(section.isOpen(to: AdminCaller.current) ? section : .overview, csrf: csrf, shown, status: .forbidden)
        }
        let action: ConsoleAction
        do { action = try ConsoleAction.parse(name, form) } catch {
            shown.errorMessage = error.message
            return try await page.render(section, csrf: csrf, shown, status: .badRequest)
        }
        let minted: MintedToken?
        do { minted = try await action.perform(operations) } catch let error as AdminError {
            shown.errorMessage = error.message
            return try await page.render(section, csrf: csrf, shown, status: error.status)
        }
        services.logger.info("console action", metadata: ["action": "\(name)"])
        await services.adminLog.record(by: AdminCaller.current, operation: "console \(name)", target: request.uri.path)
        if let minted {
            // The token is shown once, on this answer, to copy; it is not kept anywhere to show again.
            shown.token = await ConsoleTokenView.make(
                heading: "The minted token", token: minted.idToken.token, accessToken: minted.accessToken?.token,
                appID: form.all("app_id").first, services: services)
            shown.notice = ConsoleAction.doneMessage(for: name)
            return try await page.render(.tokens, csrf: csrf, shown)
        }
        return Responses.redirect(to: "\(action.section.path)?done=\(name)", afterPost: true)
    }

    private func forged() throws -> Response {
        services.logger.notice("console form refused: missing or foreign CSRF token")
        let html = try services.pages.render(.error, ["title": "This form was refused", "message": Self.forgedForm, "homeURL": "/_console"])
        return Responses.html(html, status: .forbidden)
    }
}
