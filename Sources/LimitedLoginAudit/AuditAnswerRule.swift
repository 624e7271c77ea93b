import LimitedLoginJOSE

/// What the backend's answer means: accepted, refused, or neither (a status in neither set).
package enum AuditOutcome: String, Sendable {
    case accepted, refused
    /// A status that is neither accepted nor refused (a 500, a redirect).
    case other
    /// No answer at all (the connection closed, the request timed out).
    case noAnswer = "no-answer"
    case notRun = "not-run"
}

/// `--accepted`, `--refused` and `--accepted-pointer`: how an answer is read.
package struct AuditAnswerRule: Sendable {
    package let accepted: StatusSet
    package let refused: StatusSet
    /// With a pointer, an answer with an accepted status is accepted only when its JSON body has the
    /// pointer (equal to `value` when given; otherwise present and neither null nor false).
    package let pointer: (path: [String], value: JSONValue?)?

    package init(accepted: String, refused: String, pointer: String?) throws(AuditUsageError) {
        let acceptedSet = try StatusSet(accepted, option: "--accepted")
        let refusedSet = try StatusSet(refused, option: "--refused")
        self.accepted = acceptedSet
        self.refused = refusedSet
        if let overlap = (100...599).first(where: { acceptedSet.contains($0) && refusedSet.contains($0) }) {
            throw AuditUsageError("--accepted and --refused both hold \(overlap); a status can mean one of them only.")
        }
        if let pointer {
            var path = pointer
            var value: JSONValue?
            if let equals = pointer.firstIndex(of: "=") {
                path = String(pointer[..<equals])
                let text = String(pointer[pointer.index(after: equals)...])
                value = (try? StrictJSONParser().parse(Array(text.utf8))) ?? .string(text)
            }
            guard path.isEmpty || path.hasPrefix("/") else {
                throw AuditUsageError("--accepted-pointer must be a JSON pointer such as /user/id or /ok=true; got \"\(pointer)\"")
            }
            let tokens =
                path.isEmpty
                ? []
                : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
                    $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                }
            self.pointer = (tokens, value)
        } else {
            self.pointer = nil
        }
    }

    /// The outcome of an answer with `status` and `body`. 429 (Too Many Requests) is never a refusal: it says
    /// nothing about the token, and a backend that accepts every token but rate-limits would otherwise pass.
    package func outcome(status: Int, body: [UInt8]) -> AuditOutcome {
        if status == 429 { return .other }
        if refused.contains(status) { return .refused }
        guard accepted.contains(status) else { return .other }
        guard let pointer else { return .accepted }
        guard let document = try? StrictJSONParser().parse(body), let found = Self.resolve(pointer.path, in: document) else { return .refused }
        if let value = pointer.value { return found == value ? .accepted : .refused }
        switch found {
        case .null, .bool(false): return .refused
        default: return .accepted
        }
    }

    package static func resolve(_ path: [String], in value: JSONValue) -> JSONValue? {
        var current = value
        for token in path {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(token), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}

/// A set of HTTP statuses written `2xx`, `200,201`, `400-403` or a mix: `2xx,302`.
package struct StatusSet: Sendable {
    package let ranges: [ClosedRange<Int>]

    package init(_ text: String, option: String) throws(AuditUsageError) {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            if part.count == 3, part.hasSuffix("xx"), let hundred = Int(part.prefix(1)), (1...5).contains(hundred) {
                ranges.append(hundred * 100...hundred * 100 + 99)
            } else if let dash = part.firstIndex(of: "-"), let low = Int(part[..<dash]), let high = Int(part[part.index(after: dash)...]),
                (100...599).contains(low), (low...599).contains(high)
            {
                ranges.append(low...high)
            } else if let code = Int(part), (100...599).contains(code) {
                ranges.append(code...code)
            } else {
                throw AuditUsageError("\(option) must list HTTP statuses such as 2xx, 200,201 or 400-403; got \"\(text)\"")
            }
        }
        guard !ranges.isEmpty else { throw AuditUsageError("\(option) names no status.") }
        self.ranges = ranges
    }

    package func contains(_ status: Int) -> Bool { ranges.contains { $0.contains(status) } }
}
