import HTTPTypes
import Hummingbird
import LimitedLoginCore

/// Sends a result to the app's redirect URI in the request's response mode.
struct DialogResponder: Sendable {
    let pages: PageRenderer
    let metrics: ProviderMetrics
    /// The provider's own demo page (``DemoCallbackController``), the one redirect URI a cancel or an error
    /// carries its dialog request back to, so that its "Try again" reopens that request.
    let demoCallbackURL: String

    init(services: ProviderServices) {
        pages = services.pages
        metrics = services.metrics
        demoCallbackURL = services.urls.baseURL + DemoCallbackController.path
    }

    /// The form field carrying the dialog request (its query) to the demo page; an app's own redirect URI never
    /// gets it, and the demo page does not show it among what the app receives.
    static let retryField = "limited_login_dialog_request"

    /// Adds the dialog request for the demo page's "Try again", when the answer goes there (in the POST body).
    private func carryingBack(_ query: String?, _ target: DialogTarget, in parameters: inout FormParameters) {
        guard let query, target.responseMode == .formPost, target.redirectURI == demoCallbackURL else { return }
        parameters.append(Self.retryField, query)
    }

    func respond(_ target: DialogTarget, _ parameters: FormParameters, afterPost: Bool) throws -> Response {
        switch target.responseMode {
        case .fragment:
            return Responses.redirect(to: target.redirectURI + "#" + parameters.encoded, afterPost: afterPost)
        case .query:
            let separator = target.redirectURI.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
            return Responses.redirect(to: target.redirectURI + separator + parameters.encoded, afterPost: afterPost)
        case .formPost:
            let scriptNonce = RandomIdentifiers.secret(byteCount: 16)
            let html = try pages.render(
                .formPost,
                [
                    "title": "Returning to \(target.app.name)",
                    "appName": target.app.name,
                    "redirectURI": target.redirectURI,
                    "scriptNonce": scriptNonce,
                    "fields": parameters.pairs.map { ["name": $0.name, "value": $0.value] },
                ])
            var response = Responses.html(html)
            response.headers[HTTPField.Name("Content-Security-Policy")!] = Responses.formPostPolicy(
                scriptNonce: scriptNonce, formAction: FormActionSource.of(target.redirectURI))
            return response
        }
    }

    /// An error for the app, with the request's state (and, to the demo page, the request to try again).
    func respond(_ target: DialogTarget, error: DialogErrorResponse, retrying query: String? = nil, afterPost: Bool) throws -> Response {
        var parameters = FormParameters()
        parameters.append("error", error.error)
        parameters.append("error_code", String(error.code))
        parameters.append("error_message", error.message)
        if let state = target.state { parameters.append("state", state) }
        carryingBack(query, target, in: &parameters)
        metrics.loginRefused(error: error.error)
        return try respond(target, parameters, afterPost: afterPost)
    }

    /// The person pressed Cancel (docs/BEHAVIOUR.md, section 2): no `error_message`, so SDKs read it as a cancel.
    func respondCancelled(_ target: DialogTarget, retrying query: String? = nil, afterPost: Bool) throws -> Response {
        var parameters = FormParameters()
        parameters.append("error", "access_denied")
        parameters.append("error_code", "200")
        parameters.append("error_description", "Permissions error")
        parameters.append("error_reason", "user_denied")
        if let state = target.state { parameters.append("state", state) }
        carryingBack(query, target, in: &parameters)
        metrics.loginCancelled()
        return try respond(target, parameters, afterPost: afterPost)
    }
}
