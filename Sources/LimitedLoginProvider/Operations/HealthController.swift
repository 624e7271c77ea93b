import Hummingbird
import LimitedLoginJOSE
import NIOCore
import SQLKit

/// `GET /health`: 200 `{"status":"ok"}` when the store answers and a key can sign; 503 otherwise.
/// For load balancers and orchestrators; no secrets, no authentication. The verdict of a check is reused
/// for a second (``RecentHealthCheck``), so polling it hard costs no store query per poll.
struct HealthController: Sendable {
    let services: ProviderServices
    private let recent = RecentHealthCheck()

    init(services: ProviderServices) {
        self.services = services
    }

    private static let healthyBody = ByteBuffer(bytes: JSONSerializer.serialize(.object(["status": "ok"])))
    private static let unhealthyBody = ByteBuffer(bytes: JSONSerializer.serialize(.object(["status": "unavailable"])))
    private static let headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/health") { _, _ in
            let healthy = await recent.healthy {
                do {
                    try await services.store.ping()
                    _ = try await services.keyring.current()
                } catch {
                    services.logger.warning("health check failed: \(type(of: error))")
                    throw error
                }
            }
            return healthy
                ? Response(status: .ok, headers: Self.headers, body: .init(byteBuffer: Self.healthyBody))
                : Response(status: .serviceUnavailable, headers: Self.headers, body: .init(byteBuffer: Self.unhealthyBody))
        }
    }
}
