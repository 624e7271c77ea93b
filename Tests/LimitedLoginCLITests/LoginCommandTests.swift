import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import Testing

/// `limited-login login`, `whoami` and `logout` against `limited-login serve`, run as a user would in a
/// terminal; the person in the browser is played by the SDK's scripted presenter, and the browser's part
/// at the loopback listener (the relay page's script) by two plain requests.
@Suite("CLI: login, whoami, logout", .serialized)
struct LoginCommandTests {
    static let demoApp = "1000000000000001"
    static let demoAlice = ScriptedPerson.SignIn.credentials(email: "alice@example.com", password: "password")

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-cli-login-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Plays the person and the browser for a `login` command that printed its dialog URL.
    func actAsBrowser(for login: RunningCommand, person: ScriptedPerson, presenter: ScriptedPresenter? = nil) async throws -> ScriptedPresenter {
        let dialog = try await login.waitFor("the dialog URL") { _, error in
            error.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
                $0.hasPrefix("http://") && $0.contains("/dialog/oauth?")
            }
        }
        let dialogURL = try #require(URL(string: dialog))
        let query = try FormParameters(encoded: try #require(dialogURL.query))
        let redirectURI = try #require(try query.single("redirect_uri"))
        #expect(redirectURI.hasPrefix("http://127.0.0.1:") && redirectURI.hasSuffix("/callback"))
        let browser = ScriptedPresenter(person: person, redirectURI: redirectURI)
        let callback = try await browser.begin(appID: Self.demoApp).present(dialogURL)
        // The browser loads the redirect (the fragment stays in the browser), gets the relay page,
        // and its script loads the same address with the fragment as the query.
        let text = callback.absoluteString
        let hash = try #require(text.firstIndex(of: "#"))
        let relay = try await HTTPExchange.send(String(text[..<hash]))
        #expect(relay.status == 200)
        #expect(relay.body.contains("window.location.replace"))
        #expect(relay.header("Content-Security-Policy")?.contains("script-src 'nonce-") == true)
        let finished = try await HTTPExchange.send(String(text[..<hash]) + "?" + text[text.index(after: hash)...])
        #expect(finished.status == 200)
        #expect(finished.body.contains(person.decision == .cancel ? "Login not completed" : "Login finished"))
        return browser
    }

    @Test("login (limited) prints a verified token, the profile and the permissions; whoami reads it in a new process; logout forgets it")
    func limitedLoginWhoamiLogout() async throws {
        let directory = try folder()
        let server = try await ServerProcess.start(
            ["--port", "0", "--database", directory.appendingPathComponent("p.sqlite").path], directory: directory)
        defer { Task { await server.stop() } }
        let state = directory.appendingPathComponent("state/session.json").path

        let login = try await RunningCommand([
            "login", "--app-id", Self.demoApp, "--provider", server.baseURL, "--tracking", "limited",
            "--permissions", "email,user_friends,user_birthday", "--no-browser", "--state-file", state, "--json",
        ])
        _ = try await actAsBrowser(for: login, person: ScriptedPerson(signIn: Self.demoAlice, untick: ["user_birthday"]))
        #expect(try await login.waitForExit() == 0, "\(login.error)")
        #expect(login.error.contains("Waiting for the login to finish"))
        let printed = try StrictJSONParser().parse(Array(login.output.utf8))
        guard case .object(let result) = printed else {
            Issue.record("not a JSON object: \(login.output)")
            return
        }
        #expect(result["limited"] == .bool(true))
        #expect(result["granted"] == ["email", "openid", "public_profile", "user_friends"])
        #expect(result["declined"] == ["user_birthday"])
        #expect(result["access_token"] == .null)
        guard case .object(let profile)? = result["profile"] else {
            Issue.record("no profile")
            return
        }
        #expect(profile["name"] == "Alice Example")
        #expect(profile["email"] != nil)
        #expect(profile["birthday"] == nil)
        guard case .object(let idToken)? = result["authentication_token"], let token = idToken["token"]?.stringValue else {
            Issue.record("no token")
            return
        }
        // The printed token verifies with the CLI's own verifier against the provider.
        let verified = try await CLIProcess.run([
            "verify", token, "--app-id", Self.demoApp, "--nonce", try #require(idToken["nonce"]?.stringValue),
            "--discovery-url", server.baseURL + "/.well-known/openid-configuration",
        ])
        #expect(verified.status == 0, "\(verified.error)")

        let whoami = try await CLIProcess.run(["whoami", "--state-file", state])
        #expect(whoami.status == 0)
        #expect(whoami.output.contains("Logged in (limited) as Alice Example"))
        #expect(whoami.output.contains(token))

        let logout = try await CLIProcess.run(["logout", "--state-file", state])
        #expect(logout.status == 0)
        #expect(logout.output == "Logged out; removed \(state).\n")
        #expect(!FileManager.default.fileExists(atPath: state))
        let after = try await CLIProcess.run(["whoami", "--state-file", state])
        #expect(after.status == 1)
        #expect(after.error == "not logged in (nothing saved at \(state))\n")
    }

    @Test("without --state-file the session is looked for under $HOME, or $XDG_STATE_HOME when it is absolute")
    func defaultStateFileFollowsHome() async throws {
        let directory = try folder()
        let home = directory.appendingPathComponent("home").path
        let underHome = try await CLIProcess.run(["whoami"], environment: ["HOME": home])
        #expect(underHome.status == 1)
        #expect(underHome.error == "not logged in (nothing saved at \(home)/.local/state/limited-login/session.json)\n")
        let state = directory.appendingPathComponent("xdg").path
        let underXDG = try await CLIProcess.run(["whoami"], environment: ["HOME": home, "XDG_STATE_HOME": state])
        #expect(underXDG.error == "not logged in (nothing saved at \(state)/limited-login/session.json)\n")
    }

    @Test("login (classic) prints an access token, and a cancel exits 1 saving nothing")
    func classicLoginAndCancel() async throws {
        let directory = try folder()
        let server = try await ServerProcess.start(
            ["--port", "0", "--database", directory.appendingPathComponent("p.sqlite").path], directory: directory)
        defer { Task { await server.stop() } }
        let state = directory.appendingPathComponent("session.json").path

        let cancelled = try await RunningCommand([
            "login", "--app-id", Self.demoApp, "--provider", server.baseURL, "--no-browser", "--state-file", state,
        ])
        _ = try await actAsBrowser(for: cancelled, person: ScriptedPerson(signIn: Self.demoAlice, decision: .cancel))
        #expect(try await cancelled.waitForExit() == 1)
        #expect(cancelled.error.hasSuffix("the login was cancelled in the dialog; nothing was saved\n"))
        #expect(!FileManager.default.fileExists(atPath: state))

        let login = try await RunningCommand([
            "login", "--app-id", Self.demoApp, "--provider", server.baseURL, "--permissions", "email", "--no-browser", "--state-file", state,
        ])
        _ = try await actAsBrowser(for: login, person: ScriptedPerson(signIn: Self.demoAlice))
        #expect(try await login.waitForExit() == 0, "\(login.error)")
        #expect(login.output.contains("Logged in (classic) as Alice Example; the ID token was verified."))
        #expect(login.output.contains("access token (expires "))
        #expect(login.output.contains("  EAA"))
        #expect(login.output.contains("granted:  email, openid, public_profile"))
        let restored = try #require(try FileTokenStore(path: state).load())
        #expect(restored.accessToken?.hasGranted("email") == true)
    }

    @Test("login with bad options fails at once with one line and exit status 64; a provider that is down fails clearly")
    func badLoginOptions() async throws {
        let cases: [([String], String)] = [
            (
                ["login", "--app-id", "1", "--tracking", "limited", "--permissions", "user_likes"],
                "error: \"user_likes\" cannot be requested in a limited login\n"
            ),
            (
                ["login", "--app-id", "1", "--nonce", "has space"],
                "error: the nonce must be a non-empty string without whitespace or control characters\n"
            ),
            (["login", "--app-id", "1", "--permissions", "Email"], "error: \"Email\" is not a valid permission name (only a-z and _)\n"),
            (
                ["login", "--app-id", "1", "--provider", "ftp://x"],
                "error: --provider must be an http(s) URL such as http://127.0.0.1:8080, or 'facebook'; got \"ftp://x\"\n"
            ),
            (["login", "--app-id", "1", "--auth-type", "sometimes"], "error: --auth-type must be rerequest, reauthorize or none\n"),
            (["login", "--app-id", "1", "--timeout", "0"], "error: --timeout must be a number of seconds above 0 and at most 86400 (a day)\n"),
        ]
        for (arguments, message) in cases {
            let result = try await CLIProcess.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.error == message, "\(arguments)")
        }
    }

    @Test("a login nobody finishes times out with a clear line")
    func timeout() async throws {
        // A provider that shows the dialog (so the login waits), and a person who never comes.
        let directory = try folder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: directory)
        let state = directory.appendingPathComponent("session.json").path
        let login = try await RunningCommand([
            "login", "--app-id", "1000000000000001", "--provider", server.baseURL, "--no-browser", "--timeout", "1", "--state-file", state,
        ])
        let status = try await login.waitForExit()
        await server.stop()
        #expect(status == 1)
        #expect(login.error.hasSuffix("error: no login response arrived within 1 seconds\n"), "\(login.error)")
    }
}
