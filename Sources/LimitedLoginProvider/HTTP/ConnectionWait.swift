import NIOCore

/// What one HTTP/1.1 connection is waiting for from its client, and until when: the bookkeeping behind
/// the three timeouts of ``ConnectionLimits``, kept apart from the channel so each rule reads plainly.
///
/// The deadline of a wait is fixed when the wait begins and no byte moves it: a client that trickles a
/// request head one byte at a time has exactly ``ConnectionLimits/headerTimeout`` for the whole head.
struct ConnectionWait {
    enum Phase: Equatable {
        /// Nothing of a next request has arrived yet. The first request of a connection is held to the
        /// header timeout from the opening (a client that connects and says nothing is a head that does not
        /// arrive); later ones to the idle timeout from the end of the last answer.
        case betweenRequests(since: NIODeadline, isFirstRequest: Bool)
        /// Some bytes of a request head have arrived, the whole head not yet.
        case head(since: NIODeadline)
        /// The head has arrived, the end of the body not yet.
        case body(since: NIODeadline)
        /// The request has arrived and the provider is answering: no limit (the time is the provider's).
        case answering
    }

    /// Which limit a deadline belongs to, for the log line that says why a connection was closed.
    enum Limit: String {
        case header = "its request head did not arrive in time"
        case idle = "it sent no new request in time"
        case body = "its request body did not arrive in time"
    }

    private let limits: ConnectionLimits
    private(set) var phase: Phase
    /// Requests whose head has arrived and whose answer has not been sent (more than one when the client
    /// pipelines).
    private var unanswered = 0

    init(limits: ConnectionLimits, openedAt now: NIODeadline) {
        self.limits = limits
        self.phase = .betweenRequests(since: now, isFirstRequest: true)
    }

    /// When the connection is closed if nothing changes, and which limit that is; nil while answering.
    var deadline: (at: NIODeadline, limit: Limit)? {
        switch phase {
        case .betweenRequests(let since, true): return (since + TimeAmount(limits.headerTimeout), .header)
        case .betweenRequests(let since, false): return (since + TimeAmount(limits.idleTimeout), .idle)
        case .head(let since): return (since + TimeAmount(limits.headerTimeout), .header)
        case .body(let since): return (since + TimeAmount(limits.bodyTimeout), .body)
        case .answering: return nil
        }
    }

    /// Bytes came in (seen before the HTTP decoder). Between requests, or while answering a request the
    /// client has finished sending, they begin the next request's head; otherwise they continue the current one.
    mutating func bytesArrived(at now: NIODeadline) {
        switch phase {
        case .betweenRequests, .answering: phase = .head(since: now)
        case .head, .body: break
        }
    }

    /// The decoder produced a whole request head: the body's wait begins.
    mutating func headArrived(at now: NIODeadline) {
        unanswered += 1
        phase = .body(since: now)
    }

    /// The decoder produced the end of a request: the provider's turn, unless it has already answered
    /// (an early answer, e.g. to a body that is too large), in which case the idle wait begins.
    mutating func requestEnded(at now: NIODeadline) {
        phase = unanswered > 0 ? .answering : .betweenRequests(since: now, isFirstRequest: false)
    }

    /// The end of an answer went out. When nothing is left to answer and no next request has begun,
    /// the idle wait begins.
    mutating func answerSent(at now: NIODeadline) {
        unanswered = max(unanswered - 1, 0)
        if unanswered == 0, phase == .answering {
            phase = .betweenRequests(since: now, isFirstRequest: false)
        }
    }
}
