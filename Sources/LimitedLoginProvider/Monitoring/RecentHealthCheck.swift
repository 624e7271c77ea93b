import Foundation
import Synchronization

/// The last health check's verdict, reused for ``reuseInterval``, so that `/health` can be polled hard
/// (by several load balancers, every second or faster) without a store query per poll.
///
/// A verdict older than that is checked again by the next request, in its own task; requests that arrive
/// while a check is running wait for that check rather than start their own. A store that stops answering
/// shows within about a second.
final class RecentHealthCheck: Sendable {
    /// How long a verdict is reused, in nanoseconds.
    static let reuseInterval: UInt64 = 1_000_000_000

    private struct Verdict {
        /// nil: healthy; else why not.
        var problem: String?
        var checkedAt: UInt64
    }

    private struct State {
        var last: Verdict?
        /// Non-nil while a check runs: those waiting for its verdict.
        var waiting: [CheckedContinuation<String?, Never>]?
    }

    private let state = Mutex(State())

    init() {}

    /// nil when healthy, else the problem: the recent verdict, or that of `check` (which returns the
    /// problem), run once for every request that asks while it runs.
    func problem(checkingWith check: () async -> String?) async -> String? {
        enum Role {
            case reuse(String?)
            case wait, run
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let role = state.withLock { state -> Role in
            if let verdict = state.last, now &- verdict.checkedAt < Self.reuseInterval { return .reuse(verdict.problem) }
            if state.waiting != nil { return .wait }
            state.waiting = []
            return .run
        }
        switch role {
        case .reuse(let problem):
            return problem
        case .run:
            let problem = await check()
            let waiting = state.withLock { state in
                state.last = Verdict(problem: problem, checkedAt: DispatchTime.now().uptimeNanoseconds)
                defer { state.waiting = nil }
                return state.waiting ?? []
            }
            for waiter in waiting { waiter.resume(returning: problem) }
            return problem
        case .wait:
            return await withCheckedContinuation { waiter in
                // The check may have ended since: its verdict, then.
                let ended: Verdict? = state.withLock { state in
                    guard state.waiting != nil else { return state.last }
                    state.waiting?.append(waiter)
                    return nil
                }
                if let ended { waiter.resume(returning: ended.problem) }
            }
        }
    }
}
