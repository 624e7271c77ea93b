import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// Hummingbird's HTTP/1.1 child channel with the provider's ``ConnectionLimits``: each accepted
/// connection passes the ``ConnectionGate`` (or is closed at once), and gets a ``ConnectionTimeoutHandler``
/// before the HTTP decoder and a ``RequestPhaseHandler`` after it. Requests are then handled exactly as
/// by `HTTP1Channel`, which does the rest.
///
/// Hummingbird's own `idleTimeout` is left off: it restarts on every request part, so a body sent a byte
/// at a time, or a head that never ends, would hold a connection for as long as the client likes.
struct BoundedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// Why a connection was not set up; the bootstrap drops it (the channel is already closed).
    struct Refused: Error {}

    private let responder: HTTPChannelHandler.Responder
    private let http1: HTTP1Channel
    private let limits: ConnectionLimits
    private let gate: ConnectionGate
    private let logger: Logger

    init(responder: @escaping HTTPChannelHandler.Responder, limits: ConnectionLimits, logger: Logger) {
        self.responder = responder
        self.http1 = HTTP1Channel(responder: responder)
        self.limits = limits.served
        self.gate = ConnectionGate(limits: self.limits, logger: logger)
        self.logger = logger
    }

    /// Runs on the new connection's event loop, before the connection is registered with it: a refused
    /// connection is closed here, before any read.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard gate.admit(channel) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(Refused())
        }
        let ready: EventLoopFuture<Value>
        do {
            let timeouts = ConnectionTimeoutHandler(limits: limits, logger: self.logger, gate: gate, connection: ObjectIdentifier(channel))
            try channel.pipeline.syncOperations.addHandler(timeouts)
            // Hummingbird asks for the extra handlers from a `@Sendable` closure; this handler belongs to the
            // connection's event loop, where that closure runs (synchronously, inside `setup`).
            let phases = NIOLoopBound(RequestPhaseHandler(reportingTo: timeouts), eventLoop: channel.eventLoop)
            let connection = HTTP1Channel(responder: responder, configuration: .init(additionalChannelHandlers: [phases.value]))
            ready = connection.setup(channel: channel, logger: logger)
        } catch {
            ready = channel.eventLoop.makeFailedFuture(error)
        }
        // A connection that failed to set up is never registered: close it here, or it would stay open (and
        // counted) for good.
        ready.whenFailure { _ in channel.close(promise: nil) }
        return ready
    }

    /// Serves the connection's requests in a task that prefers the connection's event loop as its executor
    /// (``EventLoopTaskExecutor``): reading, answering and writing, without crossing threads. The channel is
    /// the task's ``ClientAddress/channel`` for all of them: set once here, not per request (each task-local
    /// value and each responder layer around a request cost it task switches of its own).
    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await ClientAddress.$channel.withValue(value.channel) {
                await http1.handle(value: value, logger: logger)
            }
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the provider's connection limits (see ``BoundedHTTP1Channel``).
    /// HTTP/1.1 within `limits`, inside TLS when `tls` is given (`serve --tls`).
    static func http1(limits: ConnectionLimits, logger: Logger, tls: TLSConfiguration? = nil) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let channel = BoundedHTTP1Channel(responder: responder, limits: limits, logger: logger)
            guard let tls else { return channel }
            return try TLSChannel(channel, tlsConfiguration: tls)
        }
    }
}
