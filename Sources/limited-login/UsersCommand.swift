import ArgumentParser
import Foundation
import LimitedLoginJOSE
import LimitedLoginProvider
import NIOHTTP1

/// `limited-login users`: a running provider's test users, through its admin API.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, create or delete a running provider's test users (through its admin API).",
        subcommands: [List.self, Create.self, Delete.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the test users and their friends.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/users", method: .GET) {
                AdminOutput.table($0, listKey: "users", columns: AdminOutput.users, empty: "No test users.")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a test user.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Option(help: "The user ID (default: a random one).") var id: String?
        @Option(name: .customLong("first-name"), help: "First name.") var firstName: String
        @Option(name: .customLong("middle-name"), help: "Middle name.") var middleName: String?
        @Option(name: .customLong("last-name"), help: "Last name.") var lastName: String
        @Option(help: "Email (the sign-in name).") var email: String
        @Option(help: "Password for the sign-in page.") var password: String
        @Option(help: "Birthday, MM/DD/YYYY.") var birthday: String?
        @Option(help: "Gender.") var gender: String?
        @Option(help: "Profile link.") var link: String?
        @Option(name: .customLong("friend"), help: "The ID or email of an existing user to befriend (repeat for several).") var friends: [String] = []
        @Option(
            name: .customLong("app"),
            help: "The ID of an app the user is a test user of (repeat for several; default: every app the provider holds now).")
        var apps: [String] = []

        func run() async throws {
            // The admin API's shape for a new user is the fixtures file's (ProviderFixtures.User), sent as it encodes.
            var user = ProviderFixtures.User(
                id: id, firstName: firstName, middleName: middleName, lastName: lastName, email: email, password: password,
                birthday: birthday, gender: gender, link: link, friends: friends
            )
            if !apps.isEmpty { user.apps = apps }
            try await AdminRequest.run(connection, output, path: "/_admin/users", method: .POST, body: try .model(user)) {
                "Created test user \($0.objectValue?["id"]?.stringValue ?? "?") (\(email)).\n" + AdminOutput.fields($0)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a test user with their friendships, grants and sessions.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @Argument(help: "The user: an ID or an email.") var id: String
        func run() async throws {
            let path = "/_admin/users/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id)
            try await AdminRequest.run(connection, output, path: path, method: .DELETE) { answer in
                "Deleted test user \(answer.objectValue?["id"]?.stringValue ?? id) with their friendships, grants and sessions."
            }
        }
    }
}

/// `limited-login friends`: friendships between test users.
struct FriendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friends",
        abstract: "Make two test users friends, or not (through the admin API).",
        subcommands: [Add.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Make two users friends.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @OptionGroup var pair: FriendPair
        func run() async throws { try await pair.send(.POST, connection, output) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "End a friendship.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat
        @OptionGroup var pair: FriendPair
        func run() async throws { try await pair.send(.DELETE, connection, output) }
    }

    /// The two users of a friendship, and the admin call that makes or ends it.
    struct FriendPair: ParsableArguments {
        @Argument(help: "A test user's ID or email.") var user: String
        @Argument(help: "Another test user's ID or email.") var friend: String

        func send(_ method: HTTPMethod, _ connection: AdminConnection, _ output: AdminOutputFormat) async throws {
            try await AdminRequest.run(
                connection, output, path: "/_admin/friendships", method: method,
                body: .json(.object(["user_id": .string(user), "friend_id": .string(friend)]))
            ) { _ in
                method == .POST ? "\(user) and \(friend) are friends." : "\(user) and \(friend) are no longer friends."
            }
        }
    }
}
