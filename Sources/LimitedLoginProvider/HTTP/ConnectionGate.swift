import Logging
import NIOCore
import Synchronization

/// Counts the provider's open connections and turns away those beyond the maximum, or beyond one client
/// address's share of it (``ConnectionLimits/maximumConnectionsPerAddress``), so that one client holding
/// idle connections cannot lock the others out (a load balancer's health checks included).
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
        /// Open connections per client address (addresses with none are removed).
        var openByAddress: [String: Int] = [:]
        var refusedSinceLastLine = 0
        var refusedForShareSinceLastLine = 0
        var lastLine: ContinuousClock.Instant?
        var reportScheduled = false
    }

    private enum Report {
        case now(refused: Int, forShare: Int)
        case later(in: Duration)
        case alreadyScheduled
    }

    let maximum: Int
    let perAddress: Int
    private let logInterval: Duration
    private let logger: Logger
    private let state = Mutex(State())
    /// Returns the memory of closed connections to the system.
    private let memory: ClosedConnectionMemory

    init(limits: ConnectionLimits, logger: Logger) {
        self.maximum = limits.served.maximumConnections
        self.perAddress = limits.servedPerAddress
        self.logInterval = limits.refusalLogInterval
        self.logger = logger
        self.memory = ClosedConnectionMemory()
    }

    /// The connections open now.
    var openConnections: Int { state.withLock { $0.open } }

    /// The connections one client address holds now.
    func openConnections(from address: String) -> Int { state.withLock { $0.openByAddress[address] ?? 0 } }

    /// Admits `channel`, counting it until it closes, or returns false when `maximum` connections are
    /// open, or its client address already holds its share (the caller closes it).
    func admit(_ channel: any Channel) -> Bool {
        // A connection without an IP peer (a Unix socket) counts toward the maximum only.
        let address = channel.remoteAddress?.ipAddress
        let refusal = state.withLock { state -> Refusal? in
            guard state.open < maximum else { return .full }
            if let address {
                let held = state.openByAddress[address] ?? 0
                guard held < perAddress else { return .share }
                state.openByAddress[address] = held + 1
            }
            state.open += 1
            return nil
        }
        if let refusal {
            noteRefusal(refusal, on: channel.eventLoop)
            return false
        }
        memory.opened(nowOpen: openConnections)
        let eventLoop = channel.eventLoop
        channel.closeFuture.whenComplete { _ in
            let open = self.state.withLock { state in
                state.open -= 1
                if let address, let held = state.openByAddress[address] {
                    state.openByAddress[address] = held > 1 ? held - 1 : nil
                }
                return state.open
            }
            self.memory.closed(nowOpen: open, on: eventLoop) { self.openConnections }
        }
        return true
    }

    private enum Refusal { case full, share }

    private func noteRefusal(_ refusal: Refusal, on eventLoop: any EventLoop) {
        let report = state.withLock { state -> Report in
            state.refusedSinceLastLine += 1
            if refusal == .share { state.refusedForShareSinceLastLine += 1 }
            let now = ContinuousClock.now
            if let last = state.lastLine, now < last + logInterval {
                if state.reportScheduled { return .alreadyScheduled }
                state.reportScheduled = true
                return .later(in: last + logInterval - now)
            }
            defer {
                state.refusedSinceLastLine = 0
                state.refusedForShareSinceLastLine = 0
            }
            state.lastLine = now
            return .now(refused: state.refusedSinceLastLine, forShare: state.refusedForShareSinceLastLine)
        }
        switch report {
        case .now(let refused, let forShare): log(refused: refused, forShare: forShare)
        case .later(let delay): eventLoop.scheduleTask(in: TimeAmount(delay)) { self.reportPending() }
        case .alreadyScheduled: break
        }
    }

    private func reportPending() {
        let (refused, forShare) = state.withLock { state in
            defer {
                state.refusedSinceLastLine = 0
                state.refusedForShareSinceLastLine = 0
            }
            state.reportScheduled = false
            state.lastLine = ContinuousClock.now
            return (state.refusedSinceLastLine, state.refusedForShareSinceLastLine)
        }
        if refused > 0 { log(refused: refused, forShare: forShare) }
    }

    private func log(refused: Int, forShare: Int) {
        let full = refused - forShare
        var reasons: [String] = []
        if full > 0 {
            reasons.append(
                (forShare > 0 ? "\(full) when " : "")
                    + "\(maximum) connections were open, the most allowed (serve --max-connections, ConnectionLimits.maximumConnections)"
            )
        }
        if forShare > 0 {
            reasons.append(
                (full > 0 ? "\(forShare) when " : "")
                    + "their client address held \(perAddress), its share (serve --max-connections-per-address, ConnectionLimits.maximumConnectionsPerAddress)"
            )
        }
        logger.warning(
            "Refused \(refused) connection\(refused == 1 ? "" : "s") since the last report: \(reasons.joined(separator: "; ")).",
            metadata: ["refused": "\(refused)", "maximum": "\(maximum)", "per_address": "\(perAddress)"]
        )
    }
}
