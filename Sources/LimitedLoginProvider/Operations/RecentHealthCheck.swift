import Foundation
import Synchronization

/// The last health check's verdict, reused for ``reuseInterval``, so that `/health` can be polled hard
/// (by several load balancers, every second or faster) without a store query per poll.
///
/// A verdict older than that is checked again by the next request; requests that arrive while a check is
/// running reuse the previous verdict if it is recent, or wait for their own check. A store that stops
/// answering shows within about a second.
final class RecentHealthCheck: Sendable {
    /// How long a verdict is reused, in nanoseconds.
    static let reuseInterval: UInt64 = 1_000_000_000

    private struct Verdict {
        /// nil: healthy; else why not.
        var problem: String?
        var checkedAt: UInt64
    }

    private let last = Mutex<Verdict?>(nil)

    init() {}

    /// nil when healthy, else the problem: the recent verdict, or `check`'s (which returns the problem).
    func problem(checkingWith check: () async -> String?) async -> String? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let verdict = last.withLock({ $0 }), now &- verdict.checkedAt < Self.reuseInterval { return verdict.problem }
        let problem = await check()
        last.withLock { $0 = Verdict(problem: problem, checkedAt: DispatchTime.now().uptimeNanoseconds) }
        return problem
    }
}
