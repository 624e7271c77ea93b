import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import SQLKit
import Testing

@testable import LimitedLoginProvider

/// Issue #36 items 4 and 5: a store that cannot write shows in `/health` (503 with the reason), and a request
/// the store fails under is 503 with `Retry-After` in its client's shape (a page for a browser, the admin
/// API's JSON, the Graph API's error), never a raw 500. The faults are SQLite's own: `PRAGMA query_only`
/// (what a read-only file gives) and `PRAGMA max_page_count` at the file's size (SQLITE_FULL, what a full
/// disk gives).
@Suite("Store faults: health tells the truth, 503 with Retry-After in each client's shape")
struct StoreFaultAnswerTests {
    /// Waits out the health verdict's reuse, then asks `/health`.
    static func health(_ client: any TestClientProtocol) async throws -> (HTTPResponse.Status, String) {
        try await Task.sleep(for: .nanoseconds(Int64(RecentHealthCheck.reuseInterval) + 100_000_000))
        let response = try await client.execute(uri: "/health", method: .get)
        return (response.status, String(buffer: response.body))
    }

    @Test("a read-only store: /health 503 naming it, each kind of client gets 503 and Retry-After in its shape; writable again, /health 200")
    func readOnly() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            #expect(try await Self.health(client).0 == .ok)
            try await provider.store.db.raw("PRAGMA query_only = 1").run()
            let (status, body) = try await Self.health(client)
            #expect(status == .serviceUnavailable)
            #expect(body == #"{"reason":"the store cannot write: the store is read-only","status":"unavailable"}"#, "\(body)")

            let message = "The provider cannot use its store (the store is read-only). Try again in a few seconds."
            // The admin API's JSON.
            let created = try await admin(
                client, "/_admin/users", method: .post, json: #"{"first_name":"A","last_name":"B","email":"ro@example.com"}"#)
            #expect(created.status == .serviceUnavailable)
            #expect(created.message == message)
            // A browser: the page. (Signing in writes a session.)
            let browser = DialogBrowser(client: client)
            let signIn = try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: try await browser.get(dialogPath()))
            #expect(signIn.status == .serviceUnavailable, "\(signIn.body.prefix(200))")
            #expect(signIn.body.contains(message) && signIn.headers[.retryAfter] == "5")
            try await provider.store.db.raw("PRAGMA query_only = 0").run()
            // Writable again: a write succeeds, and /health says so (how long a refused write is remembered
            // without one is LoggingTests', on its own clock).
            let written = try await admin(
                client, "/_admin/users", method: .post, json: #"{"first_name":"A","last_name":"B","email":"ro@example.com"}"#)
            #expect(written.status == .created)
            #expect(try await Self.health(client).0 == .ok)

            // Anything else gets the Graph API's shape for a temporary failure: a Graph call on a store that is gone.
            await provider.store.close()
            let graph = try await client.execute(uri: "/v21.0/me?access_token=EAAnothing", method: .get)
            let graphBody = String(buffer: graph.body)
            #expect(graph.status == .serviceUnavailable, "\(graphBody)")
            #expect(
                graphBody.contains(#""code":2"#) && graphBody.contains(#""is_transient":true"#) && graphBody.contains(#""type":"OAuthException""#),
                "\(graphBody)")
            #expect(graph.headers[.retryAfter] == "5")
        }
    }

    @Test("a full store (SQLITE_FULL): writes answer 503 naming a full disk, /health names it, and nothing is half-written")
    func full() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = harnessConfiguration()
        configuration.store = .sqliteFile(path: folder.appendingPathComponent("store.sqlite").path)
        try await withProvider(configuration) { client, provider in
            let pages = try #require(try await provider.store.db.raw("PRAGMA page_count").all().first?.decode(column: "page_count", as: Int.self))
            try await provider.store.db.raw(SQLQueryString("PRAGMA max_page_count = \(unsafeRaw: String(pages))")).run()
            var refused: AdminReply?
            for index in 0..<400 {
                let padding = String(repeating: "x", count: 900)
                let reply = try await admin(
                    client, "/_admin/users", method: .post,
                    json: #"{"first_name":"Full","last_name":"\#(padding)","email":"full-\#(index)@example.com"}"#
                )
                if reply.status != .created {
                    refused = reply
                    break
                }
            }
            let reply = try #require(refused, "400 users of 1 KB each fit in a store held at its size")
            #expect(reply.status == .serviceUnavailable)
            #expect(reply.message == "The provider cannot use its store (the disk is full). Try again in a few seconds.", "\(reply.message ?? "")")
            let check = try await provider.store.db.raw("PRAGMA quick_check").all().first?.decode(column: "quick_check", as: String.self)
            #expect(check == "ok")
            // /health's one-row probe still fits; the refused write says the store cannot write (issue #58: it
            // answered 200 on 3 of 10 polls while every sign-in failed).
            // A refused write just before each look, so that the look falls within the seconds a refusal is
            // remembered however slow the machine.
            var seen: (HTTPResponse.Status, String)?
            for attempt in 0..<20 {
                let again = try await admin(
                    client, "/_admin/users", method: .post,
                    json: #"{"first_name":"Full","last_name":"\#(String(repeating: "y", count: 900))","email":"again-\#(attempt)@example.com"}"#)
                #expect(again.status == .serviceUnavailable)
                seen = try await Self.health(client)
                if seen?.0 == .serviceUnavailable { break }
            }
            #expect(seen?.0 == .serviceUnavailable)
            #expect(seen?.1 == #"{"reason":"the store cannot write: the disk is full","status":"unavailable"}"#, "\(seen?.1 ?? "")")
        }
    }

    @Test(
        "causes in words from the databases' own texts",
        arguments: [
            ("database or disk is full", "the disk is full"),
            ("attempt to write a readonly database", "the store is read-only"),
            ("PSQLError: connection refused", "the database cannot be reached"),
            ("database is locked", "the database is busy"),
            ("no such table: ll_apps", nil),
        ])
    func causes(text: String, cause: String?) {
        #expect(StoreOutage.cause(of: StoreError.database("x: \(text)")) == cause)
        #expect(StoreOutage.cause(of: StoreError.duplicate("x")) == nil)
    }
}
