import HTTPTypes
import Hummingbird

/// The answer to a request for a page that does not exist (404; Hummingbird's router also answers 404 to a
/// method a path does not take), or a 405 a handler throws bare: a real page for a browser (an HTML page
/// saying so, with a link home) and one line of text for anything else, instead of an empty body. Answers a
/// handler made itself (a Graph API error, an admin API error) pass unchanged: only the router's bare
/// refusals are dressed. ``ProviderRequestMiddleware`` calls it for every request.
struct MissingPage {
    let services: ProviderServices

    /// True for the bare refusals this dresses.
    static func dresses(_ error: HTTPError) -> Bool {
        error.body == nil && (error.status == .notFound || error.status == .methodNotAllowed)
    }

    func page(for status: HTTPResponse.Status, _ request: Request) throws -> Response {
        let path = request.uri.path
        let method = request.method.rawValue
        let (title, message): (String, String)
        if status == .methodNotAllowed {
            (title, message) = ("Method not allowed", "\(path) does not take \(method) requests.")
        } else if request.method == .get || request.method == .head {
            (title, message) = ("Page not found", "There is no page at \(path) on this provider.")
        } else {
            (title, message) = ("Page not found", "This provider answers nothing to \(method) \(path).")
        }
        let wantsHTML = (request.headers[.accept] ?? "").lowercased().contains("text/html")
        guard wantsHTML else { return Responses.text(message + "\n", status: status) }
        let html = try services.pages.render(.error, ["title": title, "message": message, "homeURL": services.urls.baseURL + "/"])
        return Responses.html(html, status: status)
    }
}
