import AsyncHTTPClient
import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// The loopback presenter (RFC 8252) with a real provider: the "browser" is the scripted person, then
/// the two requests the relay page's script makes.
@Suite("SDK: loopback presenter")
struct LoopbackPresenterTests {
    static func get(
        _ url: String, method: HTTPMethod = .GET, timeout: TimeAmount = .seconds(10)
    ) async throws -> (status: Int, body: String, headers: HTTPHeaders) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body), response.headers)
    }

    /// A browser that runs the dialog as Alice, then does what the relay page does.
    static func browser(answers: Recorder<[Int]>) -> BrowserOpener {
        .custom { url in
            Task {
                guard let query = url.query, let redirectURI = try? FormParameters(encoded: query).single("redirect_uri") else { return }
                let person = ScriptedPresenter(person: alice, redirectURI: redirectURI)
                guard let callback = try? await person.begin(appID: TestFixtures.appID).present(url) else { return }
                let text = callback.absoluteString
                guard let hash = text.firstIndex(of: "#") else { return }
                let base = String(text[..<hash])
                let relay = try? await get(base)
                answers.update { $0.append(relay?.status ?? 0) }
                let finished = try? await get(base + "?" + text[text.index(after: hash)...])
                answers.update { $0.append(finished?.status ?? 0) }
                let again = try? await get(base + "?" + text[text.index(after: hash)...], timeout: .seconds(2))
                answers.update { $0.append(again?.status ?? 0) }
            }
        }
    }

    @Test("a limited login through the system-browser path: fragment relayed to the listener, token verified")
    func loginThroughLoopback() async throws {
        try await withSDKProvider { provider in
            let answers = Recorder<[Int]>([])
            let announced = Recorder<[URL]>([])
            let presenter = LoopbackPresenter(opener: Self.browser(answers: answers), timeout: 30) { url, opened in
                #expect(opened)
                announced.update { $0.append(url) }
            }
            let (session, _) = provider.makeSession()
            let manager = LoginManager(appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: presenter, session: session)
            let result = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited)))
            #expect(result.authenticationToken != nil)
            #expect(session.profile?.email == "alice@example.com")
            let dialog = try #require(announced.value.first)
            let dialogQuery = try #require(dialog.query)
            let redirectURI = try #require(try FormParameters(encoded: dialogQuery).single("redirect_uri"))
            #expect(redirectURI.hasPrefix("http://127.0.0.1:"))
            #expect(redirectURI.hasSuffix(LoopbackPresenter.callbackPath))
            for _ in 0..<50 where answers.value.count < 3 { try await Task.sleep(nanoseconds: 100_000_000) }
            // The relay page, "Login finished", then nothing: the listener is closed once the answer came.
            let statuses = answers.value
            #expect(statuses.prefix(2) == [200, 200])
            #expect(statuses.count == 3 && statuses[2] != 200, "\(statuses)")
        }
    }

    @Test("the listener answers only its callback path and only GET; its relay page runs one script, by nonce; the answer ends the wait")
    func listenerRules() async throws {
        let presenter = LoopbackPresenter(opener: .announceOnly, timeout: 30) { _, _ in }
        let attempt = try await presenter.begin(appID: "1")
        let base = attempt.redirectURI
        let port = base.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }
        let root = "http://127.0.0.1:\(port)"

        let wrongPath = try await Self.get(root + "/other?state=x")
        #expect(wrongPath.status == 404)
        let post = try await Self.get(base + "?state=x", method: .POST)
        #expect(post.status == 405)
        let relay = try await Self.get(base)
        #expect(relay.status == 200)
        #expect(relay.body.contains("window.location.replace"))
        let policy = try #require(relay.headers.first(name: "Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'none'; script-src 'nonce-"))
        #expect(relay.headers.first(name: "Cache-Control") == "no-store")

        let waiting = Task { try await attempt.present(try #require(URL(string: "http://127.0.0.1:1/dialog"))) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let first = try await Self.get(base + "?state=first&id_token=a")
        #expect(first.status == 200)
        #expect(first.body.contains("Login finished"))
        let answer = try await waiting.value
        #expect(answer.absoluteString == base + "?state=first&id_token=a")
    }

    @Test("no answer in time: timedOut, and the listener is closed")
    func timesOut() async throws {
        let presenter = LoopbackPresenter(opener: .announceOnly, timeout: 0.3) { _, _ in }
        let attempt = try await presenter.begin(appID: "1")
        await #expect(throws: LoginError.timedOut(seconds: 0.3)) {
            try await attempt.present(try #require(URL(string: "http://127.0.0.1:1/dialog")))
        }
        // Closed: the port refuses, or another test's server has taken the freed port since (it failed a full
        // run so: a provider answered 404); either way the presenter's relay no longer answers there.
        if let answer = try? await Self.get(attempt.redirectURI + "?state=late&id_token=a", timeout: .seconds(2)) {
            #expect(
                !answer.body.contains("window.location.replace") && !answer.body.contains("Login finished"),
                "the listener still answers: \(answer.body.prefix(200))")
        }
    }
}

extension LoopbackPresenterTests {
    @Test("a cancel or an error reaching the listener gets a page that says the login was not completed")
    func cancelPage() async throws {
        let presenter = LoopbackPresenter(opener: .announceOnly, timeout: 30) { _, _ in }
        let attempt = try await presenter.begin(appID: "1")
        let waiting = Task { try await attempt.present(try #require(URL(string: "http://127.0.0.1:1/dialog"))) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let page = try await Self.get(attempt.redirectURI + "?error=access_denied&error_code=200&state=s")
        #expect(page.status == 200)
        #expect(page.body.contains("<title>Login not completed</title>"))
        _ = try await waiting.value
    }
}

extension LoopbackPresenterTests {
    @Test("a forged callback (another state, or none) is answered 400 and does not end the login; the real answer does (issue #31)")
    func forgedCallbackIgnored() async throws {
        let presenter = LoopbackPresenter(opener: .announceOnly, timeout: 30) { _, _ in }
        let attempt = try await presenter.begin(appID: "1")
        let waiting = Task { try await attempt.present(try #require(URL(string: "http://127.0.0.1:1/dialog?client_id=1&state=real-state"))) }
        try await Task.sleep(nanoseconds: 100_000_000)
        for forged in ["?error=access_denied&state=forged", "?error=access_denied", "?id_token=a&state=real-state&state=forged"] {
            let page = try await Self.get(attempt.redirectURI + forged)
            #expect(page.status == 400, "\(forged)")
            #expect(page.body.contains("its state does not match"), "\(forged)")
        }
        let real = try await Self.get(attempt.redirectURI + "?id_token=a&state=real-state")
        #expect(real.status == 200 && real.body.contains("Login finished"))
        let answer = try await waiting.value
        #expect(answer.absoluteString == attempt.redirectURI + "?id_token=a&state=real-state")
    }
}
