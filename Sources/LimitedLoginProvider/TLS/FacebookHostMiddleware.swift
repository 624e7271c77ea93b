import Hummingbird

/// Routes by `Host` when the provider is reached under a Facebook host name (``FacebookHosts``): a path
/// that host does not serve is a 404, as on the real service, so a client that calls the wrong host
/// finds out here rather than in production. Requests to any other host name pass unchanged.
struct FacebookHostMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = FacebookHosts.host(of: request.head.authority) else {
            return try await next(request, context)
        }
        guard FacebookHosts.serves(request.uri.path, on: host) else { throw HTTPError(.notFound) }
        return try await FacebookHostContext.$host.withValue(host) { try await next(request, context) }
    }
}

/// The Facebook host name the current request came in under, if any (read by discovery).
enum FacebookHostContext {
    @TaskLocal static var host: String?
}
