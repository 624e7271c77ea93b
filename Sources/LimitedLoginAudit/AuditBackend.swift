import AsyncHTTPClient
import Foundation
import LimitedLoginVerifier
import NIOCore
import NIOSSL

/// One answer of the backend, as read.
package struct AuditAnswer: Sendable {
    package let outcome: AuditOutcome
    package let status: Int?
    package let detail: String?
    /// Nothing answered at the address at all (the audit cannot run).
    package var unreachable = false
}

/// The app's backend as the audit reaches it: one request per token, the answer read by the rule.
package final class AuditBackend: Sendable {
    package let template: AuditRequestTemplate
    package let rule: AuditAnswerRule
    package let timeout: TimeAmount
    /// `timeout` in seconds.
    package let timeoutSeconds: Int
    private let client: HTTPClient

    package init(template: AuditRequestTemplate, rule: AuditAnswerRule, timeoutSeconds: Int) {
        self.template = template
        self.rule = rule
        self.timeoutSeconds = timeoutSeconds
        self.timeout = .seconds(Int64(timeoutSeconds))
        var tls = TLSConfiguration.makeClientConfiguration()
        if let path = ProcessInfo.processInfo.environment["LIMITED_LOGIN_CA_FILE"], !path.isEmpty {
            tls.additionalTrustRoots = [.file(path)]
        }
        // Each answer as the backend gives it: a redirect (to a sign-in page, say) is an answer, not followed.
        client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow, decompression: .disabled)
        )
    }

    /// Sends `token` with `nonces` and reads the answer; throws ``AuditFailure`` when nothing answers at the
    /// endpoint's address at all (the backend is down: the audit cannot run).
    package func send(token: String, nonces: AuditNonces) async throws -> AuditAnswer {
        let answer = await attempt(token: token, nonces: nonces)
        if answer.unreachable {
            throw AuditFailure("cannot reach the backend at \(template.endpoint.absoluteString): \(answer.detail ?? "no answer")")
        }
        return answer
    }

    private func attempt(token: String, nonces: AuditNonces) async -> AuditAnswer {
        let request = template.request(token: token, nonces: nonces)
        // --timeout bounds the whole answer, its body too: a backend dripping its body (or never ending it) is
        // no answer, not a hang.
        let deadline = NIODeadline.now() + timeout
        do {
            let response = try await client.execute(request, deadline: deadline)
            let status = Int(response.status.code)
            guard let body = try await Self.collect(response.body, until: deadline) else {
                return AuditAnswer(
                    outcome: .noAnswer, status: nil, detail: "the answer's body did not end within \(timeoutSeconds) s (--timeout)")
            }
            let outcome = rule.outcome(status: status, body: body)
            // The first line of a refusal or an unclear answer: why a good token was refused shows in the report.
            return AuditAnswer(outcome: outcome, status: status, detail: outcome == .accepted ? nil : Self.excerpt(body))
        } catch {
            return AuditAnswer(
                outcome: .noAnswer, status: nil, detail: TransportFailure.reason(error),
                unreachable: TransportFailure.isUnreachable(error)
            )
        }
    }

    package func shutdown() async {
        try? await client.shutdown()
    }

    /// The body (at most 1 MiB kept), or nil when it did not end by `deadline`.
    private static func collect(_ body: HTTPClientResponse.Body, until deadline: NIODeadline) async throws -> [UInt8]? {
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                for try await chunk in body where bytes.count < 1 << 20 { bytes += chunk.readableBytesView.prefix((1 << 20) - bytes.count) }
                return bytes
            }
            group.addTask {
                let nanoseconds = max(0, deadline.uptimeNanoseconds - NIODeadline.now().uptimeNanoseconds)
                try await Task.sleep(nanoseconds: nanoseconds)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The first line of an answer's body (160 bytes at most), its control characters made harmless, for the
    /// report.
    private static func excerpt(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let head = body.prefix(160)
        let line = head.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? head[...]
        let text = AuditReport.printable(String(decoding: line, as: UTF8.self))
        return "The answer began: " + text + (line.count < body.count ? "…" : "")
    }
}
