import HTTPTypes
import Hummingbird
import LimitedLoginJOSE

/// Why an admin operation refused: a status and one sentence saying what to give instead. Thrown by the
/// admin API's operations and answered as `{"error": {"message": …}}` with the status, whoever called
/// (the `/_admin` routes, the console, the CLI through them).
struct AdminError: Error, HTTPResponseError, Equatable {
    let status: HTTPResponse.Status
    let message: String
    /// Seconds until the same request may succeed (429), sent as Retry-After.
    var retryAfter: Int64?

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A body or a value that cannot be used (400).
    static func badRequest(_ message: String) -> AdminError { AdminError(.badRequest, message) }
    /// What the request names does not exist (404).
    static func notFound(_ message: String) -> AdminError { AdminError(.notFound, message) }
    /// It would clash with what exists (409).
    static func conflict(_ message: String) -> AdminError { AdminError(.conflict, message) }

    /// The admin API's error document.
    var json: JSONValue { .object(["error": .object(["message": .string(message)])]) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Responses.json(json, status: status)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
