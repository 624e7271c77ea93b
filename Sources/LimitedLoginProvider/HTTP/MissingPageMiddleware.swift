import HTTPTypes
import Hummingbird

/// Answers a request for a page that does not exist (404; Hummingbird's router also answers 404 to a
/// method a path does not take), or a 405 a handler throws bare, with a real page for a browser (an HTML
/// page saying so, with a link home) and one line of text for anything else, instead of an empty body. Answers a handler made itself (a Graph API error, an admin
/// API error) pass unchanged: only the router's bare refusals are dressed.
struct MissingPageMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let services: ProviderServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.body == nil && [.notFound, .methodNotAllowed].contains(error.status) {
            return try page(for: error.status, request)
        }
    }

    private func page(for status: HTTPResponse.Status, _ request: Request) throws -> Response {
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
