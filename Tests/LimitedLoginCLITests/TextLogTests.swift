import Foundation
import LimitedLoginTestSupport
import Logging
import Testing

@testable import limited_login

/// Issue #31 item 5: the text log writes what a client sent with its control characters escaped, so an
/// unknown `client_id` carrying a newline or a terminal escape cannot add a line or move the cursor.
@Suite("serve: the text log escapes control characters")
struct TextLogTests {
    @Test("escapes: newline, carriage return, tab, ESC, DEL, C1, line separator; other text unchanged")
    func escapes() {
        #expect(TextLogHandler.escaped("plain café 🙂") == "plain café 🙂")
        #expect(TextLogHandler.escaped("a\nb\rc\td") == "a\\nb\\rc\\td")
        #expect(TextLogHandler.escaped("x\u{1B}[2Jy\u{7F}\u{85}\u{2028}") == "x\\u{1B}[2Jy\\u{7F}\\u{85}\\u{2028}")
    }

    @Test("a request line written from its parts is the line swift-log's way writes, escapes included; not with logger metadata")
    func requestLineFromParts() throws {
        let handler = TextLogHandler(label: "limited-login")
        let time = "2026-11-27T07:41:39+0000"
        let requests: [(level: Logger.Level, method: String, path: String, status: Int, duration: String, requestID: String)] = [
            (.info, "GET", "/.well-known/oauth/openid/jwks/", 200, "0.1", "7a6e5a5f712ecf14"),
            (.debug, "POST", "/v21.0/dialog/oauth/login", 302, "12.0", "proxy-id_1.2"),
            (.error, "GET", "/a\nfake line\u{1B}[2J/café\u{85}", 500, "1234.5", ""),
        ]
        for request in requests {
            let fromParts = handler.requestLine(
                level: request.level, method: request.method, path: request.path, status: request.status, duration: request.duration,
                requestID: request.requestID, source: "LimitedLoginProvider", time: time)
            let event = LogEvent(
                level: request.level, message: "\(request.method) \(request.path) \(request.status) \(request.duration) ms",
                metadata: [
                    "request_id": .string(request.requestID), "status": .stringConvertible(request.status), "duration_ms": .string(request.duration),
                ],
                source: "LimitedLoginProvider", file: #fileID, function: #function, line: #line)
            #expect(fromParts == handler.line(for: event, time: time))
        }
        #expect(
            try #require(
                handler.requestLine(
                    level: .info, method: "GET", path: "/a\nb", status: 404, duration: "0.0", requestID: "x", source: "LimitedLoginProvider",
                    time: time))
                == "2026-11-27T07:41:39+0000 info limited-login: duration_ms=0.0 request_id=x status=404 [LimitedLoginProvider] GET /a\\nb 404 0.0 ms\n"
        )
        var withMetadata = handler
        withMetadata[metadataKey: "hb.request.id"] = "1"
        #expect(
            withMetadata.requestLine(
                level: .info, method: "GET", path: "/", status: 200, duration: "0.0", requestID: "x", source: "LimitedLoginProvider", time: time)
                == nil)
    }

    @Test("the logger's own metadata is written escaped, however it was set")
    func ownMetadataEscaped() {
        struct Shown: CustomStringConvertible { var description: String { "c\u{1B}d" } }
        var handler = TextLogHandler(label: "limited-login")
        handler[metadataKey: "a"] = "x\ny"
        handler.metadata["b"] = .stringConvertible(Shown())
        let event = LogEvent(level: .info, message: "m", metadata: nil, source: "S", file: #fileID, function: #function, line: #line)
        #expect(handler.line(for: event, time: "T") == "T info limited-login: a=x\\ny b=c\\u{1B}d [S] m\n")
        #expect(handler[metadataKey: "a"] == "x\\ny")
        #expect(handler.metadata["b"] == "c\\u{1B}d")
    }

    @Test("a dialog request whose client_id holds a newline and ESC logs one escaped line")
    func dialogClientID() async throws {
        let folder = try temporaryFolder("limited-login-log")
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: folder)
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        let answer = try await LoopbackSocket(port: port).exchange(
            "GET /v21.0/dialog/oauth?client_id=12%0Afake%20line%1B%5B2J&redirect_uri=x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        #expect(answer.hasPrefix("HTTP/1.1 4"), "\(answer.prefix(60))")
        try await Task.sleep(for: .milliseconds(300))
        await server.stop()
        let output = server.output
        #expect(!output.contains("\u{1B}"), "an ESC byte reached the log")
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("fake line") }, "a client's newline started a log line")
        #expect(output.contains("12\\nfake line\\u{1B}[2J"), "the value is logged escaped: \(output.suffix(600))")
    }
}
