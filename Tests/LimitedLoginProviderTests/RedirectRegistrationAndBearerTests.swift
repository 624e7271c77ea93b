import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #23 items 6 and 10: which redirect URIs an app may register (and the dialog follow), and the
/// admin API's bearer scheme in any case.
@Suite("Admin API: redirect URI rules and the bearer scheme")
struct RedirectRegistrationAndBearerTests {
    static func createApp(_ client: any TestClientProtocol, id: String, redirectURI: String) async throws -> (HTTPResponse.Status, String?) {
        let body: JSONValue = .object(["id": .string(id), "name": "Registered", "redirect_uris": .array([.string(redirectURI)])])
        let response = try await client.execute(
            uri: "/_admin/apps", method: .post,
            headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/json"],
            body: ByteBuffer(bytes: JSONSerializer.serialize(body))
        )
        let object = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue
        return (response.status, object?["error"]?.objectValue?["message"]?.stringValue)
    }

    static let codeSchemeReason =
        "a browser sent to a %@: URI runs code or opens local data; "
        + "use https, http on loopback (127.0.0.1, [::1], localhost) or an app scheme such as fb{app-id}://authorize/"

    @Test("the admin API refuses javascript, data, file, vbscript, blob and non-loopback http URIs with a message naming the URI")
    func refused() async throws {
        let cases: [(String, String)] = [
            ("javascript:alert(document.cookie)", String(format: Self.codeSchemeReason, "javascript")),
            ("JavaScript:alert(1)", String(format: Self.codeSchemeReason, "javascript")),
            ("data:text/html,<script>alert(1)</script>", String(format: Self.codeSchemeReason, "data")),
            ("file:///etc/passwd", String(format: Self.codeSchemeReason, "file")),
            ("vbscript:msgbox(1)", String(format: Self.codeSchemeReason, "vbscript")),
            ("blob:https://app.example/0d9c", String(format: Self.codeSchemeReason, "blob")),
            ("http://app.example/callback", "http is allowed only to 127.0.0.1, [::1] or localhost; use https"),
            ("http://localhost.evil.example/cb", "http is allowed only to 127.0.0.1, [::1] or localhost; use https"),
            ("https://", "an https redirect URI needs a host (https://host/path)"),
            ("https://user@evil.example/cb", "an https redirect URI needs a host (https://host/path)"),
            ("app.example/callback", "it has no scheme"),
            ("1app://cb", "its scheme is malformed"),
            ("myapp:", "it has a scheme and nothing after it"),
            ("https://app.example/cb#x", "it contains a fragment (#)"),
        ]
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            for (index, (uri, reason)) in cases.enumerated() {
                let (status, message) = try await Self.createApp(client, id: "70\(index)", redirectURI: uri)
                #expect(status == .badRequest, "\(uri)")
                #expect(message == "The redirect URI \(uri) is refused: \(reason).")
                #expect(try await provider.store.app(id: "70\(index)") == nil)
            }
        }
    }

    @Test("https, app schemes and loopback http (127.0.0.1, [::1], localhost) are accepted")
    func accepted() async throws {
        let uris = [
            "https://app.example/callback", "fb5550001://authorize/", "com.example.app:/oauth2redirect", "myapp://login",
            "http://localhost:3000/cb", "http://127.0.0.1/cb", "http://[::1]:8080/cb", "HTTPS://App.Example/cb",
        ]
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, _ in
            for (index, uri) in uris.enumerated() {
                let (status, message) = try await Self.createApp(client, id: "555000\(index)", redirectURI: uri)
                #expect(status == .created, "\(uri): \(message ?? "")")
            }
        }
    }

    @Test("fixtures with a refused redirect URI are invalid, naming the app and the URI")
    func fixtures() {
        let fixtures = ProviderFixtures(apps: [.init(id: "42", name: "Bad", redirectURIs: ["https://ok.example/cb", "data:text/html,hi"])])
        #expect(
            throws: FixturesError.invalid(
                "app 42: The redirect URI data:text/html,hi is refused: " + String(format: Self.codeSchemeReason, "data") + "."
            )
        ) { try fixtures.validate() }
    }

    @Test("the dialog does not redirect to a refused URI that is in the store anyway: it shows the error page")
    func storedUnsafeURI() async throws {
        try await withProvider { client, provider in
            try await provider.store.createApp(AppRecord(id: "4040", secret: "s", name: "Old App", redirectURIs: ["javascript:alert(1)//"]))
            let page = try await DialogBrowser(client: client).get(dialogPath(appID: "4040", redirectURI: "javascript:alert(1)//"))
            #expect(page.status == .badRequest)
            #expect(page.location == nil)
            #expect(page.title == "Invalid redirect URI")
            #expect(
                HTMLForm.text(ofElementWithID: "error-message", in: page.body)
                    == "The redirect URI javascript:alert(1)// is refused: " + String(format: Self.codeSchemeReason, "javascript") + ".")
        }
    }

    @Test("the admin API takes the bearer scheme in any case; other schemes and wrong tokens are refused")
    func bearerScheme() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, _ in
            func status(_ authorization: String) async throws -> (HTTPResponse.Status, String) {
                let response = try await client.execute(uri: "/_admin/apps", method: .get, headers: [.authorization: authorization])
                return (response.status, String(buffer: response.body))
            }
            let token = KeyRotationAndAdminTests.adminToken
            for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
                #expect(try await status("\(scheme) \(token)").0 == .ok, "\(scheme)")
            }
            #expect(try await status("Bearer   \(token)").0 == .ok, "several spaces after the scheme")
            let basic = try await status("Basic \(token)")
            #expect(basic.0 == .unauthorized)
            #expect(basic.1.contains("The admin API needs Authorization: Bearer <admin token>."))
            #expect(try await status("Bearer").0 == .unauthorized)
            #expect(try await status("Bearertoken").0 == .unauthorized)
            let wrong = try await status("bearer wrong-token")
            #expect(wrong.0 == .forbidden)
            #expect(wrong.1.contains("The admin token is wrong."))
        }
    }
}
