import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #31 item 1: an empty, blank or short admin token is refused at start (an empty one opened the
/// console), and wrong admin tokens are limited per client address on the admin API and the console.
@Suite("Admin token: refused when weak, guesses limited")
struct AdminTokenHardeningTests {
    @Test(
        "empty, blank, tab, control-character and short admin tokens stop the provider before it starts",
        arguments: [
            ("", "the admin token is empty (an unset variable?): give one of at least 16 characters, or none and the provider makes one"),
            (" ", "the admin token is only white space: give one of at least 16 characters, or none and the provider makes one"),
            ("\t", "the admin token is only white space: give one of at least 16 characters, or none and the provider makes one"),
            ("   \n  ", "the admin token is only white space: give one of at least 16 characters, or none and the provider makes one"),
            ("sixteen-chars\tok", "the admin token has a control character (a tab or a line break?), which no Authorization header can carry"),
            ("a", "the admin token has 1 character; it needs at least 16 (e.g. 'openssl rand -hex 16')"),
            ("fifteen-chars-x", "the admin token has 15 characters; it needs at least 16 (e.g. 'openssl rand -hex 16')"),
            (
                "aaaaaaaaaaaaaaaaaaaa",
                "the admin token has only 1 different character (at least 8 are needed): give a random one, e.g. 'openssl rand -hex 16'"
            ),
            (
                "1212121212121212",
                "the admin token has only 2 different characters (at least 8 are needed): give a random one, e.g. 'openssl rand -hex 16'"
            ),
        ])
    func weakTokensRefused(token: String, reason: String) async throws {
        var configuration = TestFixtures.configuration()
        configuration.adminToken = token
        let error = await #expect(throws: ProviderConfigurationError.self) {
            _ = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        }
        #expect(error?.description == reason)
        #expect(AdminTokenPolicy.problem(with: "sixteen-chars-ok") == nil)
    }

    @Test("the console refuses an empty admin token (401, no session cookie), as the admin API does")
    func consoleRefusesEmpty() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, _ in
            let browser = DialogBrowser(client: client)
            for given in ["", " "] {
                var form = FormParameters()
                form.append("admin_token", given)
                let page = try await browser.post("/_console/signin", form: form)
                #expect(page.status == .unauthorized)
                #expect(!browser.setCookieHeaders.contains { $0.hasPrefix("ll_console=") })
            }
            let api = try await client.execute(uri: "/_admin/keys", method: .get, headers: [.authorization: "Bearer "])
            #expect(api.status == .unauthorized)
        }
    }

    @Test(
        "on a real server: wrong admin tokens from one address, then 429 with Retry-After for the next wrong one on the admin API and the console; the right token still gets in on both"
    )
    func guessesLimited() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.adminTokenAttemptLimits = AdminTokenAttemptLimits(perAddress: 3, window: 60)
        try await withLiveProvider(configuration) { _, client, _ in
            func keys(_ token: String) async throws -> TestResponse {
                try await client.execute(uri: "/_admin/keys", method: .get, headers: [.authorization: "Bearer \(token)"])
            }
            #expect(try await keys(KeyRotationAndAdminTests.adminToken).status == .ok, "the right token does not count")
            for attempt in 1...2 { #expect(try await keys("wrong-token-\(attempt)").status == .forbidden) }
            let browser = DialogBrowser(client: client)
            var form = FormParameters()
            form.append("admin_token", "wrong-console-guess")
            #expect(try await browser.post("/_console/signin", form: form).status == .unauthorized, "the third wrong token, at the console")

            let refused = try await keys("wrong-token-4")
            #expect(refused.status == .tooManyRequests)
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int64($0) })
            #expect((1...60).contains(retryAfter))
            #expect(String(buffer: refused.body).contains(AdminController.tooManyWrongTokens(retryAfter: retryAfter)))
            let refusedAtConsole = try await browser.post("/_console/signin", form: form)
            #expect(refusedAtConsole.status == .tooManyRequests)
            #expect(refusedAtConsole.headers[.retryAfter] != nil)

            // Nobody without the token can keep its holder out: the right one is let in at once, on both.
            #expect(try await keys(KeyRotationAndAdminTests.adminToken).status == .ok)
            var right = FormParameters()
            right.append("admin_token", KeyRotationAndAdminTests.adminToken)
            let console = try await browser.post("/_console/signin", form: right)
            #expect(console.status == .seeOther)
            #expect(browser.setCookieHeaders.contains { $0.hasPrefix("ll_console=") })
        }
    }

    @Test(
        "another site's page cannot post to the console's sign-in: 100 cross-site posts of wrong tokens are refused (403) uncounted, and the right token signs in"
    )
    func crossSiteSignInsRefused() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.adminTokenAttemptLimits = AdminTokenAttemptLimits(perAddress: 3, window: 60)
        try await withLiveProvider(configuration) { _, client, _ in
            let crossSite: [HTTPFields] = [
                [HTTPField.Name("Sec-Fetch-Site")!: "cross-site", .origin: "https://attacker.example"],
                [HTTPField.Name("Sec-Fetch-Site")!: "same-site"],
                [.origin: "https://attacker.example"],
                [.origin: "null"],
            ]
            for round in 0..<100 {
                var headers = crossSite[round % crossSite.count]
                headers[.contentType] = "application/x-www-form-urlencoded"
                let posted = try await client.execute(
                    uri: "/_console/signin", method: .post, headers: headers, body: ByteBuffer(string: "admin_token=wrong-guess-\(round)"))
                #expect(posted.status == .forbidden, "round \(round)")
                #expect(String(buffer: posted.body).contains("The console takes sign-ins from its own page only"))
            }
            // Not counted: a wrong token from this address is still a plain 403, not a 429.
            let wrong = try await client.execute(uri: "/_admin/keys", method: .get, headers: [.authorization: "Bearer wrong-token-after"])
            #expect(wrong.status == .forbidden)

            // The console's own page posts as a browser says it does (same origin), and signs in.
            let own: HTTPFields = [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
            let form = "admin_token=" + (KeyRotationAndAdminTests.adminToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let signedIn = try await client.execute(uri: "/_console/signin", method: .post, headers: own, body: ByteBuffer(string: form))
            #expect(signedIn.status == .seeOther, "\(String(buffer: signedIn.body).prefix(300))")
            #expect(signedIn.headers[values: .setCookie].contains { $0.hasPrefix("ll_console=") })
        }
        #expect(CrossSitePost.authority(ofOrigin: "http://127.0.0.1:8080") == "127.0.0.1:8080")
        #expect(CrossSitePost.authority(ofOrigin: "null") == nil)
        #expect(CrossSitePost.authority(ofOrigin: "http://a.example/path") == nil)
    }

    @Test(
        "a post's Origin is its own when its host and port are the request's Host or the public URL's; a browser's Sec-Fetch-Site decides alone"
    )
    func originMatching() {
        func refusal(_ authority: String, _ fields: HTTPFields) -> String? {
            let request = Request(
                head: HTTPRequest(method: .post, scheme: "http", authority: authority, path: "/_console/signin", headerFields: fields),
                body: .init(buffer: ByteBuffer()))
            return CrossSitePost.refusal(request, publicBaseURL: "https://login.example/")
        }
        let site = HTTPField.Name("Sec-Fetch-Site")!
        #expect(refusal("127.0.0.1:8080", [.origin: "http://127.0.0.1:8080"]) == nil)
        #expect(refusal("127.0.0.1:8080", [.origin: "HTTP://127.0.0.1:8080"]) == nil)
        // Behind a proxy (--public-url https://login.example): Host is the proxy's upstream, Origin the public one.
        #expect(refusal("127.0.0.1:8080", [.origin: "https://login.example"]) == nil)
        #expect(refusal("127.0.0.1:8080", [.origin: "https://login.example", site: "same-origin"]) == nil)
        #expect(refusal("127.0.0.1:8080", [site: "none"]) == nil)
        #expect(refusal("127.0.0.1:8080", [:]) == nil, "curl and scripts send neither")
        #expect(refusal("127.0.0.1:8080", [.origin: "http://127.0.0.1:9090"]) == "Origin: http://127.0.0.1:9090")
        #expect(refusal("127.0.0.1:8080", [.origin: "https://login.example.attacker.test"]) == "Origin: https://login.example.attacker.test")
        #expect(refusal("127.0.0.1:8080", [.origin: "null"]) == "Origin: null")
        #expect(refusal("127.0.0.1:8080", [site: "cross-site", .origin: "http://127.0.0.1:8080"]) == "Sec-Fetch-Site: cross-site")
        #expect(refusal("127.0.0.1:8080", [site: "same-site"]) == "Sec-Fetch-Site: same-site")
    }

    @Test(
        "two nodes on one PostgreSQL database share the count of wrong admin tokens; the right token still gets in on both",
        .enabled(if: PostgresTestDatabase.serverURL != nil))
    func countSharedAcrossNodes() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.store = .postgres(url: try await PostgresTestDatabase.create())
        configuration.adminTokenAttemptLimits = AdminTokenAttemptLimits(perAddress: 4, window: 600)
        let shared = configuration
        try await withProvider(shared) { first, _ in
            try await withProvider(shared) { second, _ in
                func keys(_ client: any TestClientProtocol, _ token: String) async throws -> HTTPResponse.Status {
                    try await client.execute(uri: "/_admin/keys", method: .get, headers: [.authorization: "Bearer \(token)"]).status
                }
                for attempt in 1...2 {
                    let onFirst = try await keys(first, "wrong-on-first-\(attempt)")
                    #expect(onFirst == .forbidden)
                    let onSecond = try await keys(second, "wrong-on-second-\(attempt)")
                    #expect(onSecond == .forbidden)
                }
                // Four wrong tokens in all, two on each node: the limit is the cluster's.
                let fifthOnFirst = try await keys(first, "wrong-on-first-3")
                #expect(fifthOnFirst == .tooManyRequests)
                let fifthOnSecond = try await keys(second, "wrong-on-second-3")
                #expect(fifthOnSecond == .tooManyRequests)
                let rightOnFirst = try await keys(first, KeyRotationAndAdminTests.adminToken)
                #expect(rightOnFirst == .ok)
                let rightOnSecond = try await keys(second, KeyRotationAndAdminTests.adminToken)
                #expect(rightOnSecond == .ok)
            }
        }
    }

    @Test("the count is per address and ends with its window")
    func windowAndAddresses() async {
        let attempts = AdminTokenAttempts(limits: AdminTokenAttemptLimits(perAddress: 2, window: 60))
        await attempts.failed(address: "192.0.2.1", now: 1_000)
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_001) == nil)
        await attempts.failed(address: "192.0.2.1", now: 1_010)
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_020) == 40)
        #expect(await attempts.refusal(address: "192.0.2.2", now: 1_020) == nil, "another address is not held")
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_060) == nil, "the window has ended")
        await attempts.failed(address: "192.0.2.1", now: 1_061)
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_061) == nil, "a new window starts with one failure")
    }
}
