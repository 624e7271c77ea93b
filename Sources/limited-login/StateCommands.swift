import ArgumentParser
import Foundation
import LimitedLoginJOSE

/// `limited-login export`: a running provider's state in the fixtures file's shape.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a running provider's apps, users, friendships, grants and app-scoped IDs as a fixtures file.",
        discussion: """
            'serve --fixtures FILE' loads it back to the same state: the same user IDs, app-scoped IDs (token 'sub's) \
            and grants. Passwords are exported as their hashes. With --include-keys the signing keys (private keys \
            included) come too, so tokens signed before still verify: keep such a file private.

            Example:
              limited-login export --include-keys > state.json
              limited-login serve --database :memory: --fixtures state.json
            """
    )

    @Flag(name: .customLong("include-keys"), help: "Also export the signing keys, with their private keys.")
    var includeKeys = false

    @OptionGroup var connection: AdminConnection

    func run() async throws {
        let answer = try await AdminRequest.send(connection, path: "/_admin/export" + (includeKeys ? "?include_keys=true" : ""), method: .GET)
        printLine(JSONSerializer.prettyPrinted(answer))
    }
}

/// `limited-login reset`: a running provider back to its first-start state, or empty.
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Remove every app, user, friendship, grant, session and app-scoped ID of a running provider, then seed the demo data again.",
        discussion:
            "Signing keys, the admin token and secrets stay. Queued scenarios are cleared. With --empty nothing is seeded, also at the next start."
    )

    @Flag(help: "Leave the provider empty: no demo app or users (also after a restart).")
    var empty = false

    @OptionGroup var connection: AdminConnection

    func run() async throws {
        let answer = try await AdminRequest.send(connection, path: "/_admin/reset", method: .POST, body: .json(.object(["empty": .bool(empty)])))
        let seeded = answer.objectValue?["seeded_demo_data"]?.boolValue == true
        printLine(seeded ? "reset: the demo app and test users are back" : "reset: the provider is empty")
    }
}
