import Foundation
import LimitedLoginJOSE
import NIOHTTP1
import Testing

/// A hidden input's value on a page (the provider escapes `& = " ' < >`).
private func hiddenValue(_ name: String, in html: String) -> String? {
    guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    let rest = html[range.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end]).replacingOccurrences(of: "&#61;", with: "=").replacingOccurrences(of: "&amp;", with: "&")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
}

private func formEncode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
}

private func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Signs in as the first listed test user and consents, with plain HTTP requests. Returns the session
/// cookie and the final redirect.
private func logIn(dialogURL: String, baseURL: String) async throws -> (cookie: String, location: String) {
    let signInPage = try await HTTPExchange.send(dialogURL)
    #expect(signInPage.status == 200)
    let browserCookie = try #require(signInPage.header("set-cookie")?.split(separator: ";").first.map(String.init))
    let csrf = try #require(hiddenValue("csrf_token", in: signInPage.body))
    let request = try #require(hiddenValue("request", in: signInPage.body))
    let userID = try #require(hiddenValue("user_id", in: signInPage.body))
    let signedIn = try await HTTPExchange.send(
        baseURL + "/dialog/oauth/signin", method: .POST, cookie: browserCookie,
        form: "csrf_token=\(formEncode(csrf))&request=\(formEncode(request))&user_id=\(userID)"
    )
    #expect(signedIn.status == 303)
    let session = try #require(signedIn.header("set-cookie")?.split(separator: ";").first.map(String.init))
    let consent = try await HTTPExchange.send(baseURL + (try #require(signedIn.header("location"))), cookie: session)
    #expect(consent.status == 200)
    let consentCSRF = try #require(hiddenValue("csrf_token", in: consent.body))
    let done = try await HTTPExchange.send(
        baseURL + "/dialog/oauth/confirm", method: .POST, cookie: session,
        form: "csrf_token=\(formEncode(consentCSRF))&request=\(formEncode(request))&permission=email&action=continue"
    )
    #expect(done.status == 303)
    return (session, try #require(done.header("location")))
}

@Suite("limited-login serve")
struct ServeCommandTests {
    @Test("with no configuration it creates limited-login.sqlite here, seeds a demo app and users, and prints the URLs")
    func firstStart() async throws {
        let folder = try temporaryFolder()
        let server = try await ServerProcess.start(["--port", "0"], directory: folder)
        defer { Task { await server.stop() } }
        let output = server.output
        #expect(output.contains("First start: seeded the demo app and test users"))
        #expect(output.contains("app Demo App: ID 1000000000000001"))
        #expect(output.contains("Admin token (shown once; keep it): admin-"))
        #expect(output.contains("discovery:  \(server.baseURL)/.well-known/openid-configuration/"))
        #expect(output.contains("console:    \(server.baseURL)/_console (sign in with the admin token)"), "\(output)")
        let console = try await HTTPExchange.send(server.baseURL + "/_console")
        #expect(console.status == 200 && console.body.contains("admin_token"), "the console's address answers with its sign-in page")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("limited-login.sqlite").path))

        let discovery = try await HTTPExchange.send(server.baseURL + "/.well-known/openid-configuration")
        #expect(discovery.status == 200)
        #expect(discovery.body.contains("\"issuer\":\"\(server.baseURL)\""))

        let dialogLine = try #require(output.split(separator: "\n").first { $0.contains("/v21.0/dialog/oauth?") })
        let dialogURL = dialogLine.trimmingCharacters(in: .whitespaces)
        let dialog = try await HTTPExchange.send(dialogURL)
        #expect(dialog.status == 200)
        #expect(dialog.body.contains("Log in to continue to Demo App"))
        #expect(dialog.body.contains(#"<span class="visually-hidden">Log in as </span>Alice Example"#))
        await server.stop()
    }

    @Test("a login survives a crash (SIGKILL): the restarted provider keeps its key, session and grant")
    func crashSafety() async throws {
        let folder = try temporaryFolder()
        let arguments = ["--port", "0", "--database", "state.sqlite", "--issuer", "https://issuer.test"]
        let first = try await ServerProcess.start(arguments, directory: folder)
        let keysBefore = try await HTTPExchange.send(first.baseURL + "/.well-known/oauth/openid/jwks")
        let dialogURL =
            first.baseURL + "/v21.0/dialog/oauth?client_id=1000000000000001&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
            + "&response_type=id_token&scope=public_profile,email&nonce=n1&tp=ios_14_do_not_track&state=s"
        let login = try await logIn(dialogURL: dialogURL, baseURL: first.baseURL)
        #expect(login.location.hasPrefix("http://127.0.0.1:9/cb#id_token="))
        await first.stop(signal: SIGKILL)

        let second = try await ServerProcess.start(arguments, directory: folder)
        defer { Task { await second.stop() } }
        #expect(!second.output.contains("First start"), "the demo data is seeded once")
        let keysAfter = try await HTTPExchange.send(second.baseURL + "/.well-known/oauth/openid/jwks")
        #expect(keysAfter.body == keysBefore.body, "same signing key after the crash")
        let repeatURL = dialogURL.replacingOccurrences(of: first.baseURL, with: second.baseURL)
        let again = try await HTTPExchange.send(repeatURL, cookie: login.cookie)
        #expect(again.status == 302, "signed in and consented before the crash: straight back to the app")
        #expect(again.header("location")?.contains("granted_scopes=email%2Copenid%2Cpublic_profile") == true)
        await second.stop()
    }

    @Test("HEAD of the documents answers GET's status and headers without a body; HEAD of the dialog logs no one in")
    func headRequests() async throws {
        let folder = try temporaryFolder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: folder)
        do {
            for path in [
                "/.well-known/openid-configuration", "/.well-known/oauth/openid/jwks/", "/.well-known/oauth/openid/certs", "/health",
                "/favicon.ico",
            ] {
                let get = try await HTTPExchange.send(server.baseURL + path)
                let head = try await HTTPExchange.send(server.baseURL + path, method: .HEAD)
                #expect(get.status == 200 && head.status == 200, "\(path): \(head.status)")
                #expect(head.body.isEmpty, "\(path): a body of \(head.body.utf8.count) bytes")
                for name in ["Content-Type", "Content-Length", "ETag", "Cache-Control"] {
                    #expect(head.header(name) == get.header(name), "\(path): \(name)")
                }
            }
            let dialog = try await HTTPExchange.send(
                server.baseURL + "/v21.0/dialog/oauth?client_id=1000000000000001&redirect_uri=https%3A%2F%2Fexample.com%2Fcb", method: .HEAD)
            #expect(dialog.status == 404, "the dialog answers no HEAD: \(dialog.status)")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("a second provider on the same SQLite file is refused at once, with the reason")
    func secondProcessRefused() async throws {
        let folder = try temporaryFolder()
        let first = try await ServerProcess.start(["--port", "0", "--database", "shared.sqlite"], directory: folder)
        let clock = ContinuousClock()
        let started = clock.now
        let second = try await CLIProcess.run(["serve", "--port", "0", "--database", folder.appendingPathComponent("shared.sqlite").path])
        // A bound on a liveness check, not a speed (a CLI start can take tens of seconds on a busy runner).
        #expect(clock.now - started < .seconds(120), "refused at once, not after spinning")
        #expect(second.status == 1)
        #expect(second.error.contains("is in use by another provider process"), "\(second.error)")
        let stillServing = try await HTTPExchange.send(first.baseURL + "/.well-known/openid-configuration")
        #expect(stillServing.status == 200)
        await first.stop()
    }

    @Test("keys rotate and keys list talk to a running provider through its admin API")
    func keysCommands() async throws {
        let folder = try temporaryFolder()
        let server = try await ServerProcess.start(
            ["--port", "0", "--database", "keys.sqlite", "--admin-token", "cli-admin-token-1234"], directory: folder)
        #expect(!server.output.contains("Admin token"), "a given token is not printed")
        let before = try await HTTPExchange.send(server.baseURL + "/.well-known/oauth/openid/jwks")
        let rotated = try await CLIProcess.run([
            "keys", "rotate", "--provider", server.baseURL, "--admin-token", "cli-admin-token-1234", "--publish-delay", "0", "--json",
        ])
        #expect(rotated.status == 0, "\(rotated.error)")
        #expect(rotated.output.contains("\"publish_delay\": 0"))
        let listed = try await CLIProcess.run(["keys", "list", "--provider", server.baseURL, "--admin-token", "cli-admin-token-1234", "--json"])
        #expect(listed.status == 0)
        #expect(listed.output.components(separatedBy: "\"kid\"").count == 3, "two keys: \(listed.output)")
        #expect(listed.output.contains("\"state\": \"retired, still published\""))
        let after = try await HTTPExchange.send(server.baseURL + "/.well-known/oauth/openid/jwks")
        #expect(after.body != before.body)
        let refused = try await CLIProcess.run(["keys", "list", "--provider", server.baseURL, "--admin-token", "wrong"])
        #expect(refused.status == 1)
        #expect(refused.error == "limited-login: the provider refused: The admin token is wrong.\n")

        // For people: a table with times in ISO 8601 (UTC), not seconds since 1970.
        let table = try await CLIProcess.run(["keys", "list", "--provider", server.baseURL, "--admin-token", "cli-admin-token-1234"])
        let lines = table.output.split(separator: "\n")
        #expect(
            lines.first?.hasPrefix("KID") == true && lines.first?.contains("STATE") == true && lines.first?.contains("UNPUBLISHED") == true,
            "\(table.output)")
        #expect(lines.count == 3, "a header and two keys: \(table.output)")
        #expect(lines.contains { $0.contains("retired, still published") && $0.contains("Z  ") }, "\(table.output)")
        #expect(table.output.range(of: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"#, options: .regularExpression) != nil, "\(table.output)")
        #expect(table.output.range(of: #"\b1[0-9]{9}\b"#, options: .regularExpression) == nil, "an epoch time: \(table.output)")
        await server.stop()
    }

    @Test("apps, users and friends commands manage a running provider")
    func directoryCommands() async throws {
        let folder = try temporaryFolder()
        let server = try await ServerProcess.start(
            ["--port", "0", "--database", "dir.sqlite", "--admin-token", "cli-admin-token-1234", "--no-demo-data"], directory: folder)
        let connection = ["--provider", server.baseURL, "--admin-token", "cli-admin-token-1234", "--json"]
        let app = try await CLIProcess.run(
            ["apps", "create", "--id", "4242", "--name", "CLI App", "--redirect-uri", "https://cli.example/cb", "--business-id", "9"] + connection)
        #expect(app.status == 0, "\(app.error)")
        #expect(app.output.contains("\"name\": \"CLI App\""))
        let ann = try await CLIProcess.run(
            ["users", "create", "--id", "31", "--first-name", "Ann", "--last-name", "Lee", "--email", "ann@example.com", "--password", "pw"]
                + connection)
        #expect(ann.status == 0, "\(ann.error)")
        let ben = try await CLIProcess.run(
            [
                "users", "create", "--id", "32", "--first-name", "Ben", "--last-name", "Lee", "--email", "ben@example.com", "--password", "pw",
                "--friend", "31",
            ] + connection)
        #expect(ben.output.contains("\"friends\": [\n"), "\(ben.output)")
        #expect(ben.output.contains("\"apps\": [\n    \"4242\"\n  ]"), "a user made without --app belongs to every app: \(ben.output)")
        let noSuchApp = try await CLIProcess.run(
            ["users", "create", "--first-name", "Cy", "--last-name", "Lee", "--email", "cy@example.com", "--password", "pw", "--app", "9999"]
                + connection)
        #expect(noSuchApp.status == 1)
        #expect(
            noSuchApp.error
                == "limited-login: the provider refused: The app 9999 does not exist: a test user belongs to existing apps (give their IDs).\n")
        let unfriend = try await CLIProcess.run(["friends", "remove", "31", "32"] + connection)
        #expect(unfriend.status == 0)
        let users = try await CLIProcess.run(["users", "list"] + connection)
        #expect(users.output.contains("ann@example.com") && users.output.contains("ben@example.com"))
        #expect(!users.output.contains("\"32\"\n      ]"), "no friends left")
        let moved = try await CLIProcess.run(["apps", "move", "4242", "--business-id", "10"] + connection)
        #expect(moved.output.contains("\"business_id\": \"10\""))
        let duplicate = try await CLIProcess.run(["apps", "create", "--id", "4242", "--name", "Again"] + connection)
        #expect(duplicate.status == 1)
        #expect(duplicate.error == "limited-login: the provider refused: An app with ID 4242 already exists.\n")
        let deleted = try await CLIProcess.run(["users", "delete", "32"] + connection)
        #expect(deleted.status == 0)
        let apps = try await CLIProcess.run(["apps", "list"] + connection)
        #expect(apps.output.contains("\"id\": \"4242\""))

        // For people: tables and one line per change.
        let people = Array(connection.dropLast())
        let appTable = try await CLIProcess.run(["apps", "list"] + people)
        #expect(appTable.output.hasPrefix("ID    NAME     BUSINESS  SECRET"), "\(appTable.output)")
        #expect(appTable.output.contains("4242  CLI App  10"), "\(appTable.output)")
        let userTable = try await CLIProcess.run(["users", "list"] + people)
        #expect(
            userTable.output == "ID  EMAIL            NAME     APPS  FRIENDS  PICKABLE\n31  ann@example.com  Ann Lee  4242  -        no\n",
            "\(userTable.output)")
        // Roles on an app in Development mode.
        let development = try await CLIProcess.run(["apps", "create", "--id", "4343", "--name", "Dev App", "--mode", "development"] + people)
        #expect(development.status == 0 && development.output.contains("development"), "\(development.output)\(development.error)")
        let role = try await CLIProcess.run(["apps", "role", "4343", "ann@example.com", "tester"] + people)
        #expect(role.output == "ann@example.com is now tester of app 4343.\n", "\(role.output)\(role.error)")
        let badRole = try await CLIProcess.run(["apps", "role", "4343", "ann@example.com", "owner"] + people)
        #expect(badRole.status == 64 && badRole.error.hasPrefix("Error: The role must be admin, developer or tester.\n"), "\(badRole.error)")
        let taken = try await CLIProcess.run(["apps", "role", "4343", "31", "--remove"] + people)
        #expect(taken.output == "Took 31's role on app 4343 away.\n", "\(taken.output)\(taken.error)")
        let notHeld = try await CLIProcess.run(["apps", "role", "4343", "31", "--remove"] + people)
        #expect(notHeld.error == "limited-login: the provider refused: ann@example.com has no role on app 4343.\n", "\(notHeld.error)")
        let badMode = try await CLIProcess.run(["apps", "create", "--id", "4444", "--name", "X", "--mode", "beta"] + people)
        #expect(badMode.status == 64 && badMode.error.hasPrefix("Error: --mode must be live or development.\n"), "\(badMode.error)")
        #expect(try await CLIProcess.run(["apps", "delete", "4343"] + people).status == 0)
        let befriended = try await CLIProcess.run(["friends", "add", "ann@example.com", "31"] + people)
        #expect(befriended.error == "limited-login: the provider refused: A test user cannot be their own friend.\n")
        let removed = try await CLIProcess.run(["apps", "delete", "4242"] + people)
        #expect(removed.output == "Deleted app 4242 with its grants and tokens.\n")
        let none = try await CLIProcess.run(["apps", "list"] + people)
        #expect(none.output == "No apps.\n")
        await server.stop()
    }

    @Test("bad options fail with a one-line reason and exit status 64")
    func badOptions() async throws {
        let folder = try temporaryFolder()
        let badFixtures = folder.appendingPathComponent("bad.json")
        try Data(#"{"users":[{"first_name":"A","last_name":"B","email":"a@example.com","password":"p","birthday":"1990-01-01"}]}"#.utf8)
            .write(to: badFixtures)
        let notJSON = folder.appendingPathComponent("not.json")
        try Data("{apps:".utf8).write(to: notJSON)
        let cases: [([String], String)] = [
            (
                ["serve", "--database", "postgres://localhost/db"],
                "limited-login serve: the store is unavailable: postgres://localhost/db is not a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/database"
            ),
            (["serve", "--fixtures", folder.appendingPathComponent("missing.json").path], "limited-login serve: cannot read the fixtures file"),
            (
                ["serve", "--fixtures", badFixtures.path],
                "limited-login serve: the fixtures are invalid: user a@example.com has birthday \"1990-01-01\"; use MM/DD/YYYY"
            ),
            (["serve", "--fixtures", notJSON.path], "not valid JSON"),
            (["serve", "--port", "70000"], "--port must be between 0 and 65535."),
        ]
        for (arguments, message) in cases {
            let result = try await CLIProcess.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.error)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
            #expect(!result.error.contains("Fatal error") && !result.error.contains("Backtrace"))
        }
    }

    @Test("serve's help, version and mistakes name limited-login serve (serve alone parses only command lines it takes)")
    func serveParsedAloneOnlyWhenTaken() async throws {
        let help = try await CLIProcess.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Run the Limited Login provider"), "\(help.output.prefix(80))")
        #expect(help.output.contains("USAGE: limited-login serve <options>"), "\(help.output)")
        let version = try await CLIProcess.run(["serve", "--port", "0", "--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("limited-login "), "\(version.output)")
        let misspelt = try await CLIProcess.run(["serve", "--prot", "1"])
        #expect(misspelt.status == 64)
        #expect(
            misspelt.error == "Error: unknown option '--prot' for limited-login serve. Did you mean '--port'? See 'limited-login serve --help'.\n")
        for (arguments, first) in [
            (["serve", "extra"], "Error: Unexpected argument 'extra'"), (["serve", "--port", "70000"], "Error: --port must be between 0 and 65535."),
        ] {
            let refused = try await CLIProcess.run(arguments)
            #expect(refused.status == 64, "\(arguments)")
            #expect(
                refused.error == "\(first)\nUsage: limited-login serve <options>\n  See 'limited-login serve --help' for more information.\n",
                "\(arguments): \(refused.error)")
        }
    }

    @Test("fixtures load apps and users, and a second start with the same file changes nothing")
    func fixturesFile() async throws {
        let folder = try temporaryFolder()
        let fixtures = folder.appendingPathComponent("fixtures.json")
        try Data(
            #"""
            {"apps": [{"id": "555", "name": "Fixture App", "secret": "s3cret", "redirect_uris": ["https://fixture.example/cb"]}],
             "users": [{"id": "9001", "first_name": "Dana", "last_name": "Fixture", "email": "dana@example.com", "password": "pw",
                        "birthday": "02/29/2000", "friends": ["erin@example.com"]},
                       {"first_name": "Erin", "last_name": "Fixture", "email": "erin@example.com", "password": "pw"}]}
            """#.utf8
        ).write(to: fixtures)
        for round in 1...2 {
            let server = try await ServerProcess.start(["--port", "0", "--fixtures", fixtures.path, "--no-demo-data"], directory: folder)
            #expect(server.output.contains("app Fixture App: ID 555"), "round \(round)")
            #expect(!server.output.contains("Demo App"), "round \(round)")
            let home = try await HTTPExchange.send(server.baseURL + "/")
            #expect(home.body.contains("dana@example.com") && home.body.contains("erin@example.com"), "round \(round)")
            #expect(home.body.components(separatedBy: "dana@example.com").count == 2, "round \(round): one Dana")
            await server.stop()
        }
    }
}
