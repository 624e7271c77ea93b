import Foundation
import LimitedLoginTestSupport
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
