/// What every request adds to the metrics: its duration by route, method and status, and a count of the
/// ones answered with an error status. ``ProviderRequestMiddleware`` calls it for every request.
struct RequestMetrics {
    let metrics: ProviderMetrics

    func record(route: String, method: String, status: Int, nanoseconds: Int64) {
        metrics.requestFinished(route: route, method: method, status: status, nanoseconds: nanoseconds)
        if status >= 500 { metrics.error("http_5xx", code: String(status)) } else if status >= 400 { metrics.error("http_4xx", code: String(status)) }
    }
}
