import Logging
import NIOCore
import NIOHTTPTypes

/// The first handler of a connection's pipeline, before the HTTP decoder: it sees every byte as it
/// arrives, keeps the connection's ``ConnectionWait``, and closes the connection when the wait's deadline
/// passes. It must sit before the decoder because a request head that trickles in produces no HTTP part
/// until it is complete, and that is exactly the client it has to cut.
///
/// Lives on the connection's event loop, like every channel handler.
final class ConnectionTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var wait: ConnectionWait
    private let logger: Logger
    private var context: ChannelHandlerContext?
    /// The pending check and when it runs. A deadline that moves later leaves it in place: it runs, finds
    /// the new deadline, and schedules itself again, so a busy connection does not reschedule per request.
    private var check: (task: Scheduled<Void>, at: NIODeadline)?
    /// When the last bytes arrived. A request's head and end are decoded from those bytes, in the same call
    /// (the decoder sits after this handler), so they take this time rather than reading the clock again.
    private var lastRead = NIODeadline.now()
    /// The gate that admitted the connection, told when it stops and starts waiting for a request (an idle
    /// connection may be closed to admit a new one at the maximum), and the connection's identity there.
    private let gate: ConnectionGate
    private let connection: ObjectIdentifier
    /// True between an answer (or the connection's opening) and the next request's first bytes.
    private var waitingForRequest = true

    init(limits: ConnectionLimits, logger: Logger, gate: ConnectionGate, connection: ObjectIdentifier) {
        self.wait = ConnectionWait(limits: limits, openedAt: .now())
        self.logger = logger
        self.gate = gate
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { scheduleCheck() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelCheck()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        scheduleCheck()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelCheck()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now()
        lastRead = now
        wait.bytesArrived(at: now)
        if waitingForRequest {
            waitingForRequest = false
            gate.requestBegan(on: connection)
        }
        scheduleCheck()
        context.fireChannelRead(data)
    }

    // Passed on here rather than by NIO's default implementations, which are generic and looked up the
    // runtime's type metadata on every read (0.2 % of a login in `perf`).
    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
    }

    // MARK: What the HTTP side reports (RequestPhaseHandler)

    func requestHeadArrived() {
        wait.headArrived(at: lastRead)
        scheduleCheck()
    }

    func requestEnded() {
        wait.requestEnded(at: lastRead)
        scheduleCheck()
    }

    func answerSent() {
        wait.answerSent(at: .now())
        waitingForRequest = true
        gate.answered(on: connection)
        scheduleCheck()
    }

    // MARK: The timer

    private func scheduleCheck() {
        guard let context, let deadline = wait.deadline?.at else { return }
        if let check {
            if check.at <= deadline { return }
            check.task.cancel()
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] () -> Void in
            self?.runCheck()
        }
        check = (task, deadline)
    }

    private func runCheck() {
        check = nil
        guard let context, let deadline = wait.deadline else { return }
        guard deadline.at <= .now() else {
            scheduleCheck()
            return
        }
        logger.debug(
            "Closing a connection: \(deadline.limit.rawValue).",
            metadata: ["peer": "\(context.channel.remoteAddress?.description ?? "?")"]
        )
        context.close(promise: nil)
    }

    private func cancelCheck() {
        check?.task.cancel()
        check = nil
    }
}

/// Sits after the HTTP decoder and tells the ``ConnectionTimeoutHandler`` of the same connection where
/// each request stands: head arrived, request ended, answer sent. Passes every part through unchanged.
final class RequestPhaseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeouts: ConnectionTimeoutHandler

    init(reportingTo timeouts: ConnectionTimeoutHandler) {
        self.timeouts = timeouts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: timeouts.requestHeadArrived()
        case .body: break
        case .end: timeouts.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { timeouts.answerSent() }
        context.write(data, promise: promise)
    }

    // Passed on here rather than by NIO's generic default implementations (see ConnectionTimeoutHandler).
    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
    }

    func read(context: ChannelHandlerContext) {
        context.read()
    }
}
