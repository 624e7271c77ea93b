import ArgumentParser
import Foundation
import LimitedLoginJOSE

/// `limited-login clock`: show or move a running provider's clock, which every expiry follows.
struct ClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "Show or move a running provider's clock (token iat/exp, access and data-access expiry, sessions, codes, key rotation).",
        discussion: """
            Examples:
              limited-login clock advance 3600      # an hour on: ID tokens issued before have expired
              limited-login clock advance 90d       # units: s, m, h, d
              limited-login clock set 2030-01-01T00:00:00Z
              limited-login clock reset             # back to the system's time
              limited-login clock advance -1h       # back an hour
            Moving forward is always allowed. The clock does not go back before a token it issued, unless --force. \
            Whatever the moves, the provider keeps a key to sign with: a key is dropped only once the system's \
            time (where a reset brings the clock) is past its retention.
            """,
        subcommands: [Show.self, Advance.self, Set.self, Reset.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the provider's time and its offset from the system's.")
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            ClockCommand.print(try await AdminRequest.send(connection, path: "/_admin/clock", method: .GET))
        }
    }

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "advance", abstract: "Move the clock on (or back, with a negative amount).")
        @Argument(help: "How far: seconds, or a number with s, m, h or d (e.g. 3600, 90m, 2h, 30d, -1h).")
        var amount: String
        @Flag(help: "Allow going back before a token the provider issued.")
        var force = false
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            guard let seconds = ClockCommand.duration(amount) else {
                throw CommandFailure.fail("limited-login clock advance: \"\(amount)\" is not a duration; e.g. 3600, 90m, 2h or 30d", code: 64)
            }
            try await ClockCommand.post(connection, ["advance": .number(Double(seconds)), "force": .bool(force)])
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set the clock to a time.")
        @Argument(help: "Seconds since 1970, or an ISO 8601 time such as 2030-01-01T00:00:00Z.")
        var time: String
        @Flag(help: "Allow going back before a token the provider issued.")
        var force = false
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            guard let epoch = TimeArgument.epoch(time) else {
                throw CommandFailure.fail(
                    "limited-login clock set: \"\(time)\" is not a time; give seconds since 1970 or e.g. 2030-01-01T00:00:00Z", code: 64)
            }
            try await ClockCommand.post(connection, ["set": .number(Double(epoch)), "force": .bool(force)])
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Back to the system's time.")
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            try await ClockCommand.post(connection, ["reset": true])
        }
    }

    static func post(_ connection: AdminConnection, _ body: JSONObject) async throws {
        print(try await AdminRequest.send(connection, path: "/_admin/clock", method: .POST, body: .json(.object(body))))
    }

    static func print(_ answer: JSONValue) {
        let object = answer.objectValue
        let now = object?["iso8601"]?.stringValue ?? "?"
        let epoch = object?["now"]?.integerValue.map(String.init) ?? "?"
        let offset = object?["offset"]?.integerValue ?? 0
        printLine("provider time: \(now) (\(epoch)), \(offset == 0 ? "the system's time" : "offset \(offset) s from the system's")")
    }

    /// The command line with a negative `clock advance` amount (`-1h`) moved behind `--`, where it is read as
    /// the amount: in place, the argument parser would take `-1h` for the flags `-1` and `-h` (help).
    static func negativeAmountBehindTerminator(_ arguments: [String]) -> [String] {
        guard arguments.count > 2, arguments[0] == "clock", arguments[1] == "advance", !arguments.contains("--"),
            let index = arguments.indices.dropFirst(2).first(where: { isNegativeAmount(arguments[$0]) })
        else { return arguments }
        var result = arguments
        let amount = result.remove(at: index)
        return result + ["--", amount]
    }

    private static func isNegativeAmount(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        return duration(text) != nil
    }

    /// `3600`, `90m`, `2h`, `30d`, `-1h`: seconds.
    static func duration(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let last = text.last, let unit = units[last] {
            return Int64(text.dropLast()).flatMap { $0.multipliedReportingOverflow(by: unit).overflow ? nil : $0 * unit }
        }
        return Int64(text)
    }
}
