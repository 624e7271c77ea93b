import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Logs one line per request: method, path (never the query, which carries nonces, codes and tokens),
/// status and duration, with a request ID. The ID is the client's `X-Request-Id` when it is a plausible one
/// (a proxy's, say), else a new one; it is sent back in `X-Request-Id` and carried by every line logged
/// while the request is answered (`RequestLogContext`).
///
/// Lines are at info, except for what is polled or fetched by browsers on their own (`/health`, `/metrics`,
/// `/favicon.ico`: debug) and failures of the provider itself (error).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let logger: Logger

    static let requestIDField = HTTPField.Name("X-Request-Id")!
    private static let quietPaths: Set<String> = ["/health", "/metrics", "/favicon.ico"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = Self.requestID(offered: request.headers[Self.requestIDField])
        let start = ContinuousClock.now
        return try await RequestLogContext.$requestID.withValue(id) {
            do {
                var response = try await next(request, context)
                response.headers[Self.requestIDField] = id
                log(request, status: response.status.code, since: start)
                return response
            } catch let error as HTTPError {
                log(request, status: error.status.code, since: start)
                throw error
            } catch {
                logger.error(
                    "\(request.method) \(request.uri.path) failed: \(type(of: error))",
                    metadata: ["request_id": .string(id), "duration_ms": .string(Self.milliseconds(since: start))]
                )
                throw HTTPError(.internalServerError, message: "The provider failed to answer; see its log.")
            }
        }
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        let level: Logger.Level = status >= 500 ? .error : (Self.quietPaths.contains(request.uri.path) ? .debug : .info)
        // A polled path at debug is dropped at the default level: nothing to format for it.
        guard logger.logLevel <= level else { return }
        let duration = Self.milliseconds(since: start)
        logger.log(
            level: level, "\(request.method) \(request.uri.path) \(status) \(duration) ms",
            metadata: ["request_id": .string(RequestLogContext.requestID ?? ""), "status": .stringConvertible(status), "duration_ms": .string(duration)]
        )
    }

    /// The client's ID when it is 1–64 characters of letters, digits, `-`, `_`, `.`; else a new one.
    static func requestID(offered: String?) -> String {
        if let offered, (1...64).contains(offered.utf8.count),
           offered.utf8.allSatisfy({ $0 < 128 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")) }) {
            return offered
        }
        return RandomIdentifiers.requestID()
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let value = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(format: "%.1f", value)
    }
}
