import Foundation
import LimitedLoginJOSE
import Logging

/// `serve --log-format json`: one JSON object per line on standard error, for log shippers.
///
/// `{"time":"2026-11-23T17:50:59.123Z","level":"info","label":"limited-login","message":"GET /health 200 0.4 ms","request_id":"…",…}`:
/// the logger's and the line's metadata as string members beside the fixed ones (a metadata key that
/// would replace a fixed member is prefixed with `meta_`).
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    private static let fixedKeys: Set<String> = ["time", "level", "label", "message"]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var lineMetadata = metadata.merging(event.metadata ?? [:]) { _, line in line }
        if let error = event.error {
            lineMetadata["error.message"] = .string("\(error)")
            lineMetadata["error.type"] = .string(String(reflecting: type(of: error)))
        }
        let line =
            Self.line(level: event.level, message: event.message.description, label: label, metadata: lineMetadata, time: LogTimestamp.json()) + "\n"
        LogLineWriter.standardError.write(line, level: event.level)
    }

    /// The JSON line for one log event (no newline).
    static func line(level: Logger.Level, message: String, label: String, metadata: Logger.Metadata, time: String) -> String {
        var object: JSONObject = [
            "time": .string(time),
            "level": .string(level.rawValue), "label": .string(label), "message": .string(message),
        ]
        for (key, value) in metadata {
            object[fixedKeys.contains(key) ? "meta_" + key : key] = .string(value.description)
        }
        return String(decoding: JSONSerializer.serialize(.object(object)), as: UTF8.self)
    }
}

/// `--log-format`.
enum LogFormat: String, CaseIterable {
    case text
    case json

    /// The provider's logger, writing lines in this format from `level` up.
    func logger(level: Logger.Level) -> Logger {
        var logger =
            self == .json
            ? Logger(label: "limited-login") { JSONLogHandler(label: $0) }
            : Logger(label: "limited-login") { TextLogHandler(label: $0) }
        logger.logLevel = level
        return logger
    }
}
