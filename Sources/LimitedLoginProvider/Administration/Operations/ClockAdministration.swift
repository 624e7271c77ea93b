import Foundation

/// The provider's clock, which tests move (docs/BEHAVIOUR.md, section 9).
extension AdminOperations {
    func clockState() -> ClockState {
        let clock = services.clock
        return ClockState(now: clock.now(), offset: clock.offset, systemNow: ProviderTime.systemNow(), latestIssuedAt: clock.latestIssuedAt)
    }

    /// Moves the clock; `force` lets it go back before tokens it already issued (409 otherwise). Every
    /// node sharing the store follows (``ClusterClock``).
    func moveClock(_ move: ClockMove, force: Bool = false) async throws -> ClockState {
        let clock = services.clock
        // From the cluster's offset as stored now, not this node's (adopted up to a second late), and written
        // only over that one: an advance through this node beside one through another is made on top of it,
        // never from the old offset (which would undo it).
        do {
            try await services.clusterClock.move {
                switch move {
                case .advance(let seconds): try clock.advance(by: seconds, force: force)
                case .set(let time): try clock.set(to: time, force: force)
                case .reset: clock.reset()
                }
            }
        } catch let error as ProviderClockError {
            throw AdminError.conflict(error.description)
        }
        services.keyring.forgetSnapshot()
        services.logger.notice("provider clock moved", metadata: ["now": "\(clock.now())", "offset": "\(clock.offset)"])
        return clockState()
    }

    static func iso8601(_ time: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }
}
