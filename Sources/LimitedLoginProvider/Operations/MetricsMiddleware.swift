import Hummingbird

/// Times every request and counts the ones answered with an error status.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ProviderMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let status: Int
        let route = context.endpointPath ?? "unmatched"
        do {
            let response = try await next(request, context)
            status = response.status.code
            record(route: route, method: request.method.rawValue, status: status, since: start)
            return response
        } catch let error as HTTPResponseError {
            record(route: route, method: request.method.rawValue, status: error.status.code, since: start)
            throw error
        } catch {
            record(route: route, method: request.method.rawValue, status: 500, since: start)
            throw error
        }
    }

    private func record(route: String, method: String, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.requestFinished(route: route, method: method, status: status, nanoseconds: nanoseconds)
        if status >= 500 { metrics.error("http_5xx", code: String(status)) } else if status >= 400 { metrics.error("http_4xx", code: String(status)) }
    }
}
