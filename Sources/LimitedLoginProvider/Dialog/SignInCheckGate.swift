/// The password checks in flight on this node, per sign-in limit key (an account's, an address's), so that
/// checks not yet finished hold a place under the limit that only failures fill in the store.
///
/// ``SignInThrottle`` counts failures after the check. Without this gate, a burst of guesses sent at once
/// would all be checked before the first failure was counted. With it, a check starts only while, for each
/// of its keys, failures plus checks in flight stay under the limit; otherwise it waits here until a check
/// under some key ends, then looks again. Correct sign-ins arriving together therefore wait their turn
/// (each check takes milliseconds) and are never refused, and nothing stays counted when a process dies.
///
/// The places here are this node's; on a shared database ``SignInThrottle`` also holds each check's places in
/// the store, where every node sees them.
actor SignInCheckGate {
    /// One limit a check must fit under: its key, the failures the store holds for it, and the limit.
    struct Place: Sendable {
        var key: String
        var failures: Int64
        var limit: Int
    }

    private var inFlight: [String: Int] = [:]
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Counts checks that ended in a failure on this node: a waiter whose counts were read before the
    /// latest one reads them again.
    private(set) var failureGeneration = 0

    /// Takes a place under every limit when each has room, and returns true. Otherwise waits until a
    /// check ends; returns true once there is room, or false when a check failed since `generation` (the
    /// failures read from the store are then out of date: read them again and call again).
    func enter(_ places: [Place], readAtGeneration generation: Int) async -> Bool {
        while failureGeneration == generation {
            if places.allSatisfy({ Int64(inFlight[$0.key, default: 0]) + $0.failures < Int64($0.limit) }) {
                for place in places { inFlight[place.key, default: 0] += 1 }
                return true
            }
            // Some key is full, so a check under it is in flight and its `leave` will wake this waiter.
            await withCheckedContinuation { waiting.append($0) }
        }
        return false
    }

    /// Gives back the places a check took, recording whether it failed, and wakes every waiter to look again.
    func leave(_ keys: [String], failed: Bool) {
        for key in keys {
            let remaining = inFlight[key, default: 0] - 1
            inFlight[key] = remaining > 0 ? remaining : nil
        }
        if failed { failureGeneration &+= 1 }
        let woken = waiting
        waiting.removeAll()
        for waiter in woken { waiter.resume() }
    }

    /// Checks in flight under `key` (for tests).
    func checksInFlight(_ key: String) -> Int { inFlight[key, default: 0] }

    /// Sign-ins waiting for a check to end (for tests).
    var waitingCount: Int { waiting.count }
}
