import HTTPTypes
import Hummingbird
import LimitedLoginJOSE
import Synchronization

/// The responder of a server that started before the provider was ready (``EarlyServer``): a request that
/// arrives first waits for the provider's router; once that is given, every request goes straight to it.
/// When the provider cannot be made, the waiting requests (and any later one) are answered 503.
///
/// One request is answered by this responder itself: the server's own first request (``EarlyServer`` sends
/// it over loopback to warm the request path), which carries ``warmUpField`` with this process's random
/// ``warmUpToken``; it gets a 204 and reaches neither the router nor the request log. The token is looked
/// for as long as the provider is not ready, however late the request comes: on a busy machine the sender
/// gives up on its answer (after a second) before the server has read it, and such a request must not wait
/// beside the clients' requests. Once the provider's router is given, the token is not looked for (a
/// running server's requests pay nothing for it): a warm-up request read later still goes to the router.
///
/// Not generic: it only ever defers to the provider's router, and a generic responder, called by
/// Hummingbird through its protocol, ran unspecialized, looking up its type's metadata on every request
/// (docs/PERFORMANCE.md, "Request logging").
final class DeferredResponder: HTTPResponder, Sendable {
    typealias Inner = RouterResponder<BasicRequestContext>
    typealias Context = Inner.Context

    private enum State {
        case waiting([CheckedContinuation<Inner?, Never>])
        /// Given: the responder is in ``given``.
        case ready
        case failed
    }

    private let state = Mutex<State>(.waiting([]))
    /// The field and value that mark the server's own first request.
    static var warmUpField: HTTPField.Name { HTTPField.Name("x-limited-login-warm-up")! }
    let warmUpToken = RandomIdentifiers.secret()
    /// The provider's responder once given, read without the lock: every request of a running server
    /// reads it, on every event loop.
    private let given = AtomicLazyReference<Given>()

    private final class Given: Sendable {
        let inner: Inner
        init(_ inner: Inner) { self.inner = inner }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        if let given = given.load() {
            return try await given.inner.respond(to: request, context: context)
        }
        if let token = request.headers[Self.warmUpField], constantTimeEquals(token, warmUpToken) {
            return Response(status: .noContent)
        }
        guard let inner = await inner() else {
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "The provider could not start.\n")))
        }
        return try await inner.respond(to: request, context: context)
    }

    /// The responder requests go to from now on; the requests waiting for it go on.
    func provide(_ inner: Inner) {
        let waiting = state.withLock { state -> [CheckedContinuation<Inner?, Never>] in
            guard case .waiting(let waiting) = state else { return [] }
            _ = given.storeIfNil(Given(inner))
            state = .ready
            return waiting
        }
        for request in waiting { request.resume(returning: inner) }
    }

    /// Answers the requests waiting, and every later one, 503: the provider could not be made.
    func fail() {
        let waiting = state.withLock { state -> [CheckedContinuation<Inner?, Never>] in
            guard case .waiting(let waiting) = state else { return [] }
            state = .failed
            return waiting
        }
        for request in waiting { request.resume(returning: nil) }
    }

    /// Requests waiting for the provider, for tests.
    var waitingCount: Int {
        state.withLock { state in if case .waiting(let waiting) = state { waiting.count } else { 0 } }
    }

    /// The provider's responder once given; nil when the provider could not be made.
    private func inner() async -> Inner? {
        await withCheckedContinuation { request in
            let known = state.withLock { state -> Inner?? in
                switch state {
                case .ready: return .some(given.load()?.inner)
                case .failed: return .some(nil)
                case .waiting(var waiting):
                    waiting.append(request)
                    state = .waiting(waiting)
                    return nil
                }
            }
            if let known { request.resume(returning: known) }
        }
    }
}
