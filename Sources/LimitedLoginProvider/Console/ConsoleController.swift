import Foundation
import HTTPTypes
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The console at `/_console`: a tester's web page for what the admin API does, signed in with the admin
/// token. Plain HTML forms (no script needed); each form is one admin operation (``AdminOperations``,
/// ``ConsoleAction``), checked against the session's CSRF token first.
///
/// - `GET /_console`: the console, or its sign-in.
/// - `POST /_console/signin` (`admin_token`), `POST /_console/signout`.
/// - `POST /_console/actions/:name`: a change; on success the browser is sent back to the console
///   (303) with a notice, on a refusal the console is shown with the admin API's message and status.
///   A minted token is shown on the answer itself (200), once.
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
        router.get("/_console") { request, _ in try await show(request) }
        router.post("/_console/signin") { request, _ in try await signIn(request) }
        router.post("/_console/signout") { request, _ in try await signOut(request) }
        router.post("/_console/actions/:name") { request, context in try await act(request, name: context.parameters.get("name") ?? "") }
    }

    private var secure: Bool { services.urls.isSecure }

    /// The request's console session in the current generation (``ConsoleEpoch``), or nil.
    private func currentSession(_ request: Request) async throws -> String? {
        session.session(in: request, now: ProviderTime.systemNow(), epoch: try await ConsoleEpoch.current(services.store))
    }

    private func show(_ request: Request) async throws -> Response {
        guard let current = try await currentSession(request) else {
            return try signInPage(errorMessage: nil, status: .ok)
        }
        let done = request.uri.queryParameters.get("done").flatMap { ConsoleAction.doneMessage(for: $0) }
        return try await ConsolePage(services: services, operations: operations).render(
            csrf: session.formToken(for: current), notice: done, errorMessage: nil, status: .ok)
    }

    private func signInPage(errorMessage: String?, status: HTTPResponse.Status) throws -> Response {
        var context: [String: Any] = ["title": "Console: sign in"]
        if let errorMessage { context["errorMessage"] = errorMessage }
        let html = try services.pages.render(.consoleSignIn, context)
        return Responses.html(html, status: status)
    }

    private func signIn(_ request: Request) async throws -> Response {
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        let address = ClientAddress.current
        let now = ProviderTime.systemNow()
        if let retryAfter = await services.adminTokenAttempts.refusal(address: address, now: now) {
            var response = try signInPage(errorMessage: AdminController.tooManyWrongTokens(retryAfter: retryAfter), status: .tooManyRequests)
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        guard let given = form.all("admin_token").first, form.all("admin_token").count == 1, !given.isEmpty,
            constantTimeEquals(given, adminToken)
        else {
            await services.adminTokenAttempts.failed(address: address, now: now)
            services.logger.notice("console sign-in refused: wrong admin token")
            return try signInPage(errorMessage: "That is not this provider's admin token.", status: .unauthorized)
        }
        services.logger.notice("console signed in")
        var response = Responses.redirect(to: "/_console", afterPost: true)
        let epoch = try await ConsoleEpoch.current(services.store)
        response.setCookie(session.cookie(session.newSession(now: ProviderTime.systemNow(), epoch: epoch), secure: secure))
        return response
    }

    private func signOut(_ request: Request) async throws -> Response {
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        guard let current = try await currentSession(request) else {
            return Responses.redirect(to: "/_console", afterPost: true)
        }
        guard session.isFormToken(form.all("csrf").first, for: current) else { return try forged() }
        // Ends this session and every other one for good (a new generation), not only this browser's cookie.
        try await ConsoleEpoch.renew(services.store)
        services.logger.notice("console signed out: every console session ended")
        var response = Responses.redirect(to: "/_console", afterPost: true)
        response.setCookie(session.endingCookie(secure: secure))
        return response
    }

    private func act(_ request: Request, name: String) async throws -> Response {
        guard let current = try await currentSession(request) else {
            return try signInPage(errorMessage: "Sign in to the console first (or again: console sign-ins last 8 hours).", status: .unauthorized)
        }
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        guard form.all("csrf").count == 1, session.isFormToken(form.all("csrf").first, for: current) else { return try forged() }
        let csrf = session.formToken(for: current)
        let page = ConsolePage(services: services, operations: operations)
        let action: ConsoleAction
        do { action = try ConsoleAction.parse(name, form) } catch {
            return try await page.render(csrf: csrf, notice: nil, errorMessage: error.message, status: .badRequest)
        }
        let minted: JSONObject?
        do { minted = try await action.perform(operations) } catch let error as AdminError {
            return try await page.render(csrf: csrf, notice: nil, errorMessage: error.message, status: error.status)
        }
        services.logger.info("console action", metadata: ["action": "\(name)"])
        if let minted {
            // The token is shown once, on this answer, to copy; it is not kept anywhere to show again.
            return try await page.render(
                csrf: csrf, notice: ConsoleAction.doneMessage(for: name), errorMessage: nil, status: .ok, minted: minted
            )
        }
        return Responses.redirect(to: "/_console?done=\(name)#\(action.section)", afterPost: true)
    }

    private func forged() throws -> Response {
        services.logger.notice("console form refused: missing or foreign CSRF token")
        let html = try services.pages.render(.error, ["title": "This form was refused", "message": Self.forgedForm, "homeURL": "/_console"])
        return Responses.html(html, status: .forbidden)
    }
}
