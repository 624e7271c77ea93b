import Hummingbird

/// What the provider does around every request, in one middleware: it runs the request on the provider's
/// clock (``ProviderTime``, which tests move) with a request ID (``RequestLog``), routes by `Host` under a
/// Facebook host name (``FacebookHosts``), dresses the router's bare 404 and 405 (``MissingPage``), and
/// when the answer is ready, sends back the request ID, logs the request and counts it in the metrics
/// (``RequestMetrics``). A request that the store fails under is answered 503 in its client's shape
/// (``StoreOutage``); with a shared store, the clock is brought up to the cluster's first (``ClusterClock``).
///
/// One middleware rather than one per concern: each of Hummingbird's middleware layers is an async call
/// with a closure of its own, and five of them cost static endpoints a tenth of their speed
/// (docs/PERFORMANCE.md). The start time is read once and the end time once, for both the log and the
/// metrics.
struct ProviderRequestMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let clock: ProviderClock
    let log: RequestLog
    let metrics: RequestMetrics
    let missingPage: MissingPage
    let storeOutage: StoreOutage
    let outages: StoreOutageLog
    let clusterClock: ClusterClock
    let faults: EndpointFaults

    init(services: ProviderServices) {
        clock = services.clock
        log = RequestLog(logger: services.logger, requestLevel: services.configuration.requestLogLevel)
        metrics = RequestMetrics(metrics: services.metrics)
        missingPage = MissingPage(services: services)
        storeOutage = StoreOutage(pages: services.pages, urls: services.urls)
        outages = services.storeOutages
        clusterClock = services.clusterClock
        faults = services.faults
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = RequestLog.requestID(offered: request.headers[RequestLog.requestIDField])
        let start = ContinuousClock.now
        if clusterClock.isShared { await clusterClock.refreshIfDue() }
        return try await ProviderTime.$clock.withValue(clock) {
            try await RequestLogContext.$requestID.withValue(id) {
                do {
                    var response = try await answer(request, context: context, next: next)
                    response.headers[RequestLog.requestIDField] = id
                    finished(request, context: context, status: response.status.code, since: start)
                    return response
                } catch let error as HTTPError {
                    finished(request, context: context, status: error.status.code, since: start)
                    throw error
                } catch let error as AdminError {
                    // An admin operation's refusal: its JSON answer, with the request ID like any other.
                    var response = try error.response(from: request, context: context)
                    response.headers[RequestLog.requestIDField] = id
                    finished(request, context: context, status: response.status.code, since: start)
                    return response
                } catch {
                    if let cause = StoreOutage.cause(of: error) {
                        // The store failed: 503 and Retry-After in the client's shape; the outage in the log
                        // when it begins, every few seconds and when it ends, not a line per request.
                        outages.refused(cause: cause, error: error)
                        var response = try storeOutage.response(for: request, cause: cause)
                        response.headers[RequestLog.requestIDField] = id
                        finished(request, context: context, status: response.status.code, since: start, logged: false)
                        return response
                    }
                    let elapsed = Self.elapsed(since: start)
                    log.failed(request, error: error, milliseconds: elapsed.milliseconds)
                    metrics.record(
                        route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: 500, nanoseconds: elapsed.nanoseconds)
                    throw HTTPError(.internalServerError, message: "The provider failed to answer; see its log.")
                }
            }
        }
    }

    /// The route's answer, under a Facebook host name only for the paths that host serves, with the
    /// router's bare refusals dressed; an injected fault's (``EndpointFaults``) in place of a faulted
    /// endpoint's.
    @inline(__always)
    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            guard let host = FacebookHosts.host(of: request.head.authority) else {
                if faults.isArmed, let response = try await faulted(request) { return response }
                return try await next(request, context)
            }
            guard FacebookHosts.serves(request.uri.path, on: host) else { throw HTTPError(.notFound) }
            if faults.isArmed, let response = try await faulted(request) { return response }
            return try await FacebookHostContext.$host.withValue(host) { try await next(request, context) }
        } catch let error as HTTPError where MissingPage.dresses(error) {
            return try missingPage.page(for: error.status, request)
        }
    }

    /// A fault's answer when one takes this request; nil otherwise (after a fault's delay alone, too).
    private func faulted(_ request: Request) async throws -> Response? {
        guard faults.isArmed,
            let endpoint = EndpointFaultAnswer.endpoint(of: request.uri.path), let fault = faults.take(endpoint)
        else { return nil }
        return try await EndpointFaultAnswer.response(fault, endpoint: endpoint)
    }

    private func finished(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant, logged: Bool = true) {
        let elapsed = Self.elapsed(since: start)
        metrics.record(route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: status, nanoseconds: elapsed.nanoseconds)
        guard logged else { return }
        if status < 500 {
            let method = request.method
            outages.answered(wrote: status < 400 && method != .get && method != .head)
        }
        log.answered(request, status: status, milliseconds: elapsed.milliseconds)
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> (nanoseconds: Int64, milliseconds: Double) {
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        return (nanoseconds, Double(nanoseconds) / 1e6)
    }
}
