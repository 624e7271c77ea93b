import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #20: a page that does not exist is a real page for a browser, a line of text for anything else;
/// answers the handlers make themselves pass unchanged.
@Suite("Missing pages and methods")
struct MissingPageTests {
    @Test("a browser gets an HTML 404 with a link home; other clients one line; a handler's own 404 is unchanged")
    func notFound() async throws {
        try await withProvider { client, provider in
            let page = try await client.execute(uri: "/no/such/page", method: .get, headers: [.accept: "text/html,application/xhtml+xml"])
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(HTMLForm.title(in: html) == "Page not found")
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: html) == "There is no page at /no/such/page on this provider.")
            #expect(html.contains(#"<a href="\#(provider.urls.baseURL)/" id="home-link">"#), "\(html)")

            let script = try await client.execute(uri: "/<script>alert(1)</script>", method: .get, headers: [.accept: "text/html"])
            #expect(!String(buffer: script.body).contains("<script>alert"), "the path is escaped")

            let text = try await client.execute(uri: "/no/such/page", method: .get)
            #expect(text.status == .notFound)
            #expect(String(buffer: text.body) == "There is no page at /no/such/page on this provider.\n")

            let posted = try await client.execute(uri: "/health", method: .post)
            #expect(posted.status == .notFound)
            #expect(String(buffer: posted.body) == "This provider answers nothing to POST /health.\n")

            // The Graph API answers its own errors in JSON, as before.
            let graph = try await client.execute(uri: "/v21.0/me", method: .get, headers: [.accept: "text/html"])
            #expect(graph.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }
}
