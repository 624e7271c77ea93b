import Dispatch
import Synchronization

/// With a store that several nodes share (PostgreSQL), the provider's clock is the cluster's: a move through
/// any node (`clock advance`, `set`, `reset`, an import's offset) is written to the store, and every node
/// adopts the stored offset within about a second, checked lazily by the first request after a second has
/// passed (one small read a second per node, nothing while idle). A node that starts adopts it at once.
/// With SQLite (one process) nothing is written: the clock is the process's, and a restart resets it.
final class ClusterClock: Sendable {
    static let setting = "clock_offset"
    /// How often a node looks at the stored offset, in nanoseconds.
    static let checkInterval: UInt64 = 1_000_000_000

    let store: ProviderStore
    let clock: ProviderClock
    let keyring: SigningKeyring
    /// True when the store is shared (PostgreSQL): only then is there a cluster to keep the clock with.
    let isShared: Bool
    private let nextCheck = Atomic<UInt64>(0)

    init(store: ProviderStore, clock: ProviderClock, keyring: SigningKeyring) {
        self.store = store
        self.clock = clock
        self.keyring = keyring
        isShared = store.location.isShared
    }

    /// After this node moved the clock: `offset`, the one the move made (read right after it), for every node.
    /// It is set here again once written, so that a look at the store by a concurrent request, which could
    /// still see the old offset, cannot undo the move.
    func publish(offset: Int64) async throws {
        guard isShared else { return }
        try await store.setSetting(Self.setting, to: String(offset))
        clock.adopt(offset: offset)
    }

    /// Makes one move of the clock the cluster's without losing another node's made at the same moment:
    /// the stored offset is read and adopted, `move` applied to it, and the result written only if the store
    /// still holds what was read (compare and set); when another node's move came in between, it is adopted
    /// and `move` applied again on top of it. Without a shared store, `move` alone.
    func move(_ move: () throws -> Void) async throws {
        guard isShared else { return try move() }
        for _ in 1...20 {
            let stored = try await store.settingValue(Self.setting)
            adopt(stored: stored)
            if stored == nil, clock.offset != 0 { clock.adopt(offset: 0) }
            try move()
            if try await store.setSetting(Self.setting, to: String(clock.offset), ifStill: stored) {
                return
            }
        }
        throw StoreError.unavailable("the clock kept being moved by other nodes; try again")
    }

    /// Adopts the stored offset when a second has passed since the last look (at once with `now: true`).
    func refreshIfDue(now: Bool = false) async {
        guard isShared else { return }
        let uptime = DispatchTime.now().uptimeNanoseconds
        let due = nextCheck.load(ordering: .relaxed)
        guard now || uptime >= due else { return }
        guard now || nextCheck.compareExchange(expected: due, desired: uptime + Self.checkInterval, ordering: .relaxed).exchanged else { return }
        // A store that cannot answer leaves the clock as it is; /health reports the store.
        adopt(stored: try? await store.settingValue(Self.setting))
    }

    /// Adopts a stored offset (the setting's text) that differs from this node's; the keys are then reread,
    /// as which key signs may have changed with the time.
    func adopt(stored text: String?) {
        guard isShared, let text, let offset = Int64(text), offset != clock.offset else { return }
        clock.adopt(offset: offset)
        keyring.forgetSnapshot()
    }
}
