import ArgumentParser
import Foundation
import LimitedLoginCore
import LimitedLoginProvider

@main
struct LimitedLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limited-login",
        abstract: "Facebook Limited Login, open: run a provider, log in, verify and decode ID tokens.",
        discussion: """
            Tokens can be given as an argument or on standard input (use '-' or leave it out).

            Examples:
              limited-login serve
              limited-login serve --port 9000 --database /tmp/ll.sqlite --fixtures fixtures.json
              limited-login keys rotate --provider http://127.0.0.1:8080 --admin-token "$ADMIN" --publish-delay 0
              limited-login login --app-id 1000000000000001 --tracking limited --permissions email,user_friends
              limited-login whoami
              limited-login logout
              limited-login verify "$TOKEN" --app-id 1234 --nonce abc
              limited-login verify --app-id 1234 --raw-nonce secret --discovery-url http://127.0.0.1:8080/.well-known/openid-configuration < token.txt
              limited-login decode "$TOKEN"
              limited-login health --provider http://127.0.0.1:8080 --wait 30
            """,
        version: "limited-login \(ProjectVersion.current)",
        subcommands: [
            ServeCommand.self, LoginCommand.self, WhoamiCommand.self, LogoutCommand.self, AppsCommand.self, UsersCommand.self, FriendsCommand.self,
            KeysCommand.self, VerifyCommand.self,
            DecodeCommand.self, TokenCommand.self, AuditCommand.self, ScenarioCommand.self, ClockCommand.self,
            ExportCommand.self, ResetCommand.self, CACommand.self, HealthCommand.self, CredentialsCommand.self, AdminLogCommand.self,
        ]
    )

    /// Adds `serve` options given as `LIMITED_LOGIN_*` variables, then runs the command line.
    static func main() async {
        StandardStreams.ignoreBrokenPipes()
        let arguments: [String]
        do {
            arguments = try ServeEnvironment.arguments(
                Array(CommandLine.arguments.dropFirst()), environment: { getenv($0).map { String(cString: $0) } })
        } catch {
            printErrorLine("limited-login serve: \(error.description)")
            Foundation.exit(64)
        }
        let commandLine = ClockCommand.negativeAmountBehindTerminator(arguments)
        // Parsed once, and run as swift-argument-parser's own `main` would. A command line the parser refuses
        // (not `--help` or `--version`, which end parsing on purpose): an option the command does not have
        // is named first. (The description of every command that takes is read only then: it was a third
        // of the time of every `--version`, docs/PERFORMANCE.md, "Start".)
        var command: any ParsableCommand
        do {
            if let serve = parseServeAlone(commandLine) { command = serve } else { command = try parseAsRoot(commandLine) }
        } catch {
            if exitCode(for: error) != .success, let unknown = UnknownOption.first(in: commandLine) {
                printErrorLine(unknown.message)
                Foundation.exit(64)
            }
            exit(withError: error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// `serve`'s options parsed with `serve` as the root command, when the parser takes them: the root's tree
    /// of commands is then never walked, 0.7 ms of every provider's start (docs/PERFORMANCE.md, "Start").
    /// Nil for anything else, and for a `serve` command line that parse refuses (`--help`, `--version`, a
    /// mistake): that is parsed again from the root, so help, the version and errors read as they always have.
    static func parseServeAlone(_ commandLine: [String]) -> (any ParsableCommand)? {
        guard commandLine.first == "serve" else { return nil }
        // `serve`'s own help, version and errors would name it as a command of its own; none is shown.
        return (try? ServeCommand.parseAsRoot(Array(commandLine.dropFirst()))) as? ServeCommand
    }
}
