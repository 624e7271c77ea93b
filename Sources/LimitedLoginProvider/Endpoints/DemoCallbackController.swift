import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// `POST /demo/callback`: the redirect URI of the dialog URL that `serve` prints and the home page links,
/// so that a login tried in a browser ends on a page showing what the app would receive. It is a
/// loopback URI when the provider runs on loopback, and so allowed for every app without registration.
struct DemoCallbackController: Sendable {
    static let path = "/demo/callback"
    /// The demo dialog's `state`: this, then the app's ID.
    static let statePrefix = "demo-"
    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ in try await show(request) }
    }

    private func show(_ request: Request) async throws -> Response {
        var request = request
        let form = try await request.formBody(limit: services.configuration.maximumBodySize)
        var claimsText = ""
        var appID = ""
        var nonce = ""
        if let token = try? form.single("id_token"), let jws = try? CompactJWS(parsing: token) {
            claimsText = JSONSerializer.prettyPrinted(.object(jws.payload))
            appID = jws.payload["aud"]?.stringValue ?? ""
            nonce = jws.payload["nonce"]?.stringValue ?? ""
        }
        let failed = (try? form.single("error")) != nil
        // "Try again" opens the same dialog request: the one the provider carried back with a cancel or an error
        // (``DialogResponder/retryField``), or the demo dialog's for the app its state names.
        var retryDialogURL = ""
        if let kept = try? form.single(DialogResponder.retryField), let request = try? FormParameters(encoded: kept),
            let appID = try? request.single("client_id"), try await services.store.app(id: appID) != nil
        {
            retryDialogURL = "/dialog/oauth?" + request.encoded
        } else if let state = try? form.single("state"), state.hasPrefix(Self.statePrefix) {
            let appID = String(state.dropFirst(Self.statePrefix.count))
            if !appID.isEmpty, appID.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                try await services.store.app(id: appID) != nil
            {
                retryDialogURL = services.urls.limitedDialogURL(appID: appID)
            }
        }
        var context: [String: Any] = [
            "title": failed ? "Login not completed" : "Login complete",
            "heading": failed ? "The login did not complete" : "Login complete",
            "fields": form.pairs.filter { $0.name != DialogResponder.retryField }.map { ["name": $0.name, "value": $0.value] },
            "hasClaims": !claimsText.isEmpty,
            "claims": claimsText, "appID": appID, "homeURL": "/", "nonce": nonce, "discoveryURL": services.urls.discoveryURL,

        ]
        // Only a present URL opens its section (Mustache shows a section for an empty string too).
        if failed, !retryDialogURL.isEmpty { context["tryAgainURL"] = retryDialogURL }
        return Responses.html(try services.pages.render(.demoCallback, context))
    }
}
