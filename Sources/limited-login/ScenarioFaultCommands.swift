import ArgumentParser
import LimitedLoginJOSE

extension ScenarioCommand {
    /// `scenario fault`: make the key endpoints or the Graph API misbehave (`POST /_admin/faults`).
    struct Fault: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fault",
            abstract: "Make the key endpoints (discovery, JWKS, certificates) or the Graph API answer a status, a delay, or a bad document.",
            discussion: """
                The fault lasts for --count requests, for --for seconds, or until 'scenario clear --faults'. It is held by the \
                node that receives it (in memory, like queued scenarios).

                Examples:
                  limited-login scenario fault --endpoint keys --status 500 --count 3
                  limited-login scenario fault --endpoint jwks --delay 15 --for 60          # a key set that hangs
                  limited-login scenario fault --endpoint jwks,certs --answer rotated      # the signing key rotated out
                  limited-login scenario fault --endpoint keys --answer html --for 30
                  limited-login scenario faults
                  limited-login scenario clear --faults
                """
        )
        @Option(
            help: ArgumentHelp("keys (discovery, jwks and certs), discovery, jwks, certs or graph; comma-separated for several.", valueName: "names"))
        var endpoint: String
        @Option(help: "Answer this HTTP status (200 to 599) with a JSON error body.")
        var status: Int?
        @Option(
            help: ArgumentHelp(
                "Answer 200 with: empty (an empty document), html (an error page), malformed (cut-off JSON) or rotated (a key set without the signing key; jwks and certs only).",
                valueName: "kind"))
        var answer: String?
        @Option(help: ArgumentHelp("Wait this many seconds before answering (alone: the usual answer, late).", valueName: "seconds"))
        var delay: Double?
        @Option(help: "Only for the next N requests to those endpoints.")
        var count: Int?
        @Option(name: .customLong("for"), help: ArgumentHelp("Only for this many seconds.", valueName: "seconds"))
        var duration: Double?
        @OptionGroup var connection: AdminConnection

        func validate() throws {
            if status != nil, answer != nil { throw ValidationError("Give --status or --answer, not both.") }
            if status == nil, answer == nil, delay == nil { throw ValidationError("Give --status CODE, --answer KIND or --delay SECONDS.") }
            if count != nil, duration != nil { throw ValidationError("Give --count or --for, not both.") }
        }

        func run() async throws {
            var body: JSONObject = ["endpoints": .string(endpoint)]
            if let status { body["status"] = .number(Double(status)) }
            if let answer { body["answer"] = .string(answer) }
            if let delay { body["delay"] = .number(delay) }
            if let count { body["count"] = .number(Double(count)) }
            if let duration { body["seconds"] = .number(duration) }
            let fault = try await AdminRequest.send(connection, path: "/_admin/faults", method: .POST, body: .json(.object(body)))
            printLine("set fault \(fault.objectValue?["id"]?.integerValue.map(String.init) ?? "?"): " + AdminOutput.faultSummary(fault))
        }
    }

    /// `scenario faults`: the faults held.
    struct Faults: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "faults", abstract: "List the faults held by the provider's node, oldest first.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat

        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/faults", method: .GET) { answer in
                let faults = answer.objectValue?["faults"]?.arrayValue ?? []
                if faults.isEmpty { return "No faults are set." }
                return faults.map { "\($0.objectValue?["id"]?.integerValue ?? 0)  " + AdminOutput.faultSummary($0) }.joined(separator: "\n")
            }
        }
    }
}

extension AdminOutput {
    /// One line for a fault: `jwks,certs: status 500, after 2 s, 3 requests left`.
    static func faultSummary(_ fault: JSONValue) -> String {
        let object = fault.objectValue
        let endpoints = object?["endpoints"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ",") ?? "?"
        var parts: [String] = []
        if let status = object?["status"]?.integerValue { parts.append("status \(status)") }
        if let answer = object?["answer"]?.stringValue { parts.append(answer) }
        if case .number(let delay)? = object?["delay"], delay > 0 { parts.append("after \(delay) s") }
        if let remaining = object?["remaining"]?.integerValue { parts.append("\(remaining) request\(remaining == 1 ? "" : "s") left") }
        if let left = object?["seconds_left"]?.integerValue { parts.append("\(left) s left") }
        if object?["remaining"] == nil, object?["seconds_left"] == nil { parts.append("until cleared") }
        return endpoints + ": " + parts.joined(separator: ", ")
    }
}
