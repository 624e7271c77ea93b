import ArgumentParser
import LimitedLoginCore
import LimitedLoginJOSE

/// `limited-login scenario`: queue what the next dialogs of a running provider do.
struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "Queue what the next login dialogs for an app do (cancel, an error, or other profile claims); each is used once, in order.",
        discussion: """
            Examples:
              limited-login scenario add --app-id 1000000000000001 --cancel
              limited-login scenario add --app-id 1000000000000001 --error "Service temporarily unavailable" --code 2
              limited-login scenario add --app-id 1000000000000001 --user bob@example.com --claims '{"email":"other@example.com"}'
              limited-login scenario list
              limited-login scenario clear
              limited-login scenario fault --endpoint keys --status 500 --count 3     # the key endpoints fail (see 'scenario fault --help')
            """,
        subcommands: [Add.self, List.self, Clear.self, Fault.self, Faults.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Queue one outcome: --cancel, --error MESSAGE, or --claims JSON.")
        @Option(name: .customLong("app-id"), help: "The app whose next dialog it decides.")
        var appID: String
        @Option(help: "Only for this test user (ID or email); default: whoever signs in.")
        var user: String?
        @Flag(help: "The dialog answers as if the person pressed Cancel.")
        var cancel = false
        @Option(help: "The dialog answers with this error message.")
        var error: String?
        @Option(help: "The error_code of --error (default 1).")
        var code: Int?
        @Option(help: "A JSON object of profile claims replaced in the ID token, e.g. '{\"email\":\"x@example.com\"}'.")
        var claims: String?
        @OptionGroup var connection: AdminConnection

        func validate() throws {
            guard [cancel, error != nil, claims != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("Give exactly one of --cancel, --error MESSAGE or --claims JSON.")
            }
            if code != nil, error == nil { throw ValidationError("--code goes with --error.") }
        }

        func run() async throws {
            var body: JSONObject = ["app_id": .string(appID)]
            if let user { body["user"] = .string(user) }
            if cancel { body["outcome"] = "cancel" }
            if let error {
                body["outcome"] = "error"
                body["message"] = .string(error)
                if let code { body["code"] = .number(Double(code)) }
            }
            if let claims {
                guard case .object(let object)? = try? StrictJSONParser().parse(Array(claims.utf8)) else {
                    throw CommandFailure.fail(
                        "limited-login scenario add: --claims must be a JSON object, e.g. '{\"email\":\"x@example.com\"}'", code: 64)
                }
                body["outcome"] = "claims"
                body["claims"] = .object(object)
            }
            let answer = try await AdminRequest.send(connection, path: "/_admin/scenarios", method: .POST, body: .json(.object(body)))
            printLine("queued scenario \(answer.objectValue?["id"]?.integerValue.map(String.init) ?? "?") for app \(appID)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the queued scenarios, oldest first.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat

        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/scenarios", method: .GET) {
                AdminOutput.table($0, listKey: "scenarios", columns: AdminOutput.scenarios, empty: "No scenarios are queued.")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every queued scenario (or one app's).")
        @Option(name: .customLong("app-id"), help: "Only this app's.")
        var appID: String?
        @OptionGroup var connection: AdminConnection

        @Flag(help: "Remove the faults set with 'scenario fault' instead.")
        var faults = false

        func validate() throws {
            if faults, appID != nil { throw ValidationError("--faults clears every fault; it takes no --app-id.") }
        }

        func run() async throws {
            if faults {
                let answer = try await AdminRequest.send(connection, path: "/_admin/faults", method: .DELETE)
                printLine("removed \(answer.objectValue?["removed"]?.integerValue ?? 0) fault(s)")
                return
            }
            var query = FormParameters()
            if let appID { query.append("app_id", appID) }
            let path = "/_admin/scenarios" + (appID == nil ? "" : "?" + query.encoded)
            let answer = try await AdminRequest.send(connection, path: path, method: .DELETE)
            printLine("removed \(answer.objectValue?["removed"]?.integerValue ?? 0) scenario(s)")
        }
    }
}
