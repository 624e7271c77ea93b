import Logging

/// A log handler that writes a request's line from its parts, as it would have written the same line
/// logged through swift-log, without the metadata dictionary that path builds, merges and sorts for
/// every request (most of a static endpoint's logging cost: docs/PERFORMANCE.md, "Request logging").
/// `serve`'s text format is one; the provider's request log uses it when the provider's logger has one.
public protocol RequestLineHandler: LogHandler {
    /// Writes the line that `log(level:message:metadata:source:)` would, for the message
    /// `"<method> <path> <status> <duration> ms"` with the metadata `duration_ms` (`duration`),
    /// `request_id` and `status`; false, having written nothing, when it cannot write that same line
    /// itself (the caller then logs it the ordinary way).
    func logRequestLine(
        level: Logger.Level, method: String, path: String, status: Int, duration: String, requestID: String, source: String
    ) -> Bool
}
