import Metrics
import Prometheus

/// What the provider counts, served at `/metrics` in the Prometheus text format: dialog pages shown,
/// logins, tokens issued by kind, errors by kind, and request latency.
///
/// Each provider has its own registry rather than the process-wide metrics system, so that providers
/// sharing a process (tests, an app embedding one) count apart; the swift-metrics types record into it.
public final class ProviderMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
    }

    /// A dialog page was shown: `signin`, `consent`, or `error`.
    func dialogShown(_ page: String) {
        Counter(label: "limited_login_dialogs_shown_total", dimensions: [("page", page)], factory: factory).increment()
    }

    /// A login completed (the dialog answered the app with tokens).
    func loginCompleted(limited: Bool) {
        Counter(label: "limited_login_logins_total", dimensions: [("mode", limited ? "limited" : "classic")], factory: factory).increment()
    }

    /// A token was issued: `id_token`, `access_token`, or `code`.
    func tokenIssued(_ kind: String) {
        Counter(label: "limited_login_tokens_issued_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    /// Something was refused or failed: `dialog_page`, `dialog_redirect` (with the OAuth error code),
    /// `cancelled`, `http_4xx`, `http_5xx`.
    func error(_ kind: String, code: String = "") {
        Counter(label: "limited_login_errors_total", dimensions: [("kind", kind), ("code", code)], factory: factory).increment()
    }

    /// One request answered, in `seconds`.
    func requestFinished(route: String, method: String, status: Int, nanoseconds: Int64) {
        Timer(
            label: "limited_login_request_duration_seconds",
            dimensions: [("route", route), ("method", method), ("status", "\(status / 100)xx")], factory: factory
        ).recordNanoseconds(nanoseconds)
    }

    /// Everything counted so far, in the Prometheus text exposition format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
