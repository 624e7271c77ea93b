import Dispatch
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
/// At the maximum, an idle connection never keeps a new client out: the connection that has waited longest
/// between requests (or since it opened, without a request) is closed to admit the new one, whichever address
/// holds it. Before, four addresses holding a quarter each left no connection for anyone (0 of 23 probes
/// answered). A client at its address's share is still refused: it cannot evict others' connections.
///
/// Refusals are logged at warning at most once per ``ConnectionLimits``' refusal interval (a minute): the
/// first at once, later ones as a count in one line when the interval has passed, so a flood of
/// connections cannot flood the log too.
final class ConnectionGate: Sendable {
    /// An admitted connection, and since when it has waited for a request (monotonic nanoseconds; nil while a
    /// request is on it).
    private struct Admitted {
        let channel: any Channel
        var idleSince: UInt64?
    }

    private struct State {
        var open = 0
        /// Open connections per client address (addresses with none are removed).
        var openByAddress: [String: Int] = [:]
        /// The admitted connections that may still be chosen to make room.
        var admitted: [ObjectIdentifier: Admitted] = [:]
        var evictedSinceLastLine = 0
        var refusedSinceLastLine = 0
        var refusedForShareSinceLastLine = 0
        var lastLine: ContinuousClock.Instant?
        var reportScheduled = false
    }

    private enum Report {
        case now(Counts)
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

    /// Admits `channel`, counting it until it closes, or returns false when its client address already holds
    /// its share, or `maximum` connections are open and none of them is idle (the caller closes it). At the
    /// maximum the longest-idle connection is closed to make room.
    func admit(_ channel: any Channel) -> Bool {
        // A connection without an IP peer (a Unix socket) counts toward the maximum only.
        let address = channel.remoteAddress?.ipAddress
        let id = ObjectIdentifier(channel)
        let now = DispatchTime.now().uptimeNanoseconds
        let outcome = state.withLock { state -> (refusal: Refusal?, evicted: (any Channel)?) in
            if let address, state.openByAddress[address] ?? 0 >= perAddress { return (.share, nil) }
            var evicted: (any Channel)?
            if state.open >= maximum {
                // The longest wait for a request; it leaves the list at once, so it is chosen only once.
                guard let oldest = state.admitted.filter({ $0.value.idleSince != nil }).min(by: { $0.value.idleSince! < $1.value.idleSince! })
                else { return (.full, nil) }
                state.admitted[oldest.key] = nil
                state.evictedSinceLastLine += 1
                evicted = oldest.value.channel
            }
            if let address { state.openByAddress[address, default: 0] += 1 }
            state.open += 1
            state.admitted[id] = Admitted(channel: channel, idleSince: now)
            return (nil, evicted)
        }
        if let refusal = outcome.refusal {
            noteRefusal(refusal, on: channel.eventLoop)
            return false
        }
        if let evicted = outcome.evicted {
            evicted.close(promise: nil)
            noteRefusal(nil, on: channel.eventLoop)
        }
        memory.opened(nowOpen: openConnections)
        let eventLoop = channel.eventLoop
        channel.closeFuture.whenComplete { _ in
            let open = self.state.withLock { state in
                state.open -= 1
                state.admitted[id] = nil
                if let address, let held = state.openByAddress[address] {
                    state.openByAddress[address] = held > 1 ? held - 1 : nil
                }
                return state.open
            }
            self.memory.closed(nowOpen: open, on: eventLoop) { self.openConnections }
        }
        return true
    }

    /// A request began on the connection: it is not idle (and not to be closed for room) until it is answered.
    func requestBegan(on id: ObjectIdentifier) {
        state.withLock { $0.admitted[id]?.idleSince = nil }
    }

    /// The connection's answer was sent: it waits for its next request from now.
    func answered(on id: ObjectIdentifier) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.admitted[id]?.idleSince = now }
    }

    private enum Refusal { case full, share }

    /// Counts a refusal (nil: an idle connection closed to make room, counted when it was chosen) and logs
    /// as the interval allows.
    private func noteRefusal(_ refusal: Refusal?, on eventLoop: any EventLoop) {
        let report = state.withLock { state -> Report in
            if let refusal {
                state.refusedSinceLastLine += 1
                if refusal == .share { state.refusedForShareSinceLastLine += 1 }
            }
            let now = ContinuousClock.now
            if let last = state.lastLine, now < last + logInterval {
                if state.reportScheduled { return .alreadyScheduled }
                state.reportScheduled = true
                return .later(in: last + logInterval - now)
            }
            state.lastLine = now
            return .now(Self.takeCounts(&state))
        }
        switch report {
        case .now(let counts): log(counts)
        case .later(let delay): eventLoop.scheduleTask(in: TimeAmount(delay)) { self.reportPending() }
        case .alreadyScheduled: break
        }
    }

    private func reportPending() {
        let counts = state.withLock { state in
            state.reportScheduled = false
            state.lastLine = ContinuousClock.now
            return Self.takeCounts(&state)
        }
        log(counts)
    }

    /// What happened since the last line, and the counts started again.
    private struct Counts {
        var refused: Int
        var forShare: Int
        var evicted: Int
    }

    private static func takeCounts(_ state: inout State) -> Counts {
        defer {
            state.refusedSinceLastLine = 0
            state.refusedForShareSinceLastLine = 0
            state.evictedSinceLastLine = 0
        }
        return Counts(refused: state.refusedSinceLastLine, forShare: state.refusedForShareSinceLastLine, evicted: state.evictedSinceLastLine)
    }

    private func log(_ counts: Counts) {
        let (refused, forShare) = (counts.refused, counts.forShare)
        let maximumReason = "\(maximum) connections were open, the most allowed (serve --max-connections, ConnectionLimits.maximumConnections)"
        if counts.evicted > 0 {
            logger.notice(
                "Closed \(counts.evicted) idle connection\(counts.evicted == 1 ? "" : "s") to admit new ones since the last report: \(maximumReason).",
                metadata: ["evicted": "\(counts.evicted)", "maximum": "\(maximum)"]
            )
        }
        guard refused > 0 else { return }
        let full = refused - forShare
        var reasons: [String] = []
        if full > 0 {
            reasons.append((forShare > 0 ? "\(full) when " : "") + maximumReason + ", none of them idle")
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
