import Hummingbird

/// Runs every request on the provider's clock, so that the store, the token issuer and the key schedule
/// read the time tests set (``ProviderTime``).
struct ProviderClockMiddleware<Context: RequestContext>: RouterMiddleware {
    let clock: ProviderClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await ProviderTime.$clock.withValue(clock) { try await next(request, context) }
    }
}
