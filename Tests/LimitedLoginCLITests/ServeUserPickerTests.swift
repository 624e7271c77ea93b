import Foundation
import Testing

@Suite("limited-login serve --no-user-picker")
struct ServeUserPickerTests {
    @Test("--no-user-picker: the sign-in page offers no test user and no search, only email and password")
    func noUserPicker() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-picker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--no-user-picker"], directory: folder)
        defer { Task { await server.stop() } }
        let dialogLine = try #require(server.output.split(separator: "\n").first { $0.contains("/v21.0/dialog/oauth?") })
        let page = try await HTTPExchange.send(dialogLine.trimmingCharacters(in: .whitespaces))
        #expect(page.status == 200)
        #expect(page.body.contains("id=\"password-form\""))
        #expect(!page.body.contains("id=\"user-picker\"") && !page.body.contains("id=\"user-search\""))
        #expect(!page.body.contains("Alice Example") && !page.body.contains("Log in as"), "no test user is offered")
        await server.stop()
    }
}
