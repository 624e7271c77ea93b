import Foundation
import LimitedLoginTestSupport
import Logging
import Testing

@testable import limited_login

#if canImport(Glibc)
import Glibc
#endif

/// Issue #37: request lines are queued to a writer thread instead of written under a lock one by one;
/// none may be lost, reordered within a thread, or left unwritten when `serve` stops.
@Suite("serve: request log lines")
struct RequestLogLineTests {
    @Test("the log's times are UTC, to the second in text and to the millisecond in JSON")
    func timestamps() {
        #expect(LogTimestamp.format(seconds: 0, nanoseconds: 0, fraction: false) == "1970-01-01T00:00:00+0000")
        #expect(LogTimestamp.format(seconds: 1_795_771_299, nanoseconds: 123_999_999, fraction: true) == "2026-11-27T09:21:39.123Z")
        #expect(LogTimestamp.format(seconds: 1_709_251_199, nanoseconds: 5_000_000, fraction: true) == "2024-02-29T23:59:59.005Z")
        #expect(LogTimestamp.text().hasSuffix("+0000") && LogTimestamp.text().count == 24)
    }

    @Test("a time's UTC date by arithmetic is gmtime_r's, 1900 to 2200, before 1970 and around leap days too")
    func utcTimeIsGmtime() {
        func gmtime(_ seconds: Int) -> UTCTime {
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            return UTCTime(
                year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), hour: Int(parts.tm_hour),
                minute: Int(parts.tm_min), second: Int(parts.tm_sec))
        }
        // A step of a day and a bit lands on every time of day across the range; then the edges of days and years.
        var instants = Array(stride(from: -2_208_988_800, to: 7_258_118_400, by: 97_213))
        for edge in [0, 951_782_400, 951_868_800, -2_203_891_200, 4_107_542_400, 4_107_456_000, 1_709_164_800, 1_735_689_600] {
            instants += [edge - 1, edge, edge + 1]
        }
        let wrong = instants.filter { UTCTime(secondsSince1970: $0) != gmtime($0) }
        #expect(wrong.count == 0, "\(wrong.prefix(5).map { "\($0): \(UTCTime(secondsSince1970: $0)) against \(gmtime($0))" })")
        #expect(UTCTime(secondsSince1970: -1) == UTCTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(UTCTime(secondsSince1970: 951_782_400) == UTCTime(year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0))
    }

    @Test("lines queued by eight threads at once are all written, each thread's in its order, also past the backlog limit")
    func writerKeepsEveryLine() async throws {
        let log = try LogFile("limited-login-log-writer")
        defer { log.closeFile() }
        let writer = log.writer
        let perThread = 5_000
        // 8 × 5,000 lines of about 60 bytes: 2.4 MB, past the 1 MiB at which a line writes the queue itself.
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 0..<perThread {
                        writer.enqueue("thread \(thread) line \(index) " + String(repeating: "x", count: 32) + "\n")
                    }
                }
            }
        }
        writer.flush()
        let lines = try log.text().split(separator: "\n")
        #expect(lines.count == 8 * perThread)
        var next = Array(repeating: 0, count: 8)
        for line in lines {
            let words = line.split(separator: " ")
            let thread = try #require(Int(words[1]))
            #expect(Int(words[3]) == next[thread], "thread \(thread)'s lines out of order at \(line)")
            next[thread] += 1
        }
        #expect(next == Array(repeating: perThread, count: 8))
    }

    @Test("a request line written straight into its queue entry is the line made from its parts, escapes included; an error line at once")
    func requestLineIntoItsEntry() throws {
        let log = try LogFile("limited-login-log-entry")
        defer { log.closeFile() }
        let writer = log.writer
        let handler = TextLogHandler(label: "limited-login", writer: writer)
        // A path with a newline and an ESC (escaped, so longer than it came) and a multi-byte character.
        let requests: [(level: Logger.Level, path: String, status: Int)] = [
            (.info, "/.well-known/oauth/openid/jwks/", 200), (.debug, "/dialog\nfake\u{1B}[2J/é", 404), (.error, "/graph/me", 500),
        ]
        for request in requests {
            #expect(
                handler.logRequestLine(
                    level: request.level, method: "GET", path: request.path, status: request.status, duration: "0.4",
                    requestID: "r-1", source: "LimitedLoginProvider"))
        }
        // The error line was written at once, after the lines queued before it: nothing left to flush.
        let written = try log.text().split(separator: "\n", omittingEmptySubsequences: false)
        try #require(written.count == requests.count + 1)
        for (line, request) in zip(written, requests) {
            let time = String(line.prefix(LogTimestamp.textLength))
            #expect(time.hasSuffix("+0000") && time.utf8.count == LogTimestamp.textLength)
            let expected = handler.requestLine(
                level: request.level, method: "GET", path: request.path, status: request.status, duration: "0.4", requestID: "r-1",
                source: "LimitedLoginProvider", time: time)
            #expect(String(line) + "\n" == expected)
        }
        #expect(written[1].hasSuffix("[LimitedLoginProvider] GET /dialog\\nfake\\u{1B}[2J/é 404 0.4 ms"))
    }

    @Test("a queue entry holds what its writer wrote, not its capacity")
    func entryKeepsWhatWasWritten() throws {
        let log = try LogFile("limited-login-log-entry-count")
        defer { log.closeFile() }
        let writer = log.writer
        writer.enqueue(capacity: 64) { buffer in
            _ = buffer.initialize(fromContentsOf: Array("short\n".utf8))
            return 6
        }
        writer.enqueue("second\n")
        writer.flush()
        #expect(try log.text() == "short\nsecond\n")
    }

    @Test("every request answered before SIGTERM has its line in the log when serve has stopped")
    func linesFlushedAtStop() async throws {
        let folder = try temporaryFolder("limited-login-log-stop")
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: folder)
        let requests = 200
        for _ in 0..<requests {
            let answer = try await HTTPExchange.send(server.baseURL + "/.well-known/openid-configuration/")
            try #require(answer.status == 200)
        }
        await server.stop()
        #expect(server.exitStatus == 0)
        var lines = 0
        for _ in 0..<50 {
            lines = server.output.split(separator: "\n").filter { $0.contains(" GET /.well-known/openid-configuration/ 200 ") }.count
            if lines >= requests { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(lines == requests, "\(server.output.suffix(400))")
    }

    @Test("--request-log debug keeps request lines out of the default log, in with --log-level debug; a bad value is refused")
    func requestLogLevel() async throws {
        let folder = try temporaryFolder("limited-login-request-log")
        for (arguments, logged) in [(["--request-log", "debug"], false), (["--request-log", "debug", "--log-level", "debug"], true), ([], true)] {
            let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"] + arguments, directory: folder)
            let answer = try await HTTPExchange.send(server.baseURL + "/.well-known/oauth/openid/jwks/")
            #expect(answer.status == 200)
            await server.stop()
            try await Task.sleep(for: .milliseconds(300))
            #expect(server.output.contains(" GET /.well-known/oauth/openid/jwks/ 200 ") == logged, "\(arguments): \(server.output.suffix(300))")
        }
        let bad = try await CLIProcess.run(["serve", "--database", ":memory:", "--request-log", "warning"])
        #expect(bad.status == 64)
        #expect(bad.error.hasPrefix("Error: --request-log must be info or debug.\n"), "\(bad.error)")
        let fromEnvironment = try await CLIProcess.run(["serve", "--database", ":memory:"], environment: ["LIMITED_LOGIN_REQUEST_LOG": "loud"])
        #expect(fromEnvironment.error.hasPrefix("Error: --request-log must be info or debug.\n"), "\(fromEnvironment.error)")
    }
}

/// A log file in a folder of its own and a writer on it, for a test to read back what was written.
private struct LogFile {
    let path: String
    let writer: LogLineWriter
    private let descriptor: Int32

    init(_ folderName: String) throws {
        path = try temporaryFolder(folderName).appendingPathComponent("log.txt").path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        writer = LogLineWriter(descriptor: descriptor)
    }

    func text() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func closeFile() {
        close(descriptor)
    }
}
