import HTTPTypes
import Hummingbird

/// `HEAD` beside `GET` for the documents any client may ask about without taking them (uptime checks, caches
/// revalidating, `curl -I`): the same status and headers as `GET`, its `Content-Length` included, and no body
/// (RFC 9110 section 9.3.2). Only routes whose `GET` changes nothing are given one: a `HEAD` of the dialog
/// must not log anyone in.
extension Router where Context == BasicRequestContext {
    /// Routes `GET` and `HEAD` of `path` to `handler`.
    func getAndHead(
        _ path: RouterPath, use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        get(path, use: handler)
        head(path) { request, context in
            // The handlers of these routes read the request's headers (If-None-Match), not its method.
            let response = try await handler(request, context)
            var headers = response.headers
            if headers[.contentLength] == nil, let length = response.body.contentLength {
                headers[.contentLength] = String(length)
            }
            return Response(status: response.status, headers: headers, body: ResponseBody())
        }
    }
}
