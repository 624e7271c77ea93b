import LimitedLoginJOSE

/// How a case came out.
package enum AuditVerdict: String, Sendable {
    /// As expected.
    case ok
    /// A must-refuse token was accepted.
    case hole
    /// A good token was refused.
    case fail
    /// A should-refuse token accepted, or a should-accept token refused.
    case warning
    /// Neither accepted nor refused: a status in neither set, or no answer.
    case unclear
    case notRun = "not-run"

    /// True when the audit exits 1 for it whatever the case (see ``AuditResult/failsTheRun``).
    package var failsTheRun: Bool { self == .hole || self == .fail }
}

/// One case's row in the report.
package struct AuditResult: Sendable {
    package let name: String
    package let severity: AuditSeverity
    package let summary: String
    package let rule: String
    package let advice: String
    package let outcome: AuditOutcome
    package let status: Int?
    /// What happened beyond the status: why it did not run, the transport error, the answer's first bytes.
    package let detail: String?

    package var expected: AuditOutcome { severity.expectsAcceptance ? .accepted : .refused }

    /// True when the audit exits 1 for this case: a hole, a refused good token, or a bad token the backend
    /// must refuse that it was not seen to refuse (a 500, a redirect, no answer: that proves no refusal). Not
    /// for the resilience rows (``AuditResilience``): a 503 while the provider's keys cannot be fetched is
    /// failing closed.
    package var failsTheRun: Bool {
        verdict.failsTheRun || (verdict == .unclear && severity == .mustRefuse && AuditCase(rawValue: name) != nil)
    }

    package var verdict: AuditVerdict {
        switch (severity, outcome) {
        case (_, .notRun): return .notRun
        case (.mustAccept, .accepted), (.shouldAccept, .accepted): return .ok
        case (.mustAccept, _): return .fail
        case (.shouldAccept, _): return .warning
        case (_, .refused): return .ok
        case (.mustRefuse, .accepted): return .hole
        case (.shouldRefuse, .accepted): return .warning
        default: return .unclear
        }
    }

    /// `accepted 200`, `refused 401`, `other 500`, `no answer`.
    package var got: String {
        switch outcome {
        case .notRun: return "not run"
        case .noAnswer: return "no answer"
        default: return outcome.rawValue + (status.map { " \($0)" } ?? "")
        }
    }

    package var json: JSONValue { json(library: nil) }

    /// The row as JSON; with `library`, `advice_for_library` beside `advice`: that library's change, or the
    /// generic advice when it has nothing specific.
    package func json(library: AuditLibrary?) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name), "severity": .string(severity.rawValue), "expected": .string(expected.rawValue),
            "got": .string(outcome.rawValue), "status": status.map { .number(Double($0)) } ?? .null,
            "verdict": .string(verdict.rawValue), "rule": .string(rule), "summary": .string(summary), "advice": .string(advice),
        ]
        object["detail"] = detail.map { .string($0) } ?? .null
        if let library { object["advice_for_library"] = .string(library.adviceLine(caseName: name, generic: advice)) }
        return .object(JSONObject(object))
    }
}
