import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One line per request: method, path (never the query, which carries nonces, codes and tokens), status
/// and duration, with a request ID. The ID is the client's `X-Request-Id` when it is a plausible one (a
/// proxy's, say), else a new one; it is sent back in `X-Request-Id` and carried by every line logged while
/// the request is answered (`RequestLogContext`). ``ProviderRequestMiddleware`` calls it for every request.
///
/// Lines are at info (or debug, by ``ProviderConfiguration/requestLogLevel``), except for what is polled or fetched by browsers on their own (`/health`, `/metrics`,
/// `/favicon.ico`: debug) and failures of the provider itself (error).
struct RequestLog {
    let logger: Logger
    /// The level of an answered request's line (``ProviderConfiguration/requestLogLevel``).
    var requestLevel: Logger.Level = .info
    /// The logger's handler when it writes request lines itself (``RequestLineHandler``).
    private let lineHandler: (any RequestLineHandler)?
    /// The module name swift-log gives as a line's source for the lines logged here.
    private static let source = String(#fileID.prefix { $0 != "/" })

    init(logger: Logger, requestLevel: Logger.Level = .info) {
        self.logger = logger
        self.requestLevel = requestLevel
        lineHandler = logger.handler as? any RequestLineHandler
    }

    static let requestIDField = HTTPField.Name("X-Request-Id")!
    private static let quietPaths: Set<String> = ["/health", "/metrics", "/favicon.ico"]

    /// The line for a request answered with `status` after `milliseconds`.
    func answered(_ request: Request, status: Int, milliseconds: Double) {
        // Read once: each read of a URI's path makes a new string.
        let path = request.uri.path
        let level: Logger.Level = status >= 500 ? .error : (Self.quietPaths.contains(path) ? .debug : requestLevel)
        // A polled path at debug is dropped at the default level: nothing to format for it.
        guard logger.logLevel <= level else { return }
        let duration = Self.format(milliseconds)
        let requestID = RequestLogContext.requestID ?? ""
        if let lineHandler,
            lineHandler.logRequestLine(
                level: level, method: request.method.rawValue, path: path, status: status, duration: duration, requestID: requestID,
                source: Self.source)
        {
            return
        }
        logger.log(
            level: level, "\(request.method) \(path) \(status) \(duration) ms",
            metadata: [
                "request_id": .string(requestID), "status": .stringConvertible(status), "duration_ms": .string(duration),
            ]
        )
    }

    /// The line for a request whose handler failed with something other than an HTTP error (answered 500).
    func failed(_ request: Request, error: any Error, milliseconds: Double) {
        logger.error(
            "\(request.method) \(request.uri.path) failed: \(type(of: error))",
            metadata: ["request_id": .string(RequestLogContext.requestID ?? ""), "duration_ms": .string(Self.format(milliseconds))]
        )
    }

    /// The client's ID when it is 1–64 characters of letters, digits, `-`, `_`, `.`; else a new one.
    static func requestID(offered: String?) -> String {
        if let offered, (1...64).contains(offered.utf8.count),
            offered.utf8.allSatisfy({
                $0 < 128 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "."))
            })
        {
            return offered
        }
        return RandomIdentifiers.requestID()
    }

    /// `milliseconds` to one decimal (`0.4`, `12.0`), as `%.1f` would write it, without Foundation's
    /// formatter (a third of a request line's cost when it was used).
    static func format(_ milliseconds: Double) -> String {
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e12 else { return String(format: "%.1f", milliseconds) }
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
