import Hummingbird
import LimitedLoginJOSE
import NIOCore
import SQLKit

/// `GET /health`: 200 `{"status":"ok"}` when the store answers, can write (a one-row write probe) and a
/// key can sign; 503 `{"status":"unavailable","reason":"…"}` otherwise, the reason in words (a full disk, a
/// read-only store, a database that cannot be reached, no key that can sign).
/// For load balancers and orchestrators; no secrets, no authentication. The verdict of a check is reused
/// for a second (``RecentHealthCheck``), so polling it hard costs no store query per poll.
struct HealthController: Sendable {
    let services: ProviderServices

    private static let healthyBody = ByteBuffer(bytes: JSONSerializer.serialize(.object(["status": "ok"])))
    private static let headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]

    /// nil when healthy, else why not, in words; each failure logged in one line with the store's own text.
    private func check() async -> String? {
        let store = services.store
        do { try await store.ping() } catch {
            return failed("the store does not answer: " + (StoreOutage.cause(of: error) ?? "the database failed"), error)
        }
        do { try await store.probeWrite(at: ProviderTime.systemNow()) } catch {
            return failed("the store cannot write: " + (StoreOutage.cause(of: error) ?? "the database failed"), error)
        }
        // The probe's one row can still fit where a login's writes do not: a request refused for want of space
        // (or a read-only store) in the last seconds says the store cannot write either.
        if let cause = services.storeOutages.recentWriteFailure() {
            return failed("the store cannot write: \(cause)", StoreError.unavailable("a request's write failed: \(cause)"))
        }
        do { _ = try await services.keyring.current() } catch {
            return failed("no signing key can sign", error)
        }
        services.storeOutages.healthPassed()
        return nil
    }

    private func failed(_ problem: String, _ error: any Error) -> String {
        // A check that meets a store closed on purpose (a start that failed, a stop) has nothing to report.
        if !services.store.wasClosed { services.storeOutages.healthFailed(problem, error: error) }
        return problem
    }

    /// Runs a check now, in the background: a server starting checks while it binds its port, so the
    /// first `/health` (an orchestrator's readiness probe) finds a fresh verdict instead of waiting for one.
    func checkSoon() {
        Task { _ = await services.recentHealth.problem(checkingWith: check) }
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.getAndHead("/health") { _, _ in
            let problem = await services.recentHealth.problem(checkingWith: check)
            guard let problem else { return Response(status: .ok, headers: Self.headers, body: .init(byteBuffer: Self.healthyBody)) }
            let body = JSONSerializer.serialize(.object(["status": "unavailable", "reason": .string(problem)]))
            var headers = Self.headers
            headers[.retryAfter] = String(StoreOutage.retryAfter)
            return Response(status: .serviceUnavailable, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}
