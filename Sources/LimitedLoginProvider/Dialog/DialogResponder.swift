import HTTPTypes
import Hummingbird
import LimitedLoginCore

/// Sends a result to the app's redirect URI in the request's response mode.
struct DialogResponder: Sendable {
    let pages: PageRenderer
    let metrics: ProviderMetrics

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

    /// An error for the app, with the request's state.
    func respond(_ target: DialogTarget, error: DialogErrorResponse, afterPost: Bool) throws -> Response {
        var parameters = FormParameters()
        parameters.append("error", error.error)
        parameters.append("error_code", String(error.code))
        parameters.append("error_message", error.message)
        if let state = target.state { parameters.append("state", state) }
        metrics.loginRefused(error: error.error)
        return try respond(target, parameters, afterPost: afterPost)
    }

    /// The person pressed Cancel (docs/BEHAVIOUR.md, section 2): no `error_message`, so SDKs read it as a cancel.
    func respondCancelled(_ target: DialogTarget, afterPost: Bool) throws -> Response {
        var parameters = FormParameters()
        parameters.append("error", "access_denied")
        parameters.append("error_code", "200")
        parameters.append("error_description", "Permissions error")
        parameters.append("error_reason", "user_denied")
        if let state = target.state { parameters.append("state", state) }
        metrics.loginCancelled()
        return try respond(target, parameters, afterPost: afterPost)
    }
}
