import Foundation
import Synchronization

/// The last health check's verdict, reused for ``reuseInterval``, so that `/health` can be polled hard
/// (by several load balancers, every second or faster) without a store query per poll.
///
/// A verdict older than that is checked again by the next request; requests that arrive while a check is
/// running wait for that check rather than start their own. A store that stops answering shows within
/// about a second.
final class RecentHealthCheck: Sendable {
    /// How long a verdict is reused, in nanoseconds.
    static let reuseInterval: UInt64 = 1_000_000_000

    private struct Verdict {
        /// nil: healthy; else why not.
        var problem: String?
        var checkedAt: UInt64
    }

    private let last = Mutex<Verdict?>(nil)
    /// The check running now, if one is.
    private let running = Mutex<Task<String?, Never>?>(nil)

    init() {}

    /// nil when healthy, else the problem: the recent verdict, or that of `check` (which returns the
    /// problem), run once for every request that asks while it runs.
    func problem(checkingWith check: @escaping @Sendable () async -> String?) async -> String? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let verdict = last.withLock({ $0 }), now &- verdict.checkedAt < Self.reuseInterval { return verdict.problem }
        let task = running.withLock { running in
            if let current = running { return current }
            // Made under the lock, so the task's own clearing of `running` comes after this assignment.
            let task = Task {
                let problem = await check()
                self.last.withLock { $0 = Verdict(problem: problem, checkedAt: DispatchTime.now().uptimeNanoseconds) }
                self.running.withLock { $0 = nil }
                return problem
            }
            running = task
            return task
        }
        return await task.value
    }
}
