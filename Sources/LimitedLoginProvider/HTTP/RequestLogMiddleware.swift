import Hummingbird
import Logging

/// Logs each request's method, path (never the query, which carries nonces, codes and tokens) and
/// status.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            logger.debug("\(request.method) \(request.uri.path) \(response.status.code)")
            return response
        } catch let error as HTTPError {
            logger.info("\(request.method) \(request.uri.path) \(error.status.code)")
            throw error
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
            throw HTTPError(.internalServerError, message: "The provider failed to answer; see its log.")
        }
    }
}
