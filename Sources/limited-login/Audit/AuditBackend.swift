import AsyncHTTPClient
import Foundation
import LimitedLoginVerifier
import NIOCore
import NIOSSL

/// One answer of the backend, as read.
struct AuditAnswer: Sendable {
    let outcome: AuditOutcome
    let status: Int?
    let detail: String?
    /// Nothing answered at the address at all (the audit cannot run).
    var unreachable = false
}

/// The app's backend as the audit reaches it: one request per token, the answer read by the rule.
final class AuditBackend: Sendable {
    let template: AuditRequestTemplate
    let rule: AuditAnswerRule
    let timeout: TimeAmount
    /// `timeout` in seconds.
    let timeoutSeconds: Int
    private let client: HTTPClient

    init(template: AuditRequestTemplate, rule: AuditAnswerRule, timeoutSeconds: Int) {
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
    func send(token: String, nonces: AuditNonces) async throws -> AuditAnswer {
        let answer = await attempt(token: token, nonces: nonces)
        if answer.unreachable {
            throw AuditFailure("cannot reach the backend at \(template.endpoint.absoluteString): \(answer.detail ?? "no answer")")
        }
        return answer
    }

    private func attempt(token: String, nonces: AuditNonces) async -> AuditAnswer {
        let request = template.request(token: token, nonces: nonces)
        do {
            let response = try await client.execute(request, timeout: timeout)
            let status = Int(response.status.code)
            let body = (try? await response.body.collect(upTo: 1 << 20)).map { Array($0.readableBytesView) } ?? []
            let outcome = rule.outcome(status: status, body: body)
            return AuditAnswer(outcome: outcome, status: status, detail: outcome == .other ? Self.excerpt(body) : nil)
        } catch {
            return AuditAnswer(
                outcome: .noAnswer, status: nil, detail: TransportFailure.reason(error),
                unreachable: TransportFailure.isUnreachable(error)
            )
        }
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    /// The start of an answer's body, on one line, for the report.
    private static func excerpt(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(160), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        return "The answer began: " + text + (body.count > 160 ? "…" : "")
    }
}
