import ArgumentParser
import LimitedLoginJOSE

/// `limited-login log`: the admin log, every write through the admin API and the console.
struct AdminLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract:
            "Show the admin log, newest first: who (credential, or organisation for the admin token) changed what, when, through which node. A scoped credential sees its own writes."
    )
    @OptionGroup var connection: AdminConnection
    @OptionGroup var output: AdminOutputFormat
    @Option(help: "How many entries, from 1 to 10000.") var limit = 100

    func validate() throws {
        if !(1...10_000).contains(limit) { throw ValidationError("--limit must be from 1 to 10000.") }
    }

    func run() async throws {
        let columns = [
            AdminOutput.Column(title: "AT") { entry in
                if case .number(let seconds)? = entry["at"] { AdminOutput.time(seconds) } else { "-" }
            },
            .member("CREDENTIAL", "credential"), .member("OPERATION", "operation"),
            .member("TARGET", "target"), .member("NODE", "node"),
        ]
        try await AdminRequest.run(connection, output, path: "/_admin/log?limit=\(limit)", method: .GET) {
            AdminOutput.table($0, listKey: "entries", columns: columns, empty: "No admin writes recorded.")
        }
    }
}
