import Hummingbird
import NIOCore

/// `GET /metrics`: the provider's counters and latency histogram in the Prometheus text format
/// (version 0.0.4), for a Prometheus server to scrape. Counts only, no secrets, no authentication.
struct MetricsController: Sendable {
    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: services.metrics.exposition()))
            )
        }
    }
}
