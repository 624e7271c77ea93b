import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Logging
import Testing

@testable import LimitedLoginProvider

/// Runs `body` against a fresh provider (in-memory store) through its real router, in process.
func withProvider<Value: Sendable>(
    _ configuration: ProviderConfiguration = TestFixtures.configuration(),
    _ body: @Sendable (_ client: any TestClientProtocol, _ provider: LimitedLoginProvider) async throws -> Value
) async throws -> Value {
    let provider = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
    defer { Task { await provider.store.close() } }
    return try await provider.application().test(.router) { client in
        try await body(client, provider)
    }
}

/// A dialog URL (path and query) with sensible defaults for a limited login.
func dialogPath(
    appID: String = TestFixtures.appID,
    redirectURI: String? = TestFixtures.registeredRedirect,
    scope: String? = "openid,public_profile,email",
    nonce: String? = "nonce-123",
    state: String? = "state-xyz",
    limited: Bool = true,
    responseType: String? = nil,
    extra: [(String, String)] = [],
    version: String? = "v21.0"
) -> String {
    var parameters = FormParameters()
    parameters.append("client_id", appID)
    if let redirectURI { parameters.append("redirect_uri", redirectURI) }
    if let responseType {
        parameters.append("response_type", responseType)
    } else if limited {
        parameters.append("response_type", "id_token,graph_domain,user_token_nonce")
    }
    if let scope { parameters.append("scope", scope) }
    if let nonce { parameters.append("nonce", nonce) }
    if let state { parameters.append("state", state) }
    if limited { parameters.append("tp", "ios_14_do_not_track") }
    for (name, value) in extra { parameters.append(name, value) }
    return (version.map { "/\($0)" } ?? "") + "/dialog/oauth?" + parameters.encoded
}

/// A response, read once.
struct Page: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String

    var location: String? { headers[.location] }

    /// The parameters a redirect carries in its fragment (or query, for `query`).
    func redirectParameters(mode: ResponseMode = .fragment) throws -> FormParameters {
        let location = try #require(self.location, "expected a redirect, got \(status): \(body.prefix(300))")
        let separator: Character = mode == .fragment ? "#" : "?"
        let parts = location.split(separator: separator, maxSplits: 1)
        #expect(parts.count == 2, "no \(separator) in \(location)")
        return try FormParameters(encoded: parts.count == 2 ? parts[1] : "")
    }

    /// The value of a hidden input (HTML-unescaped), from the first form that has it.
    func hiddenInput(_ name: String) -> String? {
        HTMLScraper.inputs(in: body).first { $0.name == name && $0.type == "hidden" }?.value
    }

    var title: String? { HTMLScraper.title(in: body) }
}

/// Reads the dialog's HTML with the SDK's form reader, the one its scripted person uses.
enum HTMLScraper {
    /// Every input of every form, in order.
    static func inputs(in html: String) -> [HTMLForm.Field] {
        HTMLForm.forms(in: html).flatMap(\.fields).filter { $0.tag == "input" }
    }

    static func title(in html: String) -> String? { HTMLForm.title(in: html) }
}

/// A person with a browser: keeps cookies, reads pages, submits the dialog's forms.
final class DialogBrowser: @unchecked Sendable {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    private(set) var setCookieHeaders: [String] = []

    init(client: any TestClientProtocol) {
        self.client = client
    }

    func get(_ path: String) async throws -> Page {
        try await send(path, method: .get, body: nil)
    }

    func post(_ path: String, form: FormParameters) async throws -> Page {
        try await send(path, method: .post, body: form.encoded, contentType: "application/x-www-form-urlencoded")
    }

    func send(_ path: String, method: HTTPRequest.Method, body: String?, contentType: String? = nil) async throws -> Page {
        var headers: HTTPFields = [:]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if let contentType { headers[.contentType] = contentType }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        )
        for header in response.headers[values: .setCookie] {
            setCookieHeaders.append(header)
            let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
        return Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }

    /// Picks a test user on the sign-in page.
    func signIn(as userID: String, on page: Page) async throws -> Page {
        var form = FormParameters()
        form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
        form.append("request", try #require(page.hiddenInput("request")))
        form.append("user_id", userID)
        return try await post(DialogController.signInPath, form: form)
    }

    /// Signs in with email and password on the sign-in page.
    func signIn(email: String, password: String, on page: Page) async throws -> Page {
        var form = FormParameters()
        form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
        form.append("request", try #require(page.hiddenInput("request")))
        form.append("email", email)
        form.append("pass", password)
        return try await post(DialogController.signInPath, form: form)
    }

    /// Submits the consent page with the given permissions ticked (nil: leave the page's ticks).
    func consent(on page: Page, ticking: [String]? = nil, action: String = "continue") async throws -> Page {
        var form = FormParameters()
        form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
        form.append("request", try #require(page.hiddenInput("request")))
        let checkboxes = HTMLScraper.inputs(in: page.body).filter { $0.type == "checkbox" && !$0.disabled }
        for box in checkboxes where ticking.map({ $0.contains(box.value) }) ?? box.checked {
            form.append("permission", box.value)
        }
        form.append("action", action)
        return try await post(DialogController.confirmPath, form: form)
    }

    /// The whole dialog from its URL for someone not yet signed in: sign in as `userID`, follow the
    /// redirect back to the dialog, and consent (unless the dialog answers straight away).
    func logIn(_ path: String, as userID: String, ticking: [String]? = nil) async throws -> Page {
        var page = try await get(path)
        if page.status == .ok, page.body.contains("id=\"password-form\"") {
            let signedIn = try await signIn(as: userID, on: page)
            #expect(signedIn.status == .seeOther, "sign-in answered \(signedIn.status): \(signedIn.body.prefix(300))")
            page = try await get(try #require(signedIn.location))
        }
        if page.status == .ok, page.body.contains("id=\"consent-form\"") {
            page = try await consent(on: page, ticking: ticking)
        }
        return page
    }
}

/// Verifies an ID token with the project's verifier against the provider's published key set.
func verifyIDToken(
    _ token: String, provider: LimitedLoginProvider, appID: String = TestFixtures.appID, nonce: String = "nonce-123"
) async throws -> VerifiedIDToken {
    let keys = try await provider.services.keyring.current().keySet
    let verifier = TokenVerifier(
        configuration: VerifierConfiguration(appID: appID, allowedIssuers: [provider.urls.issuer]), keys: StaticKeySet(keys)
    )
    return try await verifier.verify(token, nonce: .exact(nonce))
}
