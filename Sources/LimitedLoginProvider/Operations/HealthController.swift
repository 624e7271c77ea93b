import Hummingbird
import SQLKit

/// `GET /health`: 200 `{"status":"ok"}` when the store answers and a key can sign; 503 otherwise.
/// For load balancers and orchestrators; no secrets, no authentication.
struct HealthController: Sendable {
    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/health") { _, _ in
            do {
                try await services.store.ping()
                _ = try await services.keyring.current()
                return Responses.json(.object(["status": "ok"]))
            } catch {
                services.logger.warning("health check failed: \(type(of: error))")
                return Responses.json(.object(["status": "unavailable"]), status: .serviceUnavailable)
            }
        }
    }
}
