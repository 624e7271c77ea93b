import Prometheus
import Synchronization

/// What the provider counts, served at `/metrics` in the Prometheus text format, each metric with its
/// `# HELP` line: dialog pages shown, how dialogs ended (completed, cancelled, refused), logins, tokens
/// issued by kind, errors by kind, and request latency by route, method and exact status.
///
/// Each provider has its own registry rather than a process-wide one, so that providers sharing a process
/// (tests, an app embedding one) count apart. Every counter and histogram is made once per label set and
/// kept: a request only increments.
public final class ProviderMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let counters = Mutex<[MetricKey: Prometheus.Counter]>([:])
    /// Request latency histograms by route, method and status: looked up with no label list to build (every
    /// request records one).
    private let histograms = Mutex<[RequestKey: DurationHistogram]>([:])

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct MetricKey: Hashable {
        var name: String
        var labels: [String]
    }

    /// One metric: its name (without the unit) and what it counts.
    private struct Metric {
        var name: String
        var unit: String
        var help: String

        var descriptor: MetricNameDescriptor {
            MetricNameDescriptor(namespace: "limited_login", metricName: name, unitName: unit, helpText: help)
        }
    }

    private static let dialogsShown = Metric(name: "dialogs_shown", unit: "total", help: "Login dialog pages shown, by page: signin, consent, error.")
    private static let dialogOutcomes = Metric(
        name: "dialog_outcomes", unit: "total",
        help:
            "How login dialogs ended, by outcome: completed (tokens sent), cancelled (the person pressed Cancel), refused (an OAuth error sent to the app, by error code)."
    )
    private static let logins = Metric(name: "logins", unit: "total", help: "Logins completed, by mode: limited or classic.")
    private static let tokensIssued = Metric(name: "tokens_issued", unit: "total", help: "Tokens issued, by kind: id_token, access_token, code.")
    private static let errors = Metric(
        name: "errors", unit: "total",
        help:
            "Requests refused or failed, by kind (dialog_page: an error page; http_4xx, http_5xx: other answers) and status code. A cancel is an outcome, not an error."
    )
    private static let requestDuration = Metric(
        name: "request_duration", unit: "seconds", help: "Time to answer a request, by route, method and status code."
    )

    /// The latency buckets: from a cached JWKS answer (well under a millisecond) to a slow store.
    private static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
    ]

    init() {}

    /// A dialog page was shown: `signin`, `consent`, or `error`.
    func dialogShown(_ page: String) {
        counter(Self.dialogsShown, [("page", page)]).increment()
    }

    /// A login completed (the dialog answered the app with tokens).
    func loginCompleted(limited: Bool) {
        counter(Self.logins, [("mode", limited ? "limited" : "classic")]).increment()
        counter(Self.dialogOutcomes, [("outcome", "completed"), ("error", "")]).increment()
    }

    /// The person pressed Cancel: the app was told `access_denied` without an error message.
    func loginCancelled() {
        counter(Self.dialogOutcomes, [("outcome", "cancelled"), ("error", "")]).increment()
    }

    /// The dialog sent the app an OAuth error (`invalid_scope`, `login_required`, …).
    func loginRefused(error: String) {
        counter(Self.dialogOutcomes, [("outcome", "refused"), ("error", error)]).increment()
    }

    /// A token was issued: `id_token`, `access_token`, or `code`.
    func tokenIssued(_ kind: String) {
        counter(Self.tokensIssued, [("kind", kind)]).increment()
    }

    /// Something was refused or failed: `dialog_page`, `http_4xx`, `http_5xx`, with the status code.
    func error(_ kind: String, code: String = "") {
        counter(Self.errors, [("kind", kind), ("code", code)]).increment()
    }

    /// One request answered, after `nanoseconds`.
    func requestFinished(route: String, method: String, status: Int, nanoseconds: Int64) {
        let key = RequestKey(route: route, method: method, status: status)
        let histogram = histograms.withLock { histograms in
            if let histogram = histograms[key] { return histogram }
            let labels = [("route", route), ("method", method), ("status", String(status))]
            let histogram = registry.makeDurationHistogram(descriptor: Self.requestDuration.descriptor, labels: labels, buckets: Self.buckets)
            histograms[key] = histogram
            return histogram
        }
        histogram.recordNanoseconds(nanoseconds)
    }

    /// Everything counted so far, in the Prometheus text exposition format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    private func counter(_ metric: Metric, _ labels: [(String, String)]) -> Prometheus.Counter {
        let key = MetricKey(name: metric.name, labels: labels.map(\.1))
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = registry.makeCounter(descriptor: metric.descriptor, labels: labels)
            counters[key] = counter
            return counter
        }
    }
}
