import Hummingbird
import NIOCore

/// `GET /metrics`: the provider's counters and latency histogram in the Prometheus text format
/// (version 0.0.4), for a Prometheus server to scrape. Counts only, no secrets; behind the admin token
/// (``AdminGuardMiddleware``, a scraper's `authorization` with the token as bearer) unless
/// `serve --public-metrics`: which apps log in how often is no business of whoever can reach the port.
struct MetricsController: Sendable {
    let services: ProviderServices
    let adminToken: String

    func addRoutes(to router: Router<BasicRequestContext>) {
        let exposition: @Sendable (Request, BasicRequestContext) async throws -> Response = { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: services.metrics.exposition()))
            )
        }
        if services.configuration.publicMetrics {
            router.get("/metrics", use: exposition)
        } else {
            router.group().add(middleware: AdminGuardMiddleware<BasicRequestContext>(services: services, adminToken: adminToken))
                .get("/metrics", use: exposition)
        }
    }
}
