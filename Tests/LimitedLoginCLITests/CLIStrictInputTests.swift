import Foundation
import LimitedLoginJOSE
import Testing

/// Issue #30 item 4 and issue #31 items 2 and 5: every CLI mistake is reported first for what it is; output
/// paths are checked at start; files holding secrets are the owner's alone from their first byte.
@Suite("CLI: strict input, private files")
struct CLIStrictInputTests {
    private static let adminToken = "strict-input-admin-token"

    private static func folder() throws -> URL { try temporaryFolder("limited-login-strict") }

    private static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a misspelt option is named first (it was reported as a missing nonce choice), with the closest one")
    func unknownOptionFirst() async throws {
        let verify = try await CLIProcess.run(["verify", "a.b.c", "--app-id", "1", "--nonse", "n"])
        #expect(verify.status == 64)
        #expect(
            verify.error == "Error: unknown option '--nonse' for limited-login verify. Did you mean '--nonce'? See 'limited-login verify --help'.\n")
        let far = try await CLIProcess.run(["token", "--app-id", "1", "--user", "a", "--colour", "red"])
        #expect(far.status == 64)
        #expect(far.error == "Error: unknown option '--colour' for limited-login token. See 'limited-login token --help'.\n")
        // A value that looks like an option after -- is not an option.
        let known = try await CLIProcess.run(["decode", "--", "--not-an-option"])
        #expect(!known.error.contains("unknown option"), "\(known.error)")
    }

    @Test("login refuses a permission Facebook Login does not know, in a classic login too; --json says why on standard output")
    func unknownPermission() async throws {
        let classic = try await CLIProcess.run(["login", "--app-id", "1", "--tracking", "enabled", "--permissions", "email,emial", "--json"])
        #expect(classic.status == 64)
        #expect(classic.error == "error: \"emial\" is not a permission Facebook Login knows (did you mean email?)\n")
        let answer = try #require(try StrictJSONParser().parse(Array(classic.output.utf8)).objectValue?["error"]?.objectValue)
        #expect(answer["code"] == "unknown_permission")
        #expect(answer["message"] == "error: \"emial\" is not a permission Facebook Login knows (did you mean email?)")
        let down = try await CLIProcess.run(["login", "--app-id", "1", "--provider", "http://127.0.0.1:1", "--no-browser", "--json"])
        #expect(down.status == 1)
        #expect(try StrictJSONParser().parse(Array(down.output.utf8)).objectValue?["error"]?.objectValue?["code"] == "login_failed", "\(down.output)")
    }

    @Test("serve checks --ready-file, --export-on-exit and --ca-file at start: a folder, a missing folder (one line, status 73, nothing deleted)")
    func outputPathsCheckedAtStart() async throws {
        let folder = try Self.folder()
        let keep = folder.appendingPathComponent("keep.txt")
        try Data("kept".utf8).write(to: keep)
        let intoFolder = try await CLIProcess.run(["serve", "--port", "0", "--database", ":memory:", "--ready-file", folder.path, "--exec", "true"])
        #expect(intoFolder.status == 73)
        #expect(intoFolder.error == "limited-login serve: --ready-file \(folder.path) is a folder; give a file's path.\n")
        #expect(FileManager.default.fileExists(atPath: keep.path), "the folder was left alone (it used to be deleted)")
        let missing = try await CLIProcess.run([
            "serve", "--port", "0", "--database", ":memory:", "--export-on-exit", "/nonexistent-\(UUID().uuidString)/state.json", "--exec", "true",
        ])
        #expect(missing.status == 73)
        #expect(
            missing.error.hasPrefix("limited-login serve: --export-on-exit /nonexistent-") && missing.error.contains(": the folder /nonexistent-"),
            "\(missing.error)")
        #expect(missing.output.isEmpty)
    }

    @Test(
        "the store, its -wal and -shm, the ready file and the export are created 0600 whatever the umask; a planted link is replaced, not written through"
    )
    func privateFiles() async throws {
        let folder = try Self.folder()
        let database = folder.appendingPathComponent("store.sqlite").path
        let ready = folder.appendingPathComponent("ready.json").path
        let export = folder.appendingPathComponent("state.json").path
        let target = folder.appendingPathComponent("elsewhere.txt")
        try Data("not for the admin token".utf8).write(to: target)
        // On the export's path: the ready file's is removed at start, so a link there never reaches the write.
        try FileManager.default.createSymbolicLink(atPath: export, withDestinationPath: target.path)
        let run = try await CLIProcess.run([
            "serve", "--port", "0", "--database", database, "--ready-file", ready, "--export-on-exit", export,
            "--exec", "umask; stat -c %a '\(database)' '\(database)-wal' '\(database)-shm' '\(ready)'",
        ])
        #expect(run.status == 0, "\(run.error)")
        // While the provider runs: what it made is 0600 whatever the umask (the suite's is usually 022).
        #expect(run.output.split(separator: "\n").dropFirst() == ["600", "600", "600", "600"], "umask, then modes: \(run.output)")
        for path in [database, database + "-wal", database + "-shm", ready, export] where FileManager.default.fileExists(atPath: path) {
            let mode = try Self.mode(path)
            #expect(mode == 0o600, "\(path) is \(String(mode, radix: 8))")
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "not for the admin token", "the link's target was not written")
        #expect(!FileManager.default.fileExists(atPath: ready), "the ready file goes when serve stops")
        let attributes = try FileManager.default.attributesOfItem(atPath: export)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the link was replaced by the file")
    }

    @Test("users delete and users edit take an email as they take an ID")
    func emailsForUsers() async throws {
        let folder = try Self.folder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--admin-token", Self.adminToken], directory: folder)
        defer { Task { await server.stop() } }
        let environment = ["LIMITED_LOGIN_PROVIDER": server.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": Self.adminToken]
        let deleted = try await CLIProcess.run(["users", "delete", "carol@example.com"], environment: environment)
        #expect(deleted.status == 0, "\(deleted.error)")
        #expect(
            deleted.output.hasPrefix("Deleted test user ") && !deleted.output.contains("carol@example.com"),
            "the answer names the ID: \(deleted.output)")
        let again = try await CLIProcess.run(["users", "delete", "carol@example.com"], environment: environment)
        #expect(again.status == 1)
        #expect(again.error == "limited-login: the provider refused: No test user with ID or email carol@example.com.\n")
    }

    @Test("token --subject mints for a sub no stored user has; --user and --subject together are refused")
    func tokenForASubject() async throws {
        let folder = try Self.folder()
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--admin-token", Self.adminToken], directory: folder)
        defer { Task { await server.stop() } }
        let environment = ["LIMITED_LOGIN_PROVIDER": server.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": Self.adminToken]
        let minted = try await CLIProcess.run(["token", "--app-id", "1000000000000001", "--subject", "zed-42", "--json"], environment: environment)
        #expect(minted.status == 0, "\(minted.error)")
        #expect(minted.output.contains(#""sub" : "zed-42""#) || minted.output.contains(#""sub": "zed-42""#), "\(minted.output)")
        let both = try await CLIProcess.run(
            ["token", "--app-id", "1000000000000001", "--subject", "zed-42", "--user", "alice@example.com"], environment: environment)
        #expect(both.status == 64)
        #expect(both.error.contains("Give --user or --subject, not both."), "\(both.error)")
    }
}
