import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

/// Issue #22: every failure a new user meets says, on one line of standard error, what happened and what to
/// do, with the right exit status, and never a backtrace.
@Suite("CLI: failures in one line, with what to do")
struct CLIFailureMessageTests {
    private static let adminToken = "failure-admin-token"

    /// A port nothing listens on: 1 (tcpmux), privileged and unused on any machine that runs these tests.
    private static func closedPort() throws -> Int { 1 }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-failures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await CLIProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "limited-login 0.2.0\n")
    }

    @Test("a provider that is not running: admin commands, verify and login say so at once, with how to start one")
    func providerDown() async throws {
        let port = try Self.closedPort()
        // host:port alone means http there.
        let apps = try await CLIProcess.run(["apps", "list", "--provider", "127.0.0.1:\(port)", "--admin-token", "x"])
        #expect(apps.status == 1)
        #expect(
            apps.error
                == "limited-login: cannot reach the provider at http://127.0.0.1:\(port): connection refused. Is it running? Start one with 'limited-login serve', or give its address with --provider.\n"
        )

        let discovery = "http://127.0.0.1:\(port)/.well-known/openid-configuration"
        let verify = try await CLIProcess.run(["verify", "a.b.c", "--app-id", "1", "--no-nonce", "--discovery-url", discovery])
        #expect(verify.status == 3, "3: the token could not be checked (not 1, a rejection; not 2, no token)")
        #expect(
            verify.error
                == "error: cannot check the token: the discovery document at \(discovery) could not be read: the request failed: connection refused. Is the provider running? Start one with 'limited-login serve'.\n"
        )

        let verifyJSON = try await CLIProcess.run(["verify", "a.b.c", "--app-id", "1", "--no-nonce", "--discovery-url", discovery, "--json"])
        #expect(verifyJSON.status == 3)
        let answer = try #require(try StrictJSONParser().parse(Array(verifyJSON.output.utf8)).objectValue, "\(verifyJSON.output)")
        #expect(answer["valid"] == false && answer["checked"] == false && answer["error"] == "discovery_unavailable")
        #expect(answer["message"]?.stringValue?.hasPrefix("the discovery document at \(discovery) could not be read: ") == true)

        let token = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifQ.eyJhIjoxfQ.AAAA"
        let keys = try await CLIProcess.run(["verify", token, "--app-id", "1", "--no-nonce", "--jwks-url", "http://127.0.0.1:\(port)/jwks"])
        #expect(keys.status == 3)
        #expect(
            keys.error
                == "error: cannot check the token: the key set could not be fetched: http://127.0.0.1:\(port)/jwks: the request failed: connection refused\n"
        )
        let keysJSON = try await CLIProcess.run([
            "verify", token, "--app-id", "1", "--no-nonce", "--jwks-url", "http://127.0.0.1:\(port)/jwks", "--json",
        ])
        #expect(keysJSON.status == 3)
        #expect(keysJSON.output.contains(#""checked" : false"#) || keysJSON.output.contains(#""checked": false"#), "\(keysJSON.output)")

        let clock = ContinuousClock()
        let started = clock.now
        // A timeout of an hour, and a bound far below it: whether login waited for its timeout, not how fast it is
        // (a CLI start took 28 s on a busy 2-core runner).
        let login = try await CLIProcess.run([
            "login", "--provider", "http://127.0.0.1:\(port)", "--app-id", "1", "--no-browser", "--timeout", "3600",
        ])
        #expect(clock.now - started < .seconds(600), "login waited for its timeout before saying the provider is down")
        #expect(login.status == 1)
        #expect(
            login.error
                == "error: the login dialog at http://127.0.0.1:\(port) cannot be reached: connection refused. Is the provider running? Start one with 'limited-login serve', or give its address with --provider.\n"
        )
        #expect(!login.error.contains("Waiting for the login"), "it waited: \(login.error)")
    }

    @Test("serve refuses an empty, blank or short --admin-token (or LIMITED_LOGIN_ADMIN_TOKEN) in one line with status 64, before starting")
    func weakAdminToken() async throws {
        let directory = try Self.folder()
        let empty = try await CLIProcess.run([
            "serve", "--port", "0", "--database", directory.appendingPathComponent("p.sqlite").path, "--admin-token", "",
        ])
        #expect(empty.status == 64)
        #expect(
            empty.error
                == "limited-login serve: --admin-token (or LIMITED_LOGIN_ADMIN_TOKEN): the admin token is empty (an unset variable?): give one of at least 16 characters, or none and the provider makes one.\n"
        )
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("p.sqlite").path), "no store was made")

        let short = try await CLIProcess.run(["serve", "--port", "0", "--database", ":memory:", "--admin-token", "a"])
        #expect(short.status == 64)
        #expect(
            short.error
                == "limited-login serve: --admin-token (or LIMITED_LOGIN_ADMIN_TOKEN): the admin token has 1 character; it needs at least 16 (e.g. 'openssl rand -hex 16').\n"
        )

        let blank = try await CLIProcess.run(["serve", "--port", "0", "--database", ":memory:"], environment: ["LIMITED_LOGIN_ADMIN_TOKEN": " \t "])
        #expect(blank.status == 64)
        #expect(
            blank.error.hasPrefix("limited-login serve: --admin-token (or LIMITED_LOGIN_ADMIN_TOKEN): the admin token is only white space"),
            "\(blank.error)")
        #expect(blank.output.isEmpty, "nothing started: \(blank.output)")
    }

    @Test("bad --provider values are refused with exit status 64")
    func badProvider() async throws {
        let apps = try await CLIProcess.run(["apps", "list", "--provider", "ftp://example.com", "--admin-token", "x"])
        #expect(apps.status == 64)
        #expect(apps.error == "limited-login: --provider must be an http(s) URL such as http://127.0.0.1:8080; got \"ftp://example.com\"\n")
        let login = try await CLIProcess.run(["login", "--provider", "ftp://example.com", "--app-id", "1"])
        #expect(login.status == 64)
        #expect(login.error == "error: --provider must be an http(s) URL such as http://127.0.0.1:8080, or 'facebook'; got \"ftp://example.com\"\n")
    }

    @Test("a port above 65535 in any URL is one line and status 64, never a crash in the HTTP client")
    func portOutOfRange() async throws {
        let url = "http://127.0.0.1:99999"
        let runs: [([String], String)] = [
            (["health", "--provider", url], "limited-login health: --provider must be"),
            (
                ["apps", "list", "--provider", url, "--admin-token", "x"],
                "limited-login: --provider must be an http(s) URL such as http://127.0.0.1:8080; got \"\(url)\""
            ),
            (["login", "--app-id", "1", "--provider", url], "error: --provider must be an http(s) URL"),
            (["verify", "a.b.c", "--app-id", "1", "--no-nonce", "--jwks-url", url + "/jwks"], "the port of \"\(url)/jwks\" is not 1 to 65535"),
            (["verify", "a.b.c", "--app-id", "1", "--no-nonce", "--discovery-url", url + "/d"], "the port of \"\(url)/d\" is not 1 to 65535"),
            (
                ["login", "--app-id", "1", "--provider", "127.0.0.1:1", "--timeout", "1e300"],
                "--timeout must be a number of seconds above 0 and at most 86400"
            ),
        ]
        for (arguments, expected) in runs {
            let run = try await CLIProcess.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.error)")
            #expect(run.error.contains(expected), "\(arguments): \(run.error)")
            // One line (verify adds the parser's two usage lines).
            #expect(!run.error.contains("Swift runtime failure") && run.error.split(separator: "\n").count <= 3, "\(arguments): \(run.error)")
        }
    }

    @Test("LIMITED_LOGIN_CA_FILE is the CA clients trust: serve neither overwrites it under --tls nor refuses to start without --tls")
    func caFileVariableIsTheClients() async throws {
        let directory = try Self.folder()
        let ca = directory.appendingPathComponent("my-ca.pem").path
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: ca))
        for tls in [false, true] {
            let run = try await CLIProcess.run(
                ["serve", "--port", "0", "--database", ":memory:", "--exec", "true"] + (tls ? ["--tls"] : []),
                environment: ["LIMITED_LOGIN_CA_FILE": ca])
            #expect(run.status == 0, "tls \(tls): \(run.error)")
            #expect(try String(contentsOfFile: ca, encoding: .utf8) == "precious\n", "tls \(tls)")
        }
    }

    @Test("serve: a busy port and an unreachable PostgreSQL are one line each")
    func serveFailures() async throws {
        let directory = try Self.folder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: directory)
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        let busy = try await CLIProcess.run(["serve", "--port", String(port), "--database", ":memory:"])
        await server.stop()
        #expect(busy.status == 1)
        #expect(
            busy.error
                == "limited-login serve: port \(port) on 127.0.0.1 is in use by another program; choose another with --port, or --port 0 for a free one\n"
        )

        let closed = try Self.closedPort()
        let postgres = try await CLIProcess.run(["serve", "--port", "0", "--database", "postgres://user:secret@127.0.0.1:\(closed)/db"])
        #expect(postgres.status == 1)
        #expect(
            postgres.error
                == "limited-login serve: cannot start: the store is unavailable: cannot connect to PostgreSQL postgres://user:***@127.0.0.1:\(closed)/db: connection refused; is the server running, and is the URL right?\n"
        )
        #expect(!postgres.error.contains("secret"))
    }

    @Test("login against a running provider and an unknown app fails at once with the dialog's reason and a hint")
    func unknownApp() async throws {
        let directory = try Self.folder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--admin-token", Self.adminToken], directory: directory)
        defer { Task { await server.stop() } }
        let expected =
            "error: the login dialog failed (404): No app with ID 999 is registered with this provider. See the provider's apps with 'limited-login apps list', or give another with --app-id.\n"
        let browser = try await CLIProcess.run(["login", "--provider", server.baseURL, "--app-id", "999", "--no-browser", "--timeout", "120"])
        #expect(browser.status == 1)
        #expect(browser.error == expected)
        let headless = try await CLIProcess.run(["login", "--provider", server.baseURL, "--app-id", "999", "--as", "alice@example.com"])
        #expect(headless.status == 1)
        #expect(headless.error == expected)
    }

    @Test("admin commands: an invalid app ID is a sentence, friends are named by email too, serve names its test users")
    func adminMessages() async throws {
        let directory = try Self.folder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--admin-token", Self.adminToken], directory: directory)
        defer { Task { await server.stop() } }
        let environment = ["LIMITED_LOGIN_PROVIDER": server.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": Self.adminToken]

        let app = try await CLIProcess.run(["apps", "create", "--id", "abc", "--name", "X"], environment: environment)
        #expect(app.status == 1)
        #expect(app.error == "limited-login: the provider refused: App ID \"abc\" must be digits.\n")

        let created = try await CLIProcess.run(
            [
                "users", "create", "--first-name", "Dora", "--last-name", "Lee", "--email", "dora@example.com", "--password", "p", "--friend",
                "alice@example.com",
            ],
            environment: environment
        )
        #expect(created.status == 0, "\(created.error)")
        let added = try await CLIProcess.run(["friends", "add", "dora@example.com", "BOB@example.com"], environment: environment)
        #expect(added.status == 0, "\(added.error)")
        let list = try await CLIProcess.run(["users", "list", "--json"], environment: environment)
        let users = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [String: Any])["users"] as? [[String: Any]]
        let byEmail = Dictionary(uniqueKeysWithValues: (users ?? []).compactMap { user in (user["email"] as? String).map { ($0, user) } })
        let ids = byEmail.mapValues { $0["id"] as? String ?? "" }
        let doraFriends = Set(byEmail["dora@example.com"]?["friends"] as? [String] ?? [])
        #expect(doraFriends == [ids["alice@example.com"] ?? "?", ids["bob@example.com"] ?? "?"])

        let unknown = try await CLIProcess.run(["friends", "add", "dora@example.com", "nobody@example.com"], environment: environment)
        #expect(unknown.status == 1)
        #expect(unknown.error == "limited-login: the provider refused: No test user with ID or email nobody@example.com.\n")
        let own = try await CLIProcess.run(["friends", "add", "dora@example.com", ids["dora@example.com"] ?? "?"], environment: environment)
        #expect(own.error == "limited-login: the provider refused: A test user cannot be their own friend.\n")

        #expect(server.output.contains("  test user alice@example.com: ID \(ids["alice@example.com"] ?? "?")"), "\(server.output)")
    }

    @Test("--host 0.0.0.0 without --public-url warns that the issuer is unroutable")
    func everyInterfaceWarning() async throws {
        let directory = try Self.folder()
        let server = try await ServerProcess.start(["--host", "0.0.0.0", "--port", "0", "--database", ":memory:"], directory: directory)
        await server.stop()
        #expect(
            server.output.contains("Warning: --host 0.0.0.0 without --public-url: tokens name this unroutable address as their issuer"),
            "\(server.output)")
        let routable = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: directory)
        await routable.stop()
        #expect(!routable.output.contains("Warning: --host"))
    }

    @Test("output to a reader that has gone (verify … | head -1) is dropped: no backtrace, the command's own status")
    func brokenPipe() async throws {
        // The pipe's read end is closed before the command starts: its first write fails with EPIPE.
        let token = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifQ.eyJzdWIiOiIxIiwiYXVkIjoiMSJ9.AAAA"
        let (status, errorText) = try await onOwnThread {
            let process = Process()
            process.executableURL = CLIProcess.binary
            process.arguments = ["decode", token]
            let output = Pipe()
            let error = Pipe()
            try output.fileHandleForReading.close()
            process.standardOutput = output
            process.standardError = error
            try ProcessLaunch.run(process)
            let errorData = PipeReader.readToEnd(error.fileHandleForReading)
            return (ChildExit.status(of: process), String(decoding: errorData, as: UTF8.self))
        }
        #expect(status == 0)
        #expect(errorText == "")
    }
}

@Suite("serve: log format")
struct ServeLogFormatTests {
    @Test("--log-format json writes one JSON object per line with the request line's ID and duration; a bad format is refused")
    func jsonLines() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--log-format", "json"], directory: directory)
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        let answer = try await onOwnThread {
            try LoopbackSocket(port: port).exchangeBlocking(keepAliveRequest("/.well-known/openid-configuration"))
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        var line: [String: Any]?
        for _ in 0..<50 where line == nil {
            line = server.output.split(separator: "\n").lazy
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { ($0["message"] as? String)?.hasPrefix("GET /.well-known/openid-configuration 200 ") == true }
            if line == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        await server.stop()
        let request = try #require(line, "no JSON request line in: \(server.output)")
        #expect(request["level"] as? String == "info")
        #expect(request["label"] as? String == "limited-login")
        #expect((request["request_id"] as? String)?.count == 16)
        #expect(Double(request["duration_ms"] as? String ?? "") != nil)
        #expect((request["time"] as? String)?.hasSuffix("Z") == true, "\(request)")

        let bad = try await CLIProcess.run(["serve", "--database", ":memory:", "--log-format", "xml"])
        #expect(bad.status == 64)
        #expect(bad.error.hasPrefix("Error: --log-format must be text or json.\n"), "\(bad.error)")
    }
}
