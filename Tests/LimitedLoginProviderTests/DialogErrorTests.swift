import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Dialog: bad requests")
struct DialogErrorTests {
    /// Requests that must get an error page and never a redirect, with the page's status, title and message.
    static let pageCases: [(String, String, HTTPResponse.Status, String, String)] = [
        ("unknown app", dialogPath(appID: "999"), .notFound, "App not found", "No app with ID 999 is registered with this provider."),
        ("no client_id", "/v21.0/dialog/oauth?redirect_uri=x&nonce=n", .badRequest, "Invalid request", "The request has no client_id (the app ID)."),
        ("no redirect URI", dialogPath(redirectURI: nil), .badRequest, "Invalid redirect URI", "The request has no redirect_uri."),
        (
            "unregistered", dialogPath(redirectURI: "https://evil.example/callback"), .badRequest, "Invalid redirect URI",
            "The redirect_uri https://evil.example/callback is not registered for this app. Register it, or use fb{app-id}://authorize/ or a loopback address (http://127.0.0.1:{port}/…)."
        ),
        (
            "registered URI plus a path", dialogPath(redirectURI: "https://app.example/callback/x"), .badRequest, "Invalid redirect URI",
            "The redirect_uri https://app.example/callback/x is not registered for this app. Register it, or use fb{app-id}://authorize/ or a loopback address (http://127.0.0.1:{port}/…)."
        ),
        (
            "registered URI in other case", dialogPath(redirectURI: "https://APP.example/callback"), .badRequest, "Invalid redirect URI",
            "The redirect_uri https://APP.example/callback is not registered for this app. Register it, or use fb{app-id}://authorize/ or a loopback address (http://127.0.0.1:{port}/…)."
        ),
        (
            "another app's fb scheme", dialogPath(redirectURI: "fb\(TestFixtures.otherAppID)://authorize/"), .badRequest, "Invalid redirect URI",
            "The redirect_uri fb\(TestFixtures.otherAppID)://authorize/ is not registered for this app. Register it, or use fb{app-id}://authorize/ or a loopback address (http://127.0.0.1:{port}/…)."
        ),
        (
            "localhost is not loopback", dialogPath(redirectURI: "http://localhost:8000/cb"), .badRequest, "Invalid redirect URI",
            "The redirect_uri http://localhost:8000/cb is not registered for this app. Register it, or use fb{app-id}://authorize/ or a loopback address (http://127.0.0.1:{port}/…)."
        ),
        (
            "loopback look-alike host", dialogPath(redirectURI: "http://127.0.0.1.evil.example/cb"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: a loopback redirect needs a path starting with / right after the host and port."
        ),
        (
            "loopback user-info trick", dialogPath(redirectURI: "http://127.0.0.1:80@evil.example/cb"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: a loopback redirect needs a path starting with / right after the host and port."
        ),
        (
            "loopback port out of range", dialogPath(redirectURI: "http://127.0.0.1:99999/cb"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: the loopback port must be a number from 1 to 65535."
        ),
        (
            "loopback without a path", dialogPath(redirectURI: "http://127.0.0.1:8000"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: a loopback redirect needs a path starting with / right after the host and port."
        ),
        (
            "fragment", dialogPath(redirectURI: "http://127.0.0.1:8000/cb#x"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: it contains a fragment (#)."
        ),
        (
            "backslash", dialogPath(redirectURI: "http://127.0.0.1:8000\\@evil.example/"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: it contains a backslash."
        ),
        (
            "space", dialogPath(redirectURI: "http://127.0.0.1:8000/c b"), .badRequest, "Invalid redirect URI",
            "The redirect_uri is malformed: it contains a space, a control character or a non-ASCII character."
        ),
        (
            "two redirect URIs", dialogPath(extra: [("redirect_uri", "https://evil.example/")]), .badRequest, "Invalid request",
            "The request is ambiguous: the parameter redirect_uri is given more than once."
        ),
        (
            "bad percent-encoding", dialogPath() + "&state=%zz", .badRequest, "Invalid request",
            "The request cannot be read: the parameter state has a malformed percent-encoding."
        ),
        (
            "invalid UTF-8", dialogPath() + "&x=%ff", .badRequest, "Invalid request",
            "The request cannot be read: the parameter x is not valid UTF-8."
        ),
        (
            "unknown response_mode", dialogPath(extra: [("response_mode", "web_message")]), .badRequest, "Invalid request",
            "response_mode must be fragment, query or form_post, not web_message."
        ),
    ]

    @Test("requests without a trustworthy app and redirect URI get an error page and no redirect", arguments: 0..<pageCases.count)
    func errorPages(index: Int) async throws {
        let (name, path, status, title, message) = Self.pageCases[index]
        try await withProvider { client, _ in
            let page = try await DialogBrowser(client: client).get(path)
            #expect(page.status == status, "\(name)")
            #expect(page.location == nil, "\(name): never a redirect")
            #expect(page.title == title, "\(name)")
            #expect(page.body.contains("<p class=\"error\" id=\"error-message\">\(HTMLEscaping.escape(message))</p>"), "\(name): \(page.body)")
            // Issue #55 item 5: no dead end; the way out is the provider's home page.
            #expect(page.body.contains(#"<a href="\#(TestFixtures.baseURL)/" id="home-link">"#), "\(name): \(page.body)")
        }
    }

    /// Requests with a good app and redirect URI but something else wrong: the error goes back to the app.
    static let redirectCases: [(String, String, String, String)] = [
        ("missing nonce", dialogPath(nonce: nil), "invalid_request", "A nonce is required when an ID token is requested."),
        ("empty nonce", dialogPath(nonce: ""), "invalid_request", "The nonce must be non-empty, without whitespace or control characters."),
        ("space in nonce", dialogPath(nonce: "a b"), "invalid_request", "The nonce must be non-empty, without whitespace or control characters."),
        ("tab in nonce", dialogPath(nonce: "a\tb"), "invalid_request", "The nonce must be non-empty, without whitespace or control characters."),
        ("newline in nonce", dialogPath(nonce: "abc\n"), "invalid_request", "The nonce must be non-empty, without whitespace or control characters."),
        (
            "zero-width space in nonce", dialogPath(nonce: "a\u{200B}b"), "invalid_request",
            "The nonce must be non-empty, without whitespace or control characters."
        ),
        (
            "limited user_likes", dialogPath(scope: "openid,user_likes"), "invalid_scope",
            "user_likes cannot be requested in a limited login; only the limited set is allowed."
        ),
        (
            "limited business permission", dialogPath(scope: "pages_show_list"), "invalid_scope",
            "pages_show_list cannot be requested in a limited login; only the limited set is allowed."
        ),
        ("bad permission syntax", dialogPath(scope: "Email"), "invalid_scope", "Email is not a valid permission name (only a-z and _)."),
        (
            "unknown response type", dialogPath(responseType: "id_token,magic"), "unsupported_response_type",
            "The response_type magic is not supported."
        ),
        (
            "limited without id_token", dialogPath(responseType: "graph_domain"), "invalid_request",
            "A limited login (tp=ios_14_do_not_track) returns an ID token: response_type must include id_token."
        ),
        (
            "limited asking for a token", dialogPath(responseType: "id_token,token"), "invalid_request",
            "A limited login issues no access token or code: drop token and code from response_type."
        ),
        ("bad auth_type", dialogPath(extra: [("auth_type", "always")]), "invalid_request", "auth_type must be rerequest or reauthorize, not always."),
        (
            "plain PKCE",
            dialogPath(
                limited: false, responseType: "code",
                extra: [("code_challenge", String(repeating: "a", count: 43)), ("code_challenge_method", "plain")]),
            "invalid_request", "code_challenge_method must be S256."
        ),
        (
            "short PKCE challenge",
            dialogPath(limited: false, responseType: "code", extra: [("code_challenge", "abc"), ("code_challenge_method", "S256")]),
            "invalid_request", "code_challenge must be the base64url SHA-256 of the code verifier (43 characters)."
        ),
        ("two nonces", dialogPath(extra: [("nonce", "other")]), "invalid_request", "the parameter nonce is given more than once."),
    ]

    @Test("other bad requests go back to the redirect URI with error, error_code, error_message and state", arguments: 0..<redirectCases.count)
    func errorRedirects(index: Int) async throws {
        let (name, path, error, message) = Self.redirectCases[index]
        try await withProvider { client, _ in
            let page = try await DialogBrowser(client: client).get(path)
            #expect(page.status == .found, "\(name)")
            #expect(try #require(page.location).hasPrefix(TestFixtures.registeredRedirect + "#"), "\(name)")
            let parameters = try page.redirectParameters()
            #expect(parameters.pairs.map(\.name) == ["error", "error_code", "error_message", "state"], "\(name)")
            #expect(try parameters.single("error") == error, "\(name)")
            #expect(try parameters.single("error_code") == "100", "\(name)")
            #expect(try parameters.single("error_message") == message, "\(name)")
            #expect(try parameters.single("state") == "state-xyz", "\(name)")
        }
    }

    @Test("an error respects response_mode=query")
    func errorInQuery() async throws {
        try await withProvider { client, _ in
            let page = try await DialogBrowser(client: client).get(dialogPath(nonce: nil, extra: [("response_mode", "query")]))
            #expect(
                page.location == TestFixtures.registeredRedirect
                    + "?error=invalid_request&error_code=100&error_message=A+nonce+is+required+when+an+ID+token+is+requested.&state=state-xyz")
        }
    }

    @Test("markup in the request cannot escape the page: quotes with combining marks and tags are escaped")
    func markupIsEscaped() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let hostile = "\"\u{301}><script>alert(1)</script>'"
            let page = try await browser.get(dialogPath(state: hostile))
            #expect(page.status == .ok)
            #expect(!page.body.contains("<script>alert"))
            let breakout = "\"\u{301}>"
            let leaked = page.body.contains(breakout)
            #expect(!leaked, "a quote followed by a combining mark must still be escaped")
            #expect(page.hiddenInput("request")?.contains("state=%22%CC%81%3E%3Cscript%3E") == true)
            let modePage = try await browser.get(dialogPath(extra: [("response_mode", "<b>\"\u{301}x")]))
            let escapedMode = "not &lt;b&gt;&quot;\u{301}x."
            let shown = modePage.body.contains(escapedMode)
            #expect(shown)
        }
    }

    @Test("a raw (not percent-encoded) non-ASCII byte in the query is refused")
    func rawNonASCIIQuery() async throws {
        try await withProvider { client, _ in
            let page = try await DialogBrowser(client: client).get(dialogPath() + "&x=\u{E9}")
            #expect(page.status == .badRequest)
            #expect(page.body.contains("The request must be percent-encoded ASCII"))
        }
    }

    @Test("a form body over the size limit is refused with 413")
    func bodyLimit() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let response = try await browser.send(
                DialogController.signInPath, method: .post, body: "request=" + String(repeating: "a", count: 70 * 1024),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(response.status == .contentTooLarge)
            let json = try await browser.send(DialogController.signInPath, method: .post, body: "{}", contentType: "application/json")
            #expect(json.status == .unsupportedMediaType)
        }
    }
}
