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
        var healthy: Bool
        var checkedAt: UInt64
    }

    private let last = Mutex<Verdict?>(nil)

    init() {}

    /// True when healthy: the recent verdict, or `check`'s (which throws when unhealthy).
    func healthy(checkingWith check: () async throws -> Void) async -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if let verdict = last.withLock({ $0 }), now &- verdict.checkedAt < Self.reuseInterval { return verdict.healthy }
        let healthy: Bool
        do {
            try await check()
            healthy = true
        } catch {
            healthy = false
        }
        last.withLock { $0 = Verdict(healthy: healthy, checkedAt: DispatchTime.now().uptimeNanoseconds) }
        return healthy
    }
}
