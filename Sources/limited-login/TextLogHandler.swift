import Logging

/// `serve --log-format text` (the default): swift-log's standard-error format, with every control
/// character of the message and the metadata written as an escape (`\n`, `\u{1B}`), so that what a client
/// sends (an unknown `client_id` with a newline or a terminal escape) cannot add a line to the log or move
/// a reader's cursor.
struct TextLogHandler: LogHandler {
    private var inner: StreamLogHandler

    init(label: String) {
        inner = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue.mapValues(Self.escaped) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue.map(Self.escaped) }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.escaped(event.message.description))
        event.metadata = event.metadata?.mapValues(Self.escaped)
        inner.log(event: event)
    }

    /// `text` with each control character (C0, DEL, C1, and the Unicode line and paragraph separators)
    /// written as a Swift-style escape.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func escaped(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): return .string(escaped(text))
        case .stringConvertible(let convertible): return .string(escaped(convertible.description))
        case .array(let values): return .array(values.map(escaped))
        case .dictionary(let values): return .dictionary(values.mapValues(escaped))
        }
    }
}
