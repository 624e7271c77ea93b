import Foundation
import LimitedLoginJOSE
import LimitedLoginProvider
import Testing

@testable import limited_login

private func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-harness-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

private let adminToken = "harness-admin-token"

/// A provider process on a fresh SQLite file with the demo data and a known admin token.
private func withServer<T: Sendable>(
    _ extra: [String] = [], _ body: @Sendable (ServerProcess, [String: String], URL) async throws -> T
) async throws -> T {
    let directory = try folder()
    let server = try await ServerProcess.start(
        ["--port", "0", "--database", directory.appendingPathComponent("p.sqlite").path, "--admin-token", adminToken] + extra,
        directory: directory
    )
    do {
        let value = try await body(server, ["LIMITED_LOGIN_PROVIDER": server.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken], directory)
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

private func json(_ text: String) throws -> JSONObject {
    try #require(try StrictJSONParser().parse(Array(text.utf8)).objectValue, "not a JSON object: \(text)")
}

@Suite("CLI: the provider as a test harness")
struct HarnessCommandTests {
    @Test("login --as plays the person over HTTP: a verified token with no browser; --untick and --cancel; an unknown user fails at once")
    func headlessLogin() async throws {
        try await withServer { _, environment, directory in
            let state = directory.appendingPathComponent("session.json").path
            let login = try await CLIProcess.run(
                [
                    "login", "--app-id", "1000000000000001", "--tracking", "limited", "--permissions", "email,user_friends",
                    "--as", "alice@example.com", "--untick", "user_friends", "--state-file", state, "--json",
                ],
                environment: environment.merging(["BROWSER": "/bin/false", "PATH": "/nonexistent"]) { $1 }
            )
            #expect(login.status == 0, "\(login.error)")
            let result = try json(login.output)
            #expect(result["profile"]?.objectValue?["email"] == "alice@example.com")
            #expect(result["declined"] == .array(["user_friends"]))
            #expect(result["authentication_token"]?.objectValue?["token"]?.stringValue?.split(separator: ".").count == 3)

            let cancel = try await CLIProcess.run(
                ["login", "--app-id", "1000000000000001", "--as", "bob@example.com", "--cancel", "--state-file", state], environment: environment
            )
            #expect(cancel.status == 1 && cancel.error == "the login was cancelled in the dialog; nothing was saved\n")

            let nobody = try await CLIProcess.run(
                ["login", "--app-id", "1000000000000001", "--as", "nobody@example.com", "--state-file", state], environment: environment
            )
            #expect(nobody.status == 1)
            #expect(nobody.error.contains("lists no such test user to pick"), "\(nobody.error)")

            let stray = try await CLIProcess.run(["login", "--app-id", "1000000000000001", "--cancel"], environment: environment)
            #expect(stray.status == 64 && stray.error.contains("--password, --untick and --cancel go with --as (a headless login)."))
        }
    }

    @Test("token prints the ID token alone; --json the whole answer; --defect and --list-defects; clock and scenario commands")
    func tokenClockScenario() async throws {
        try await withServer { _, environment, _ in
            let plain = try await CLIProcess.run(
                ["token", "--app-id", "1000000000000001", "--user", "alice@example.com", "--nonce", "n-9"], environment: environment)
            #expect(plain.status == 0, "\(plain.error)")
            #expect(plain.output.split(separator: "\n").count == 1 && plain.output.split(separator: ".").count == 3)
            let verified = try await CLIProcess.run(
                [
                    "verify", "--app-id", "1000000000000001", "--nonce", "n-9", "--discovery-url",
                    environment["LIMITED_LOGIN_PROVIDER", default: ""] + "/.well-known/openid-configuration",
                ],
                input: plain.output, environment: environment
            )
            #expect(verified.status == 0, "\(verified.output) \(verified.error)")

            let expired = try await CLIProcess.run(
                ["token", "--app-id", "1000000000000001", "--user", "alice@example.com", "--defect", "expired", "--json"], environment: environment
            )
            #expect(try json(expired.output)["defect"] == "expired")
            let rejected = try await CLIProcess.run(
                [
                    "verify", "--app-id", "1000000000000001", "--no-nonce", "--discovery-url",
                    environment["LIMITED_LOGIN_PROVIDER", default: ""] + "/.well-known/openid-configuration",
                    try #require(try json(expired.output)["id_token"]?.stringValue),
                ], environment: environment
            )
            #expect(rejected.status == 1 && rejected.error.hasPrefix("invalid: the token expired"), "\(rejected.error)")

            let unknown = try await CLIProcess.run(["token", "--app-id", "1", "--user", "x", "--defect", "rotten"], environment: environment)
            #expect(unknown.status == 64 && unknown.error.contains("Unknown defect \"rotten\"; one of: expired, issued-in-future"))
            let list = try await CLIProcess.run(["token", "--list-defects"])
            #expect(list.status == 0 && list.output.split(separator: "\n").count == TokenDefect.allCases.count)
            #expect(list.output.contains("hs256-public-key"))
            let noApp = try await CLIProcess.run(["token", "--app-id", "999", "--user", "alice@example.com"], environment: environment)
            #expect(noApp.status == 1 && noApp.error == "limited-login: the provider refused: No app with ID 999.\n")

            let advanced = try await CLIProcess.run(["clock", "advance", "2h"], environment: environment)
            #expect(advanced.status == 0 && advanced.output.contains("offset 7200 s from the system's"), "\(advanced.output)\(advanced.error)")
            let badAmount = try await CLIProcess.run(["clock", "advance", "soon"], environment: environment)
            #expect(
                badAmount.status == 64 && badAmount.error == "limited-login clock advance: \"soon\" is not a duration; e.g. 3600, 90m, 2h or 30d\n")
            let reset = try await CLIProcess.run(["clock", "reset"], environment: environment)
            #expect(reset.output.contains("the system's time"))

            let queued = try await CLIProcess.run(["scenario", "add", "--app-id", "1000000000000001", "--cancel"], environment: environment)
            #expect(queued.status == 0 && queued.output == "queued scenario 1 for app 1000000000000001\n")
            let both = try await CLIProcess.run(
                ["scenario", "add", "--app-id", "1000000000000001", "--cancel", "--error", "x"], environment: environment)
            #expect(both.status == 64 && both.error.contains("Give exactly one of --cancel, --error MESSAGE or --claims JSON."))
            let cleared = try await CLIProcess.run(["scenario", "clear"], environment: environment)
            #expect(cleared.output == "removed 1 scenario(s)\n")

            let noToken = try await CLIProcess.run(
                ["clock", "show"], environment: ["LIMITED_LOGIN_PROVIDER": environment["LIMITED_LOGIN_PROVIDER", default: ""]])
            #expect(
                noToken.status == 64 && noToken.error.hasPrefix("limited-login: no admin token: give --admin-token or set LIMITED_LOGIN_ADMIN_TOKEN"))
        }
    }

    @Test("serve --exec runs the command with the provider's variables and exits with its status; --ready-file says everything")
    func exec() async throws {
        let directory = try folder()
        let ready = directory.appendingPathComponent("ready.json").path
        let copy = directory.appendingPathComponent("ready-copy.json").path
        let script = """
            test -s "\(ready)" || exit 90
            cp "\(ready)" "\(copy)"
            test "$(stat -c %a "\(ready)")" = 600 || exit 89
            test -n "$LIMITED_LOGIN_URL" && test "$LIMITED_LOGIN_ISSUER" = "$LIMITED_LOGIN_URL" || exit 91
            test "$LIMITED_LOGIN_APP_ID" = 1000000000000001 || exit 92
            test "$LIMITED_LOGIN_DISCOVERY_URL" = "$LIMITED_LOGIN_URL/.well-known/openid-configuration/" || exit 93
            "\(CLIProcess.binary.path)" token --app-id "$LIMITED_LOGIN_APP_ID" --user alice@example.com > "\(directory.path)/token" || exit 94
            exit 7
            """
        let run = try await CLIProcess.run(["serve", "--port", "0", "--database", ":memory:", "--ready-file", ready, "--exec", script])
        #expect(run.status == 7, "\(run.output)\(run.error)")
        #expect(run.output.isEmpty, "with --exec the banner goes to standard error: \(run.output)")
        #expect(!FileManager.default.fileExists(atPath: ready), "the ready file goes when serve stops")
        let document = try json(try String(contentsOfFile: copy, encoding: .utf8))
        #expect(document["admin_token"]?.stringValue?.hasPrefix("admin-") == true)
        #expect(document["apps"]?.arrayValue?.first?.objectValue?["id"] == "1000000000000001")
        #expect(
            Set(document["users"]?.arrayValue?.compactMap { $0.objectValue?["email"]?.stringValue } ?? []) == [
                "alice@example.com", "bob@example.com", "carol@example.com",
            ])
        for key in ["url", "issuer", "discovery_url", "jwks_url"] {
            #expect(document[key]?.stringValue?.hasPrefix("http://127.0.0.1:") == true, "\(key)")
        }
        #expect(!run.error.contains("limited-login serve: cannot remove"), "\(run.error)")
        #expect(try String(contentsOfFile: directory.appendingPathComponent("token").path, encoding: .utf8).split(separator: ".").count == 3)

        // --export-on-exit: the state of a throwaway provider survives it, keys included.
        let state = directory.appendingPathComponent("state.json").path
        let exported = try await CLIProcess.run([
            "serve", "--port", "0", "--database", ":memory:", "--ready-file", ready, "--export-on-exit", state, "--exec", script,
        ])
        #expect(exported.status == 7 && exported.error.contains("limited-login serve: state written to \(state)"), "\(exported.error)")
        let saved = try json(try String(contentsOfFile: state, encoding: .utf8))
        #expect(saved["app_scoped_ids"]?.arrayValue?.count == 1, "alice's sub in the demo app, made by the minted token")
        #expect(saved["grants"]?.arrayValue?.count == 1 && saved["signing_keys"]?.arrayValue?.count == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: state)[.posixPermissions] as? Int == 0o600, "it holds private keys")

        let passing = try await CLIProcess.run(["serve", "--port", "0", "--database", ":memory:", "--exec", "true"])
        #expect(passing.status == 0)
        let empty = try await CLIProcess.run(["serve", "--exec", " "])
        #expect(empty.status == 64 && empty.error.contains("--exec needs a command."))
    }

    @Test(
        "a run whose --export-on-exit file cannot be written fails (73) though its command passed; --tls's CA file for the command goes with the run")
    func exportFailureAndTemporaryCA() async throws {
        let directory = try folder()
        let gone = directory.appendingPathComponent("gone")
        try FileManager.default.createDirectory(at: gone, withIntermediateDirectories: true)
        let export = gone.appendingPathComponent("state.json").path
        let run = try await CLIProcess.run([
            "serve", "--port", "0", "--database", ":memory:", "--export-on-exit", export, "--exec", "rmdir '\(gone.path)'",
        ])
        #expect(run.status == 73, "\(run.error)")
        #expect(run.error.contains("limited-login serve: cannot write the state to \(export)"), "\(run.error)")

        let tls = try await CLIProcess.run(["serve", "--tls", "--port", "0", "--database", ":memory:", "--exec", #"echo "$LIMITED_LOGIN_CA_FILE""#])
        #expect(tls.status == 0, "\(tls.error)")
        let caFile = tls.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(caFile.hasSuffix(".pem"), "\(tls.output)")
        #expect(!FileManager.default.fileExists(atPath: caFile), "the temporary CA file \(caFile) is left behind")
    }

    @Test("a ready file left by an earlier run is removed at start, before anything can fail")
    func staleReadyFile() async throws {
        let directory = try folder()
        let ready = directory.appendingPathComponent("ready.json").path
        try Data(#"{"url":"http://127.0.0.1:1","admin_token":"old","pid":1}"#.utf8).write(to: URL(fileURLWithPath: ready))
        // A store that cannot be opened (an empty file): serve fails to start, after the ready file went.
        let empty = directory.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let run = try await CLIProcess.run(["serve", "--port", "0", "--database", empty, "--ready-file", ready])
        #expect(run.status == 1, "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: ready), "the earlier run's file would be read as this one's")
    }

    @Test("every serve option but --ca-file has its LIMITED_LOGIN_ variable; flags win; bad values name the variable")
    func environmentConfiguration() async throws {
        let help = try await CLIProcess.run(["serve", "--help"])
        // Option lines of the help: "  --name <value>   what it does".
        let options = Set(
            help.output.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let first = words.first, first.hasPrefix("--"), first != "--help", first != "--version" else { return nil }
                let name = first.dropFirst(2)
                return name.allSatisfy({ $0.isLowercase || $0 == "-" }) ? String(name) : nil
            })
        #expect(!options.isEmpty)
        // LIMITED_LOGIN_CA_FILE is the CA the clients trust, not the file serve --tls writes.
        #expect(
            options.subtracting(["ca-file"]) == Set(ServeEnvironment.options.map(\.name)),
            "serve options without a variable: \(options.symmetricDifference(ServeEnvironment.options.map(\.name)))")

        let run = try await CLIProcess.run(
            ["serve", "--exec", "echo $LIMITED_LOGIN_URL; curl -s \"$LIMITED_LOGIN_URL/.well-known/openid-configuration\" >/dev/null 2>&1; exit 0"],
            environment: [
                "LIMITED_LOGIN_PORT": "0", "LIMITED_LOGIN_DATABASE": ":memory:", "LIMITED_LOGIN_ISSUER": "https://issuer.example",
                "LIMITED_LOGIN_NO_DEMO_DATA": "true",
            ]
        )
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("issuer:     https://issuer.example"), "\(run.error)")
        #expect(!run.error.contains("First start"), "LIMITED_LOGIN_NO_DEMO_DATA=true")
        let flagWins = try await CLIProcess.run(
            ["serve", "--port", "0", "--issuer", "https://flag.example", "--exec", "true"],
            environment: ["LIMITED_LOGIN_DATABASE": ":memory:", "LIMITED_LOGIN_ISSUER": "https://issuer.example"]
        )
        #expect(flagWins.error.contains("issuer:     https://flag.example"))
        let badFlag = try await CLIProcess.run(["serve"], environment: ["LIMITED_LOGIN_NO_DEMO_DATA": "maybe"])
        #expect(badFlag.status == 64 && badFlag.error == "limited-login serve: LIMITED_LOGIN_NO_DEMO_DATA must be true or false, not \"maybe\"\n")
        let badPort = try await CLIProcess.run(["serve"], environment: ["LIMITED_LOGIN_PORT": "abc"])
        #expect(badPort.status == 64 && badPort.error.contains("The value 'abc' is invalid for '--port <port>'"))
        let badLifetime = try await CLIProcess.run(["serve"], environment: ["LIMITED_LOGIN_ID_TOKEN_LIFETIME": "0"])
        #expect(
            badLifetime.status == 64 && badLifetime.error.contains("--id-token-lifetime must be a number of seconds from 1 to 316224000 (ten years).")
        )
    }

    @Test("export and --fixtures round-trip the state: same IDs, app-scoped IDs, grants and keys; reset re-seeds, reset --empty stays empty")
    func exportRoundTrip() async throws {
        // One issuer for both starts (by default it is the base URL, whose port changes).
        let issuer = ["--issuer", "http://issuer.test"]
        let (exported, token, asid) = try await withServer(issuer) { server, environment, directory in
            let login = try await CLIProcess.run(
                [
                    "login", "--app-id", "1000000000000001", "--tracking", "limited", "--permissions", "email", "--as", "bob@example.com",
                    "--state-file", directory.appendingPathComponent("s.json").path, "--nonce", "round-trip", "--json",
                ], environment: environment
            )
            let result = try json(login.output)
            let token = try #require(result["authentication_token"]?.objectValue?["token"]?.stringValue)
            let asid = try #require(result["profile"]?.objectValue?["user_id"]?.stringValue)
            let export = try await CLIProcess.run(["export", "--include-keys"], environment: environment)
            #expect(export.status == 0, "\(export.error)")
            return (export.output, token, asid)
        }
        let document = try json(exported)
        #expect(document["app_scoped_ids"]?.arrayValue?.contains { $0.objectValue?["asid"]?.stringValue == asid } == true)
        #expect(document["grants"]?.arrayValue?.count == 1)
        #expect(document["signing_keys"]?.arrayValue?.count == 1)
        #expect(!exported.contains("\"password\""), "passwords leave only as hashes")

        let directory = try folder()
        let fixtures = directory.appendingPathComponent("state.json")
        try exported.write(to: fixtures, atomically: true, encoding: .utf8)
        try await withServer(issuer + ["--fixtures", fixtures.path]) { server, environment, _ in
            #expect(!server.output.contains("First start"))
            // The old token still verifies (same key), and a new login of bob gets the same sub without consent.
            let verified = try await CLIProcess.run(
                [
                    "verify", "--app-id", "1000000000000001", "--nonce", "round-trip", "--jwks-url",
                    server.baseURL + "/.well-known/oauth/openid/jwks",
                    "--issuer", "http://issuer.test", token,
                ],
                environment: environment
            )
            #expect(verified.status == 0, "\(verified.output)")
            let minted = try await CLIProcess.run(
                ["token", "--app-id", "1000000000000001", "--user", "bob@example.com", "--json"], environment: environment)
            #expect(try json(minted.output)["claims"]?.objectValue?["sub"]?.stringValue == asid)
            let again = try await CLIProcess.run(["export", "--include-keys"], environment: environment)
            #expect(try json(again.output)["app_scoped_ids"] == document["app_scoped_ids"])
            #expect(try json(again.output)["users"] == document["users"])

            let emptied = try await CLIProcess.run(["reset", "--empty"], environment: environment)
            #expect(
                emptied.status == 0 && emptied.output == "reset: the provider is empty\n",
                "exit \(emptied.status): \(emptied.error)\nserver: \(server.output.suffix(1500))")
            let empty = try await CLIProcess.run(["export"], environment: environment)
            #expect(try json(empty.output) == ["app_scoped_ids": [], "apps": [], "emptied": true, "grants": [], "users": []])
            let seeded = try await CLIProcess.run(["reset"], environment: environment)
            #expect(
                seeded.status == 0 && seeded.output == "reset: the demo app and test users are back\n",
                "exit \(seeded.status): \(seeded.error)\nserver: \(server.output.suffix(1500))")
        }
    }

    @Test("after reset --empty a restart seeds nothing and does not claim a first start; after reset it keeps the demo data")
    func resetAcrossRestarts() async throws {
        let directory = try folder()
        let database = directory.appendingPathComponent("p.sqlite").path
        let arguments = ["--port", "0", "--database", database, "--admin-token", adminToken]
        let first = try await ServerProcess.start(arguments, directory: directory)
        #expect(first.output.contains("First start"))
        let environment = ["LIMITED_LOGIN_PROVIDER": first.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken]
        let reset = try await CLIProcess.run(["reset"], environment: environment)
        #expect(reset.status == 0, "\(reset.error)")
        await first.stop()
        let second = try await ServerProcess.start(arguments, directory: directory)
        #expect(!second.output.contains("First start") && second.output.contains("app Demo App"))
        let emptied = try await CLIProcess.run(
            ["reset", "--empty"], environment: ["LIMITED_LOGIN_PROVIDER": second.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken])
        #expect(emptied.status == 0, "\(emptied.error)")
        await second.stop()
        let third = try await ServerProcess.start(arguments, directory: directory)
        #expect(!third.output.contains("First start") && !third.output.contains("app Demo App"), "\(third.output)")
        await third.stop()
    }
}
