import Foundation
import Testing

/// Issue #59 item 2 through the CLI: `limited-login credentials create|list|revoke` and `limited-login log`
/// against a running provider.
@Suite("CLI: scoped admin credentials and the admin log")
struct CredentialsCommandTests {
    @Test("a credential made, used on its app only, listed without its token, revoked; the log names who did what")
    func credentials() async throws {
        let folder = try temporaryFolder("credentials-cli")
        let server = try await ServerProcess.start(
            ["--port", "0", "--database", "teams.sqlite", "--admin-token", "cli-admin-token-1234", "--no-demo-data"], directory: folder)
        let organisation = ["--provider", server.baseURL, "--admin-token", "cli-admin-token-1234"]
        #expect(try await CLIProcess.run(["apps", "create", "--id", "5151", "--name", "Team App"] + organisation).status == 0)
        #expect(try await CLIProcess.run(["apps", "create", "--id", "6161", "--name", "Other App"] + organisation).status == 0)

        let noApp = try await CLIProcess.run(["credentials", "create", "--name", "team one"] + organisation)
        #expect(noApp.status == 64 && noApp.error.contains("Give at least one --app: the apps the credential may manage."), "\(noApp.error)")
        let made = try await CLIProcess.run(["credentials", "create", "--name", "team one", "--app", "5151"] + organisation)
        #expect(made.status == 0, "\(made.error)")
        let lines = made.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Made credential team one for app 5151. Its token, shown only now:", "\(made.output)")
        let token = try #require(lines.last)
        #expect(token.hasPrefix("llc_") && token.count == 47, "\(made.output)")
        let team = ["--provider", server.baseURL, "--admin-token", token]

        let own = try await CLIProcess.run(["apps", "list"] + team)
        #expect(own.status == 0 && own.output.contains("5151") && !own.output.contains("6161"), "\(own.output)")
        let other = try await CLIProcess.run(["apps", "role", "6161", "nobody@example.com", "tester"] + team)
        #expect(other.status == 1)
        #expect(
            other.error
                == "limited-login: the provider refused: App 6161 is not this credential's. The credential team one may touch only app 5151 and their test users.\n",
            "\(other.error)")
        let keys = try await CLIProcess.run(["keys", "list"] + team)
        #expect(keys.status == 1 && keys.error.contains("Only the organisation's admin token may use GET /_admin/keys."), "\(keys.error)")

        let listed = try await CLIProcess.run(["credentials", "list"] + organisation)
        #expect(listed.output.hasPrefix("NAME      APPS  CREATED"), "\(listed.output)")
        #expect(listed.output.contains("team one  5151") && !listed.output.contains(token), "\(listed.output)")
        let revoked = try await CLIProcess.run(["credentials", "revoke", "team one"] + organisation)
        #expect(revoked.status == 0 && revoked.output == "Revoked credential team one.\n", "\(revoked.output) \(revoked.error)")
        let after = try await CLIProcess.run(["apps", "list"] + team)
        #expect(after.status == 1 && after.error == "limited-login: the provider refused: The credential team one was revoked.\n", "\(after.error)")

        let log = try await CLIProcess.run(["log"] + organisation)
        let entries = log.output.split(separator: "\n").map(String.init)
        #expect(entries.first?.hasPrefix("AT") == true && entries.first?.contains("CREDENTIAL") == true, "\(log.output)")
        #expect(entries.count == 5, "a header, two apps, the credential made and revoked: \(log.output)")
        #expect(entries[1].contains("organisation  DELETE /_admin/credentials/{name}  /_admin/credentials/team%20one"), "\(log.output)")
        let json = try await CLIProcess.run(["log", "--json", "--limit", "1"] + organisation)
        #expect(json.output.contains("\"operation\": \"DELETE /_admin/credentials/{name}\""), "\(json.output)")
        let badLimit = try await CLIProcess.run(["log", "--limit", "0"] + organisation)
        #expect(badLimit.status == 64 && badLimit.error.contains("--limit must be from 1 to 10000."), "\(badLimit.error)")
        await server.stop()
    }
}
