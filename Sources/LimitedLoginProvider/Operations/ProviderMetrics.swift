import CoreMetrics
import Metrics
import Prometheus
import Synchronization

/// What the provider counts, served at `/metrics` in the Prometheus text format: dialog pages shown,
/// logins, tokens issued by kind, errors by kind, and request latency.
///
/// Each provider has its own registry rather than the process-wide metrics system, so that providers
/// sharing a process (tests, an app embedding one) count apart; the swift-metrics types record into it.
/// Every counter and timer is made once per label set and kept: a request only increments.
public final class ProviderMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let counters = Mutex<[MetricKey: CoreMetrics.Counter]>([:])
    private let timers = Mutex<[MetricKey: CoreMetrics.Timer]>([:])

    private struct MetricKey: Hashable {
        var name: String
        var labels: [String]
    }

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
    }

    /// A dialog page was shown: `signin`, `consent`, or `error`.
    func dialogShown(_ page: String) {
        counter("limited_login_dialogs_shown_total", [("page", page)]).increment()
    }

    /// A login completed (the dialog answered the app with tokens).
    func loginCompleted(limited: Bool) {
        counter("limited_login_logins_total", [("mode", limited ? "limited" : "classic")]).increment()
    }

    /// A token was issued: `id_token`, `access_token`, or `code`.
    func tokenIssued(_ kind: String) {
        counter("limited_login_tokens_issued_total", [("kind", kind)]).increment()
    }

    /// Something was refused or failed: `dialog_page`, `dialog_redirect` (with the OAuth error code),
    /// `cancelled`, `http_4xx`, `http_5xx`.
    func error(_ kind: String, code: String = "") {
        counter("limited_login_errors_total", [("kind", kind), ("code", code)]).increment()
    }

    /// One request answered, in `seconds`.
    func requestFinished(route: String, method: String, status: Int, nanoseconds: Int64) {
        let dimensions = [("route", route), ("method", method), ("status", "\(status / 100)xx")]
        let key = MetricKey(name: "limited_login_request_duration_seconds", labels: dimensions.map(\.1))
        let timer = timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = CoreMetrics.Timer(label: key.name, dimensions: dimensions, factory: factory)
            timers[key] = timer
            return timer
        }
        timer.recordNanoseconds(nanoseconds)
    }

    /// Everything counted so far, in the Prometheus text exposition format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    private func counter(_ name: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        let key = MetricKey(name: name, labels: dimensions.map(\.1))
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }
}
