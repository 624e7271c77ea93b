import Dispatch
import Logging
import Synchronization

/// A store outage in the log as three kinds of line, not one per refused request (a PostgreSQL outage wrote
/// about 2,000 lines per node in 30 s): one when it begins (the cause in words and the database's own text),
/// a summary every ``summaryInterval`` while it lasts (how many requests were refused), one when a request
/// succeeds again. It also remembers the last write refused for want of space or a read-only store, which
/// `/health` reports (its one-row probe can still fit where a login's writes do not) until a request that
/// writes succeeds, or for ``writeFailureMemory`` at most.
final class StoreOutageLog: Sendable {
    static let summaryInterval: UInt64 = 5_000_000_000
    static let writeFailureMemory: UInt64 = 10_000_000_000

    private struct Outage {
        var cause: String
        var began: UInt64
        var refused = 0
        var refusedSinceSummary = 0
        var lastSummary: UInt64
        var lastRefusal: UInt64
    }

    private struct State {
        var outage: Outage?
        var lastWriteFailure: (cause: String, at: UInt64)?
        /// The problem `/health` last logged, until it passes again.
        var healthProblem: String?
    }

    private let logger: Logger
    private let state = Mutex(State())
    /// Read on every answered request: the lock is taken only during an outage, or while a refused write is
    /// remembered.
    private let inOutage = Atomic<Bool>(false)
    private let rememberingWriteFailure = Atomic<Bool>(false)

    init(logger: Logger) { self.logger = logger }

    /// A request the store failed under (`cause` in words, ``StoreOutage/cause(of:)``).
    func refused(cause: String, error: any Error, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        enum Line {
            case began
            case summary(refused: Int, seconds: UInt64)
            case none
        }
        let line = state.withLock { state -> Line in
            if cause == "the disk is full" || cause == "the store is read-only" {
                state.lastWriteFailure = (cause, now)
                rememberingWriteFailure.store(true, ordering: .releasing)
            }
            guard var outage = state.outage else {
                state.outage = Outage(cause: cause, began: now, refused: 1, lastSummary: now, lastRefusal: now)
                return .began
            }
            outage.refused += 1
            outage.refusedSinceSummary += 1
            outage.lastRefusal = now
            var line = Line.none
            if now &- outage.lastSummary >= Self.summaryInterval {
                line = .summary(refused: outage.refusedSinceSummary, seconds: (now &- outage.lastSummary) / 1_000_000_000)
                outage.refusedSinceSummary = 0
                outage.lastSummary = now
            }
            state.outage = outage
            return line
        }
        switch line {
        case .began:
            inOutage.store(true, ordering: .releasing)
            logger.error("store outage began: \(cause); requests are answered 503 until it ends (\(error))")
        case .summary(let refused, let seconds):
            logger.error("store outage goes on: \(cause); \(refused) requests answered 503 in the last \(seconds) s")
        case .none:
            break
        }
    }

    /// A request answered without a store failure: the end of an outage, if one was going on, when it wrote
    /// (`wrote`: a POST, PUT or DELETE answered 2xx or 3xx, so writes work again) or no request was refused
    /// for ``summaryInterval`` (a page's stylesheet served between two refusals ends nothing).
    func answered(wrote: Bool = false, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        if wrote, rememberingWriteFailure.load(ordering: .acquiring) {
            state.withLock { $0.lastWriteFailure = nil }
            rememberingWriteFailure.store(false, ordering: .releasing)
        }
        guard inOutage.load(ordering: .acquiring) else { return }
        endOutage(now: now) { wrote || now &- $0.lastRefusal >= Self.summaryInterval }
    }

    private func endOutage(now: UInt64, if ends: (Outage) -> Bool) {
        let ended = state.withLock { state -> Outage? in
            guard let outage = state.outage, ends(outage) else { return nil }
            state.outage = nil
            return outage
        }
        guard let ended else { return }
        inOutage.store(false, ordering: .releasing)
        logger.notice(
            "store outage ended after \((now &- ended.began) / 1_000_000_000) s: \(ended.refused) request\(ended.refused == 1 ? "" : "s") answered 503 (\(ended.cause))"
        )
    }

    /// A failed health check: logged when its problem is new, not at every check (once a second).
    func healthFailed(_ problem: String, error: any Error) {
        let new = state.withLock { state in
            defer { state.healthProblem = problem }
            return state.healthProblem != problem
        }
        if new { logger.warning("health check failed: \(problem) (\(error))") }
    }

    /// A passed health check: logged when it follows a failed one; it ends an outage.
    func healthPassed(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        if inOutage.load(ordering: .acquiring) { endOutage(now: now) { _ in true } }
        let recovered = state.withLock { state in
            defer { state.healthProblem = nil }
            return state.healthProblem
        }
        if let recovered { logger.notice("health check passes again (it failed: \(recovered))") }
    }

    /// The cause of a write refused within ``writeFailureMemory`` for want of space or a read-only store.
    func recentWriteFailure(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String? {
        state.withLock { state in
            guard let failure = state.lastWriteFailure, now &- failure.at < Self.writeFailureMemory else { return nil }
            return failure.cause
        }
    }
}
