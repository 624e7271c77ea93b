import Foundation
import LimitedLoginJOSE
import Testing

/// Issue #30 item 1, as a CI uses the CLI: `clock advance -1h` moves the clock back (it printed the help and
/// exited 0); a forward move after a mint and a reset is taken; `verify --at provider` checks a token minted
/// after an advance at the provider's time (it was "issued in the future" to `verify`).
@Suite("CLI: clock moves and verify --at")
struct ClockCommandTests {
    private static let adminToken = "clock-cli-admin-token"

    @Test("advance -1h, a forward move after a reset, verify --at provider and --at a time")
    func clockAndVerifyAt() async throws {
        let directory = try temporaryFolder("limited-login-clock")
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--admin-token", Self.adminToken], directory: directory)
        defer { Task { await server.stop() } }
        let environment = ["LIMITED_LOGIN_PROVIDER": server.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": Self.adminToken]

        let back = try await CLIProcess.run(["clock", "advance", "-1h"], environment: environment)
        #expect(back.status == 0, "\(back.error)")
        #expect(back.output.hasPrefix("provider time: ") && back.output.contains("offset -3600 s from the system's"), "\(back.output)")
        let backWithOption = try await CLIProcess.run(["clock", "advance", "-30m", "--provider", server.baseURL], environment: environment)
        #expect(backWithOption.status == 0 && backWithOption.output.contains("offset -5400 s"), "\(backWithOption.output) \(backWithOption.error)")
        #expect(try await CLIProcess.run(["clock", "reset"], environment: environment).status == 0)

        #expect(try await CLIProcess.run(["clock", "advance", "2h"], environment: environment).status == 0)
        let minted = try await CLIProcess.run(
            ["token", "--app-id", "1000000000000001", "--user", "alice@example.com", "--nonce", "n-1"], environment: environment)
        #expect(minted.status == 0, "\(minted.error)")
        let token = minted.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let discovery = server.baseURL + "/.well-known/openid-configuration"

        let now = try await CLIProcess.run(["verify", token, "--app-id", "1000000000000001", "--nonce", "n-1", "--discovery-url", discovery])
        #expect(now.status == 1 && now.error.hasPrefix("invalid: "), "at the system's time the token is from the future: \(now.error)")
        let atProvider = try await CLIProcess.run(
            ["verify", token, "--app-id", "1000000000000001", "--nonce", "n-1", "--discovery-url", discovery, "--at", "provider"],
            environment: environment
        )
        #expect(atProvider.status == 0, "\(atProvider.error)")
        let iat = try #require(
            try StrictJSONParser().parse(Array(try Base64URL.decode(String(token.split(separator: ".")[1])))).objectValue?["iat"]?.integerValue)
        let atTime = try await CLIProcess.run([
            "verify", token, "--app-id", "1000000000000001", "--nonce", "n-1", "--discovery-url", discovery, "--at", String(iat + 10),
        ])
        #expect(atTime.status == 0, "\(atTime.error)")
        let badAt = try await CLIProcess.run([
            "verify", token, "--app-id", "1000000000000001", "--nonce", "n-1", "--discovery-url", discovery, "--at", "soon",
        ])
        #expect(badAt.status == 64)
        #expect(
            badAt.error
                == "limited-login verify: --at must be seconds since 1970, an ISO 8601 time such as 2030-01-01T00:00:00Z, or provider; got \"soon\"\n"
        )

        // A headless login after the move: the ID token is checked at the provider's time (it was "issued in the
        // future" at the system's), with the admin token the environment gives.
        let stateFile = directory.appendingPathComponent("session.json").path
        let login = try await CLIProcess.run(
            ["login", "--app-id", "1000000000000001", "--as", "alice@example.com", "--permissions", "email", "--state-file", stateFile, "--json"],
            environment: environment)
        #expect(login.status == 0, "\(login.error)")
        let session = try #require(try StrictJSONParser().parse(Array(login.output.utf8)).objectValue, "\(login.output)")
        #expect(session["profile"]?.objectValue?["email"] == "alice@example.com", "\(session)")

        // Back to the system's time, then forward by less than the advance: never refused.
        #expect(try await CLIProcess.run(["clock", "reset"], environment: environment).status == 0)
        let forward = try await CLIProcess.run(["clock", "advance", "11m"], environment: environment)
        #expect(forward.status == 0, "\(forward.error)")
    }
}
