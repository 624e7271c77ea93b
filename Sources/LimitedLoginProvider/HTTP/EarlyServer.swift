import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// The provider's server started while the provider is prepared (``ProviderConfiguration/startsServerWhilePreparing``,
/// `serve` without TLS): the port is bound and the server's own start (the runtime's first use of NIO's and
/// Hummingbird's types, their code paged in) runs on the other core beside the store's opening and the keys'
/// reading, where it used to follow them (docs/PERFORMANCE.md, "Start").
///
/// A request that arrives before the provider is ready waits for it (``DeferredResponder``). Once the port is
/// bound, the server sends itself one request over loopback (answered 204 by the deferred responder, not
/// logged), so that a client's first request finds the request path warm.
/// ``LimitedLoginProvider/run(onRunning:beforeClosing:until:)`` gives the router and runs the rest as for a
/// server it starts itself.
///
/// Until the provider is ready the server's own log lines below `notice` are held back (a start that fails
/// says so in one line, not after "Server started"); ``announce()`` then says where it listens.
final class EarlyServer: Sendable {
    private typealias Responder = DeferredResponder
    /// The server's service group and responder, made on the other core (the server's types are first used
    /// there, not on the way to the store).
    private let making: Task<(group: ServiceGroup, responder: Responder), Never>
    /// Yields once when the port is bound; finishes then, or when the server ends without binding it.
    private let bound: AsyncStream<Void>
    private let serving: Task<Void, any Error>
    private let state: StartState
    private let logger: Logger

    init(configuration: ProviderConfiguration, urls: ProviderURLs, logger: Logger) {
        let bound = AsyncStream<Void>.makeStream()
        let state = StartState()
        var serverLogger = logger
        serverLogger.handler = quietUntilReady(logger.handler, state: state)
        // Detached: the server outlives the preparation that starts it, and reads none of its task-local values.
        let making = Task.detached { () -> (group: ServiceGroup, responder: Responder) in
            let responder = Responder()
            let application = LimitedLoginProvider.application(
                responder: responder, configuration: configuration, urls: urls, tls: nil, logger: serverLogger
            ) { port in
                state.listening.withLock { $0 = "\(configuration.host):\(port.map(String.init) ?? "?")" }
                bound.continuation.yield()
                bound.continuation.finish()
                guard let port else { return }
                // The server takes connections once this returns: the request is sent from a thread of its own.
                let token = responder.warmUpToken
                Thread.detachNewThread {
                    _ = StartWarmUp.exchange(port: port, within: 1, header: (Responder.warmUpField.rawName, token))
                }
            }
            let group = ServiceGroup(
                configuration: .init(
                    services: [application], gracefulShutdownSignals: configuration.stopsOnSignals ? [.sigterm, .sigint] : [],
                    logger: serverLogger))
            return (group, responder)
        }
        self.making = making
        self.bound = bound.stream
        self.state = state
        self.logger = logger
        self.serving = Task.detached {
            defer { bound.continuation.finish() }
            try await making.value.group.run()
        }
        StartWarmUp.serverStartsEarly()
    }

    /// The server's service group (to shut it down gracefully).
    var group: ServiceGroup {
        get async { await making.value.group }
    }

    /// The responder requests go to from now on (see ``DeferredResponder/provide(_:)``).
    func provide(_ inner: RouterResponder<BasicRequestContext>) async {
        await making.value.responder.provide(inner)
    }

    /// Requests waiting for the provider, for tests.
    var waitingCount: Int {
        get async { await making.value.responder.waitingCount }
    }

    /// True once the port is bound; false when the server ended without binding it (its error is thrown by
    /// ``run()``).
    func waitUntilBound() async -> Bool {
        for await _ in bound { return true }
        return false
    }

    /// The provider is ready and the port bound: the server's log is no longer held back, and says where it
    /// listens (the line the server wrote when it bound, held back then).
    func announce() {
        state.setReady()
        logger.info("Server started and listening on \(state.listening.withLock { $0 ?? "?" })")
    }

    /// Waits for the server to end (it ends on SIGTERM or SIGINT, or ``stop()``); a cancelled wait cancels
    /// the server.
    func run() async throws {
        let serving = self.serving
        try await withTaskCancellationHandler {
            try await serving.value
        } onCancel: {
            serving.cancel()
        }
    }

    /// Stops the server when the provider cannot be made: requests waiting for it are answered 503.
    func stop() async {
        let made = await making.value
        made.responder.fail()
        await made.group.triggerGracefulShutdown()
        _ = try? await serving.value
    }
}

/// How far an early server's start has come (see ``EarlyServer``): where it listens once bound ("host:port"),
/// and whether the provider is ready.
private final class StartState: Sendable {
    let listening = Mutex<String?>(nil)
    private let ready = Atomic<Bool>(false)
    var isReady: Bool { ready.load(ordering: .relaxed) }
    func setReady() { ready.store(true, ordering: .relaxed) }
}

/// `handler` wrapped in ``QuietUntilReady`` as the type it is.
private func quietUntilReady(_ handler: any LogHandler, state: StartState) -> any LogHandler {
    func wrap<Handler: LogHandler>(_ handler: Handler) -> any LogHandler { QuietUntilReady(inner: handler, state: state) }
    return wrap(handler)
}

/// The server's log handler while the provider is prepared: lines below `notice` are dropped until the
/// provider is ready, then every line its level allows is written.
///
/// Generic over the handler it wraps, which it holds as itself rather than as `any LogHandler`: Hummingbird
/// gives every request's logger a metadata value of its own, and a handler held as an existential inside
/// this one would be copied into a box of its own on each request (a second allocation per request, beside
/// the copy of this handler that any wrapped or unwrapped handler costs).
private struct QuietUntilReady<Inner: LogHandler>: LogHandler {
    var inner: Inner
    let state: StartState

    var logLevel: Logger.Level {
        get { state.isReady ? inner.logLevel : max(inner.logLevel, .notice) }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        inner.log(event: event)
    }
}
