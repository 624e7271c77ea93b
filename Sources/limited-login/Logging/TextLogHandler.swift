import LimitedLoginProvider
import Logging

/// `serve --log-format text` (the default): swift-log's standard-error format, with every control
/// character of the message and the metadata written as an escape (`\n`, `\u{1B}`), so that what a client
/// sends (an unknown `client_id` with a newline or a terminal escape) cannot add a line to the log or move
/// a reader's cursor.
///
/// The line is built here rather than by swift-log's `StreamLogHandler`, whose lock around each write
/// and time-zone read per line were most of a static endpoint's cost (``LogLineWriter``).
struct TextLogHandler: LogHandler, RequestLineHandler {
    let label: String
    var logLevel: Logger.Level = .info
    /// The logger's own metadata as set, escaped only when a line is written: Hummingbird sets a key on
    /// every request's logger (`hb.request.id`), which is nearly never logged; made into text at once, it
    /// cost static endpoints 1.3 % of their time (docs/PERFORMANCE.md, "Request logging").
    private var ownMetadata: Logger.Metadata = [:]

    var metadata: Logger.Metadata {
        get { ownMetadata.mapValues(Self.escaped) }
        set { ownMetadata = newValue }
    }

    /// Where lines go: standard error's writer, or a test's.
    private let writer: LogLineWriter

    init(label: String, writer: LogLineWriter = .standardError) {
        self.label = label
        self.writer = writer
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { ownMetadata[key].map(Self.escaped) }
        set { ownMetadata[key] = newValue }
    }

    /// One line, `2026-11-27T07:41:39+0000 info limited-login: duration_ms=0.2 request_id=… status=200
    /// [LimitedLoginProvider] GET /health 200 0.2 ms` (swift-log's stream format, the time in UTC), queued
    /// to ``LogLineWriter``; an error line is written at once.
    func log(event: LogEvent) {
        writer.write(line(for: event, time: LogTimestamp.text()), level: event.level)
    }

    /// The line for `event`, at `time`.
    func line(for event: LogEvent, time: String) -> String {
        var lineMetadata = ownMetadata.isEmpty ? [:] : ownMetadata.mapValues(Self.escaped)
        if let own = event.metadata {
            for (key, value) in own { lineMetadata[key] = Self.escaped(value) }
        }
        if let error = event.error {
            lineMetadata["error.message"] = .string(Self.escaped("\(error)"))
            lineMetadata["error.type"] = .string(String(reflecting: type(of: error)))
        }
        var line = time
        line += " \(event.level) \(label):"
        for (key, value) in lineMetadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        line += " [\(event.source)] "
        line += Self.escaped(event.message.description)
        line += "\n"
        return line
    }

    /// The request line as `log(event:)` writes it (keys sorted: `duration_ms`, `request_id`, `status`),
    /// built directly; false when the logger has metadata of its own, whose keys would sort among these.
    /// Queued, the line is written straight into the queue's entry, its time first (no string is made for
    /// either); an error line is written at once.
    func logRequestLine(
        level: Logger.Level, method: String, path: String, status: Int, duration: String, requestID: String, source: String
    ) -> Bool {
        guard ownMetadata.isEmpty else { return false }
        let line = RequestLineParts(
            level: level, label: label, method: method, path: path, status: status, duration: duration, requestID: requestID, source: source)
        guard level < .error else {
            writer.writeNow(line.text(time: LogTimestamp.text()))
            return true
        }
        writer.enqueue(capacity: LogTimestamp.textLength + line.byteCount) { buffer in
            let time = LogTimestamp.writeText(into: buffer)
            return line.write(into: buffer, from: time)
        }
        return true
    }

    /// The request line at `time`; nil when the logger has metadata of its own.
    func requestLine(
        level: Logger.Level, method: String, path: String, status: Int, duration: String, requestID: String, source: String, time: String
    ) -> String? {
        guard ownMetadata.isEmpty else { return nil }
        return RequestLineParts(
            level: level, label: label, method: method, path: path, status: status, duration: duration, requestID: requestID, source: source
        ).text(time: time)
    }

    /// `text` with each control character (C0, DEL, C1, and the Unicode line and paragraph separators)
    /// written as a Swift-style escape.
    static func escaped(_ text: String) -> String {
        // Printable ASCII (every request line's parts, nearly always) has nothing to escape.
        var text = text
        if text.withUTF8({ $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) { return text }
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

/// A request line after its time: "<level> <label>: duration_ms=… request_id=… status=… [<source>] ", then
/// the message, "<method> <path> <status> <duration> ms", escaped part by part (escaping is character by
/// character, so the same text as escaping the whole), and a newline.
struct RequestLineParts {
    private let level: String
    private let label: String
    private let method: String
    private let path: String
    private let status: String
    private let duration: String
    private let requestID: String
    private let source: String
    /// The line's length in bytes, its time aside.
    private(set) var byteCount = 0

    init(level: Logger.Level, label: String, method: String, path: String, status: Int, duration: String, requestID: String, source: String) {
        self.level = level.rawValue
        self.label = label
        self.method = TextLogHandler.escaped(method)
        self.path = TextLogHandler.escaped(path)
        self.status = String(status)
        self.duration = TextLogHandler.escaped(duration)
        self.requestID = TextLogHandler.escaped(requestID)
        self.source = source
        var count = 0
        forEachPiece { count += $0.utf8.count }
        byteCount = count
    }

    /// The line's pieces in order (no list is made of them: a request's line allocates nothing but its entry).
    @inline(__always)
    private func forEachPiece(_ body: (String) -> Void) {
        body(" ")
        body(level)
        body(" ")
        body(label)
        body(": duration_ms=")
        body(duration)
        body(" request_id=")
        body(requestID)
        body(" status=")
        body(status)
        body(" [")
        body(source)
        body("] ")
        body(method)
        body(" ")
        body(path)
        body(" ")
        body(status)
        body(" ")
        body(duration)
        body(" ms\n")
    }

    /// The pieces written into `buffer` from `start` (``byteCount`` bytes must fit); returns where they end.
    func write(into buffer: UnsafeMutableBufferPointer<UInt8>, from start: Int) -> Int {
        var at = start
        forEachPiece { piece in
            var piece = piece
            piece.withUTF8 { utf8 in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[at..<at + utf8.count]).initialize(fromContentsOf: utf8)
                at += utf8.count
            }
        }
        return at
    }

    /// The whole line, after `time`.
    func text(time: String) -> String {
        var time = time
        return time.withUTF8 { timeBytes in
            String(unsafeUninitializedCapacity: timeBytes.count + byteCount) { buffer in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[..<timeBytes.count]).initialize(fromContentsOf: timeBytes)
                return write(into: buffer, from: timeBytes.count)
            }
        }
    }
}
