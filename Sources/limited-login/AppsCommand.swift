import ArgumentParser
import LimitedLoginJOSE
import LimitedLoginProvider

/// `limited-login apps`: a running provider's apps, through its admin API.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List, create, delete or move a running provider's apps, or give people roles on them (through its admin API).",
        subcommands: [List.self, Create.self, Delete.self, Move.self, Role.self, TestUser.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the apps with their secrets and redirect URIs.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/apps", method: .GET) {
                AdminOutput.table($0, listKey: "apps", columns: AdminOutput.apps, empty: "No apps.")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Register an app.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Option(help: "The app ID (digits).") var id: String
        @Option(help: "The name shown on the consent page.") var name: String
        @Option(help: "The app secret (default: a random one).") var secret: String?
        @Option(name: .customLong("redirect-uri"), help: "A redirect URI to allow (repeat for several).") var redirectURIs: [String] = []
        @Option(name: .customLong("business-id"), help: "The business the app belongs to (token_for_business).") var businessID: String?
        @Option(
            name: .customLong("url-scheme-suffix"), help: "An iOS URL-scheme suffix to allow: fb{app-id}{suffix}://authorize/ (repeat for several).")
        var urlSchemeSuffixes: [String] = []
        @Flag(name: .customLong("require-appsecret-proof"), help: "Require App Secret: Graph calls with a person's token must carry appsecret_proof.")
        var requireAppSecretProof = false
        @Option(name: .customLong("deauthorize-callback-url"), help: "Where a signed_request is posted when a person removes the app.")
        var deauthorizeCallbackURL: String?
        @Option(
            name: .customLong("data-deletion-callback-url"),
            help: "Where a signed_request is posted when a person asks for their data to be deleted (the app answers {url, confirmation_code}).")
        var dataDeletionCallbackURL: String?
        @Option(help: "live (default: every test user can log in) or development (only people given a role with 'apps role').")
        var mode: String?

        func validate() throws {
            if let mode, mode != "live", mode != "development" { throw ValidationError("--mode must be live or development.") }
        }

        func run() async throws {
            // The admin API's shape for a new app is the fixtures file's (ProviderFixtures.App), sent as it encodes.
            let app = ProviderFixtures.App(
                id: id, secret: secret, name: name, redirectURIs: redirectURIs, businessID: businessID,
                urlSchemeSuffixes: urlSchemeSuffixes.isEmpty ? nil : urlSchemeSuffixes, requireAppSecretProof: requireAppSecretProof ? true : nil,
                deauthorizeCallbackURL: deauthorizeCallbackURL, dataDeletionCallbackURL: dataDeletionCallbackURL, mode: mode
            )
            try await AdminRequest.run(connection, output, path: "/_admin/apps", method: .POST, body: try .model(app)) {
                "Created app \(id).\n" + AdminOutput.fields($0)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an app with its grants and tokens.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Argument(help: "The app ID.") var id: String
        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/apps/\(id)", method: .DELETE) { _ in
                "Deleted app \(id) with its grants and tokens."
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move an app to another business (or to none).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Argument(help: "The app ID.") var id: String
        @Option(name: .customLong("business-id"), help: "The new business; leave out for none.") var businessID: String?
        func run() async throws {
            let body: JSONValue = .object(["business_id": businessID.map { .string($0) } ?? .null])
            try await AdminRequest.run(connection, output, path: "/_admin/apps/\(id)/business", method: .POST, body: .json(body)) {
                "Moved app \(id) to \(businessID.map { "business \($0)" } ?? "no business").\n" + AdminOutput.fields($0)
            }
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "role",
            abstract:
                "Give a test user a role on an app (admin, developer or tester), or take it away with --remove: an app in Development mode lets in only people with a role."
        )
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Argument(help: "The app ID.") var id: String
        @Argument(help: "The test user's ID or email.") var user: String
        @Argument(help: "admin, developer or tester (leave out with --remove).") var role: String?
        @Flag(help: "Take the user's role away.") var remove = false

        func validate() throws {
            if remove, role != nil { throw ValidationError("Give a role or --remove, not both.") }
            if !remove {
                guard let role else { throw ValidationError("Give the role (admin, developer or tester), or --remove.") }
                guard ["admin", "developer", "tester"].contains(role) else { throw ValidationError("The role must be admin, developer or tester.") }
            }
        }

        func run() async throws {
            let path = AppsCommand.path(app: id, "roles", user: user)
            if remove {
                try await AdminRequest.run(connection, output, path: path, method: .DELETE) { _ in "Took \(user)'s role on app \(id) away." }
            } else {
                try await AdminRequest.run(connection, output, path: path, method: .PUT, body: .json(.object(["role": .string(role ?? "")]))) { _ in
                    "\(user) is now \(role ?? "") of app \(id)."
                }
            }
        }
    }

    struct TestUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test-user",
            abstract:
                "Make an existing test user one of an app's test users, or take them off with --remove: a new app has none, and its sign-in page offers only its own test users and the people with a role on it."
        )
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Argument(help: "The app ID.") var id: String
        @Argument(help: "The test user's ID or email.") var user: String
        @Flag(help: "Take the user off the app's test users (the user and their other apps stay).") var remove = false

        func run() async throws {
            let path = AppsCommand.path(app: id, "test-users", user: user)
            if remove {
                try await AdminRequest.run(connection, output, path: path, method: .DELETE) { _ in "\(user) is no longer a test user of app \(id)." }
            } else {
                try await AdminRequest.run(connection, output, path: path, method: .PUT) { _ in "\(user) is a test user of app \(id)." }
            }
        }
    }

    /// `/_admin/apps/{app}/{collection}/{user}`, the user (an ID or an email) percent-encoded as one path segment.
    static func path(app: String, _ collection: String, user: String) -> String {
        "/_admin/apps/\(app)/\(collection)/" + (user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? user)
    }
}
