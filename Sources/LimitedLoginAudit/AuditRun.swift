import LimitedLoginJOSE

/// One audit: each selected case's token sent to the backend, in order, with a progress line each.
package struct AuditRun: Sendable {
    package let backend: AuditBackend
    package let tokens: AuditTokenFactory
    package let nonceMode: AuditNonceMode
    /// Why the attacker's server cannot reach the backend (``AuditAttacker/unreachableReason(endpointHost:attackerHost:)``).
    package var attackerUnreachable: String? = nil
    package let progress: @Sendable (String) -> Void

    package init(
        backend: AuditBackend, tokens: AuditTokenFactory, nonceMode: AuditNonceMode, attackerUnreachable: String? = nil,
        progress: @escaping @Sendable (String) -> Void
    ) {
        (self.backend, self.tokens, self.nonceMode, self.attackerUnreachable, self.progress) = (
            backend, tokens, nonceMode, attackerUnreachable, progress
        )
    }

    /// The results of `cases`; throws ``AuditFailure`` when the backend cannot be reached at all or the
    /// provider cannot mint.
    package func run(_ cases: [AuditCase], total: Int) async throws -> [AuditResult] {
        var results: [AuditResult] = []
        for (index, auditCase) in cases.enumerated() {
            let result = try await run(auditCase)
            progress("[\(index + 1)/\(total)] \(auditCase.rawValue): \(result.got) → \(result.verdict.rawValue)")
            results.append(result)
        }
        try await control(after: results)
        return try await judgingReplays(results)
    }

    /// A backend that refuses a good token it has seen (a replay cache, a one-time nonce) answers the empty
    /// `jti` case by what earlier runs sent: the first run's empty `jti` is new, the next one's is a replay. The
    /// same good token sent twice tells; then `empty-jti` is reported not judged, saying why.
    package func judgingReplays(_ results: [AuditResult]) async throws -> [AuditResult] {
        guard let index = results.firstIndex(where: { $0.name == AuditCase.emptyJti.rawValue }), results[index].outcome != .notRun,
            results.first(where: { $0.name == AuditCase.valid.rawValue })?.outcome == .accepted
        else { return results }
        let nonces = nonceMode.nonces()
        let token = try await tokens.token(for: .valid, nonces: nonces)
        let first = try await backend.send(token: token, nonces: nonces)
        let second = try await backend.send(token: token, nonces: nonces)
        let remembers = first.outcome == .accepted && second.outcome == .refused
        progress(
            "[control] the same good token twice: \(first.outcome.rawValue), then \(second.outcome.rawValue)\(remembers ? " (a replay cache)" : "")")
        guard remembers else { return results }
        var judged = results
        judged[index] = result(
            .emptyJti,
            AuditAnswer(
                outcome: .notRun, status: nil,
                detail: "the backend refuses a token it has seen (a replay cache), so its answer to an empty jti depends on "
                    + "whether an earlier run sent one; run this case against a backend whose cache is empty"))
        return judged
    }

    /// After the cases, a fresh good token again: a backend that accepted the first and refuses this one refused
    /// the cases in between for some reason of its own (a rate limit, a replay check, a lockout), not for what
    /// is wrong with them, so their refusals prove nothing and the audit cannot pass.
    package func control(after results: [AuditResult]) async throws {
        guard results.count > 1, let first = results.first(where: { $0.name == AuditCase.valid.rawValue }), first.outcome == .accepted else {
            return
        }
        let again = try await run(.valid)
        progress("[control] valid, once more: \(again.got) → \(again.outcome == .accepted ? "accepted" : "not accepted")")
        guard again.outcome == .accepted else {
            throw AuditFailure(
                "the backend accepted the good token at the start but not a fresh one at the end (\(again.got)): its refusals in between "
                    + "cannot be told from a rate limit or a replay check, so they prove nothing. Lift the rate limit for the audit, "
                    + "or give each request its own nonce with {nonce}.")
        }
    }

    package func run(_ auditCase: AuditCase) async throws -> AuditResult {
        if let reason = nonceMode.reasonNotRun(auditCase.requirement) {
            return result(auditCase, AuditAnswer(outcome: .notRun, status: nil, detail: reason))
        }
        if auditCase.needsAttackerServer, let reason = attackerUnreachable {
            return result(auditCase, AuditAnswer(outcome: .notRun, status: nil, detail: reason))
        }
        let nonces = nonceMode.nonces()
        let token = try await tokens.token(for: auditCase, nonces: nonces)
        let answer = try await backend.send(token: token, nonces: nonces)
        if auditCase == .valid, answer.outcome == .noAnswer {
            // Without an answer to the good token (a certificate it does not trust, a timeout) nothing can be judged.
            throw AuditFailure(
                "the backend at \(backend.template.endpoint.absoluteString) gave no answer to the good token: \(answer.detail ?? "no answer")")
        }
        return result(auditCase, answer)
    }

    package func result(_ auditCase: AuditCase, _ answer: AuditAnswer) -> AuditResult {
        AuditResult(
            name: auditCase.rawValue, severity: auditCase.severity, summary: auditCase.summary, rule: auditCase.rule,
            advice: auditCase.advice, outcome: answer.outcome, status: answer.status, detail: answer.detail
        )
    }
}
