import ArgumentParser
import Foundation
import LimitedLoginJOSE

/// `limited-login credentials`: admin credentials scoped to apps, for the teams sharing one provider.
struct CredentialsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials",
        abstract:
            "Make, list or revoke admin credentials scoped to apps: a team's credential manages only its apps and their test users (needs the organisation's admin token).",
        subcommands: [List.self, Create.self, Revoke.self]
    )

    static let columns = [
        AdminOutput.Column.member("NAME", "name"), .member("APPS", "apps"), .member("CREATED", "created_at"), .member("REVOKED", "revoked_at"),
    ]

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the credentials (their tokens are never shown again).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/credentials", method: .GET) {
                AdminOutput.table($0, listKey: "credentials", columns: CredentialsCommand.columns, empty: "No credentials.")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Make a credential for some apps and print its token, this once (the provider keeps only its hash).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Option(help: "Its name in lists and in the admin log: 1 to 64 letters, digits, spaces, '.', '_' or '-'.") var name: String
        @Option(name: .customLong("app"), help: "An app ID it may manage (repeat for several).") var apps: [String] = []

        func validate() throws {
            if apps.isEmpty { throw ValidationError("Give at least one --app: the apps the credential may manage.") }
        }

        func run() async throws {
            let body: JSONValue = .object(["name": .string(name), "apps": .array(apps.map(JSONValue.string))])
            try await AdminRequest.run(connection, output, path: "/_admin/credentials", method: .POST, body: .json(body)) { answer in
                "Made credential \(name) for app\(apps.count == 1 ? "" : "s") \(apps.joined(separator: ", ")). Its token, shown only now:\n"
                    + (answer.objectValue?["token"]?.stringValue ?? "-")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke a credential: every node refuses its token from the next request on.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Argument(help: "The credential's name.") var name: String
        func run() async throws {
            let segment = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
            try await AdminRequest.run(connection, output, path: "/_admin/credentials/\(segment)", method: .DELETE) { _ in
                "Revoked credential \(name)."
            }
        }
    }
}
