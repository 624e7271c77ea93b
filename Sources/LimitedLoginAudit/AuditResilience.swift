import Foundation
import LimitedLoginJOSE

/// The resilience cases of `--faults`: how the backend behaves while the provider's key endpoints fail,
/// whether it recovers when they come back, and what it does when the keys rotate.
///
/// For each fault on the key endpoints (discovery, JWKS and certificates at once): a good token is sent
/// first (so that a backend that caches the keys holds them), the fault is set, and then a good token
/// (`…:during-valid`: accepting it from a cache is best, refusing it is safe), a token signed by a key no
/// set holds (`…:during-unknown-key`: it must be refused, the backend failing closed), and after the fault
/// is cleared a good token again (`…:after`: it must be accepted, the backend recovered). Then the keys
/// rotate (`key-rotation`: a token from the new key should be accepted) and the old key is dropped
/// (`retired-key`: a token it signed should be refused once the backend rereads the set).
package struct AuditResilience: Sendable {
    package enum Fault: String, CaseIterable, Sendable {
        case status500 = "keys-500"
        case timeout = "keys-timeout"
        case empty = "keys-empty"
        case html = "keys-html"
        case malformed = "keys-malformed"
        case rotatedSet = "keys-rotated"

        package var summary: String {
            switch self {
            case .status500: return "the key endpoints answer 500"
            case .timeout: return "the key endpoints answer only after the fault delay"
            case .empty: return "the key endpoints answer an empty key set"
            case .html: return "the key endpoints answer an HTML error page"
            case .malformed: return "the key endpoints answer cut-off JSON"
            case .rotatedSet: return "the key sets hold only a new key (the signing key rotated out)"
            }
        }

        package func body(delay: Double) -> JSONObject {
            switch self {
            case .status500: return ["endpoints": "keys", "status": 500]
            case .timeout: return ["endpoints": "keys", "delay": .number(delay)]
            case .empty: return ["endpoints": "keys", "answer": "empty"]
            case .html: return ["endpoints": "keys", "answer": "html"]
            case .malformed: return ["endpoints": "keys", "answer": "malformed"]
            case .rotatedSet: return ["endpoints": ["jwks", "certs"], "answer": "rotated"]
            }
        }
    }

    /// How many resilience rows a run makes: three per fault, then the rotation and the dropped key.
    package static let caseCount = Fault.allCases.count * 3 + 2

    package let run: AuditRun
    package let provider: any AuditProviderAccess
    /// Seconds the `keys-timeout` fault holds each answer.
    package let faultDelay: Double
    /// Seconds the backend gets to recover after a fault is cleared.
    package let recoveryWindow: Double

    package init(run: AuditRun, provider: any AuditProviderAccess, faultDelay: Double, recoveryWindow: Double) {
        (self.run, self.provider, self.faultDelay, self.recoveryWindow) = (run, provider, faultDelay, recoveryWindow)
    }

    package func results(startingAt first: Int, total: Int) async throws -> [AuditResult] {
        var results: [AuditResult] = []
        func note(_ result: AuditResult) {
            results.append(result)
            run.progress("[\(first + results.count)/\(total)] \(result.name): \(result.got) → \(result.verdict.rawValue)")
        }
        do {
            for fault in Fault.allCases {
                _ = try await send(.valid)
                // Bounded in time, so that an audit stopped here (Ctrl-C, a CI job's timeout) does not leave the
                // provider's key endpoints failing: long enough for the two requests made while it holds.
                var body = fault.body(delay: faultDelay)
                body["seconds"] = .number(min(86_400, 2 * (Double(run.backend.timeoutSeconds) + faultDelay) + 60))
                try await provider.setFault(body)
                let during = try await send(.valid)
                note(
                    row(
                        fault.rawValue + ":during-valid", .shouldAccept, "a good token while " + fault.summary,
                        "Resilience: keep serving from the cached key set while the provider fails",
                        "keep the last good key set and verify with it while refetching fails", during))
                let unknown = try await send(.unknownKey)
                note(
                    row(
                        fault.rawValue + ":during-unknown-key", .mustRefuse, "a token from a key no set holds, while " + fault.summary,
                        "Resilience: fail closed; RFC 8725 section 3.1",
                        "refuse when the key cannot be found, whatever the key endpoint answers", unknown))
                try await provider.clearFaults()
                note(
                    row(
                        fault.rawValue + ":after", .mustAccept, "a good token after the fault (\(fault.summary)) is cleared",
                        "Resilience: recover when the provider answers again",
                        "refetch the key set again after a failure (not cache the failure for long)", try await recovered()))
            }
            _ = try await send(.valid)
            try await provider.rotateKeys(dropPrevious: false)
            note(
                row(
                    "key-rotation", .shouldAccept, "a good token from a key published a moment ago (the keys rotated)",
                    "Validation: the key named by kid (refetch the key set on an unknown kid)",
                    "refetch the key set when a token names a kid it does not hold (at most every few seconds)", try await recovered()))
            // A token from the key that signs now, sent once the provider has dropped that key.
            let nonces = run.nonceMode.nonces()
            let old = try await run.tokens.token(for: .valid, nonces: nonces)
            try await provider.rotateKeys(dropPrevious: true)
            note(
                row(
                    "retired-key", .shouldRefuse, "a token from a key the provider no longer publishes",
                    "Validation: the key from the provider's current key set",
                    "reread the key set once its max-age (an hour) has passed: a backend that still holds the dropped key gets this warning until then",
                    try await run.backend.send(token: old, nonces: nonces)))
        } catch {
            try? await provider.clearFaults()
            throw error
        }
        return results
    }

    private func send(_ auditCase: AuditCase) async throws -> AuditAnswer {
        let nonces = run.nonceMode.nonces()
        let token = try await run.tokens.token(for: auditCase, nonces: nonces)
        return try await run.backend.send(token: token, nonces: nonces)
    }

    /// A good token, tried again for up to ``recoveryWindow`` seconds until it is accepted.
    private func recovered() async throws -> AuditAnswer {
        let deadline = Date().addingTimeInterval(recoveryWindow)
        var answer = try await send(.valid)
        while answer.outcome != .accepted, Date() < deadline {
            try await Task.sleep(nanoseconds: 1_000_000_000)
            answer = try await send(.valid)
        }
        return answer
    }

    private func row(
        _ name: String, _ severity: AuditSeverity, _ summary: String, _ rule: String, _ advice: String, _ answer: AuditAnswer
    ) -> AuditResult {
        AuditResult(
            name: name, severity: severity, summary: summary, rule: rule, advice: advice, outcome: answer.outcome, status: answer.status,
            detail: answer.detail)
    }
}
