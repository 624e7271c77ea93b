import Logging
import NIOCore
import Synchronization

/// Counts the provider's open connections and turns away those beyond the maximum.
///
/// A connection over the limit is closed as soon as it is accepted, before any handler or buffer is made
/// for it: its client sees the connection close at once, rather than wait in the listen backlog as
/// Hummingbird's own `availableConnectionsDelegate` would leave it (and then time out).
///
/// Refusals are logged at warning at most once per ``ConnectionLimits``' refusal interval (a minute): the
/// first at once, later ones as a count in one line when the interval has passed, so a flood of
/// connections cannot flood the log too.
final class ConnectionGate: Sendable {
    private struct State {
        var open = 0
        var refusedSinceLastLine = 0
        var lastLine: ContinuousClock.Instant?
        var reportScheduled = false
    }

    private enum Report {
        case now(refused: Int)
        case later(in: Duration)
        case alreadyScheduled
    }

    let maximum: Int
    private let logInterval: Duration
    private let logger: Logger
    private let state = Mutex(State())
    /// Returns the memory of closed connections to the system.
    private let memory: ClosedConnectionMemory

    init(limits: ConnectionLimits, logger: Logger) {
        self.maximum = limits.maximumConnections
        self.logInterval = limits.refusalLogInterval
        self.logger = logger
        self.memory = ClosedConnectionMemory()
    }

    /// The connections open now.
    var openConnections: Int { state.withLock { $0.open } }

    /// Admits `channel`, counting it until it closes, or returns false when `maximum` connections are
    /// open (the caller closes it).
    func admit(_ channel: any Channel) -> Bool {
        let admitted = state.withLock { state in
            guard state.open < maximum else { return false }
            state.open += 1
            return true
        }
        if admitted {
            memory.opened(nowOpen: openConnections)
            let eventLoop = channel.eventLoop
            channel.closeFuture.whenComplete { _ in
                let open = self.state.withLock { state in
                    state.open -= 1
                    return state.open
                }
                self.memory.closed(nowOpen: open, on: eventLoop) { self.openConnections }
            }
        } else {
            noteRefusal(on: channel.eventLoop)
        }
        return admitted
    }

    private func noteRefusal(on eventLoop: any EventLoop) {
        let report = state.withLock { state -> Report in
            state.refusedSinceLastLine += 1
            let now = ContinuousClock.now
            if let last = state.lastLine, now < last + logInterval {
                if state.reportScheduled { return .alreadyScheduled }
                state.reportScheduled = true
                return .later(in: last + logInterval - now)
            }
            defer { state.refusedSinceLastLine = 0 }
            state.lastLine = now
            return .now(refused: state.refusedSinceLastLine)
        }
        switch report {
        case .now(let refused): log(refused: refused)
        case .later(let delay): eventLoop.scheduleTask(in: TimeAmount(delay)) { self.reportPending() }
        case .alreadyScheduled: break
        }
    }

    private func reportPending() {
        let refused = state.withLock { state in
            defer { state.refusedSinceLastLine = 0 }
            state.reportScheduled = false
            state.lastLine = ContinuousClock.now
            return state.refusedSinceLastLine
        }
        if refused > 0 { log(refused: refused) }
    }

    private func log(refused: Int) {
        logger.warning(
            "Refused \(refused) connection\(refused == 1 ? "" : "s") since the last report: \(maximum) connections were open, the most allowed (serve --max-connections, ConnectionLimits.maximumConnections).",
            metadata: ["refused": "\(refused)", "maximum": "\(maximum)"]
        )
    }
}
