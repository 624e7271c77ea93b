import Dispatch
import Synchronization

/// The faults injected on this node, oldest first (like scenarios, held in memory: a fault is set on the
/// node that receives it). A request to a faulted endpoint takes the oldest live fault for it.
final class EndpointFaults: Sendable {
    /// The most faults held at once.
    static let capacity = 100

    private struct State {
        var faults: [EndpointFault] = []
        var nextID = 1
    }

    private let state = Mutex(State())
    /// Whether any fault is held, read without the lock: a provider with none pays one atomic load per
    /// request to a faultable endpoint.
    private let armed = Atomic<Bool>(false)

    /// True when a fault may be held (one atomic load).
    var isArmed: Bool { armed.load(ordering: .acquiring) }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Adds a fault; nil when ``capacity`` faults are held already.
    func add(_ request: EndpointFaultRequest) -> EndpointFault? {
        let now = Self.now()
        return state.withLock { state -> EndpointFault? in
            state.faults.removeAll { Self.isOver($0, now: now) }
            guard state.faults.count < Self.capacity else { return nil }
            let fault = EndpointFault(
                id: state.nextID, endpoints: request.endpoints, answer: request.answer, delay: request.delay,
                remaining: request.count, expiresAt: request.seconds.map { now + UInt64($0 * 1_000_000_000) },
                rotatedDocuments: request.rotatedDocuments
            )
            state.nextID += 1
            state.faults.append(fault)
            armed.store(true, ordering: .releasing)
            return fault
        }
    }

    /// The live faults, oldest first.
    var all: [EndpointFault] {
        let now = Self.now()
        return state.withLock { state in
            state.faults.removeAll { Self.isOver($0, now: now) }
            return state.faults
        }
    }

    /// Removes every fault; returns how many there were.
    func clear() -> Int {
        state.withLock { state in
            defer {
                state.faults.removeAll()
                armed.store(false, ordering: .releasing)
            }
            return state.faults.count
        }
    }

    /// The fault that takes this request to `endpoint`, counting it; nil when none does. A check that no
    /// fault is held costs one atomic load.
    func take(_ endpoint: EndpointFault.Endpoint) -> EndpointFault? {
        guard armed.load(ordering: .acquiring) else { return nil }
        let now = Self.now()
        return state.withLock { state -> EndpointFault? in
            state.faults.removeAll { Self.isOver($0, now: now) }
            if state.faults.isEmpty { armed.store(false, ordering: .releasing) }
            guard let index = state.faults.firstIndex(where: { $0.endpoints.contains(endpoint) }) else { return nil }
            let fault = state.faults[index]
            if let remaining = fault.remaining {
                if remaining <= 1 {
                    state.faults.remove(at: index)
                    if state.faults.isEmpty { armed.store(false, ordering: .releasing) }
                } else {
                    state.faults[index].remaining = remaining - 1
                }
            }
            return fault
        }
    }

    private static func isOver(_ fault: EndpointFault, now: UInt64) -> Bool {
        if let remaining = fault.remaining, remaining <= 0 { return true }
        if let expiresAt = fault.expiresAt, now >= expiresAt { return true }
        return false
    }
}
