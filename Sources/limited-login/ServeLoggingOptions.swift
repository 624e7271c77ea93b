import ArgumentParser
import Logging

/// `serve`'s logging options: the level, the format, the level of each request's line, and who may read `/metrics`.
struct ServeLoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(name: .customLong("log-format"), help: "text (default), or json: one JSON object per line on standard error, for log shippers.")
    var logFormat = "text"

    @Option(
        name: .customLong("request-log"),
        help: "The level of each answered request's line: info (default: every request is logged) or debug (logged only with --log-level debug).")
    var requestLog = "info"

    @Flag(
        name: .customLong("public-metrics"),
        help:
            "Serve GET /metrics to anyone; by default it needs the admin token (Authorization: Bearer, as a Prometheus scrape job's authorization sets it)."
    )
    var publicMetrics = false

    /// The logger the options ask for.
    var logger: Logger { (LogFormat(rawValue: logFormat) ?? .text).logger(level: Logger.Level(rawValue: logLevel) ?? .info) }

    func validate() throws {
        guard LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json.")
        }
        guard requestLog == "info" || requestLog == "debug" else {
            throw ValidationError("--request-log must be info or debug.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
    }
}
