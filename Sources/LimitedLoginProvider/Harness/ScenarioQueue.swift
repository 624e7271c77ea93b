import Synchronization

/// The queued scenarios of a provider process, in order. Kept in memory: a restart empties it, and nodes
/// sharing a PostgreSQL database each have their own (queue on the node the dialog will reach).
public final class ScenarioQueue: Sendable {
    private struct State {
        var nextID = 1
        var queued: [Scenario] = []
    }

    /// A queue never holds more than this many; a test that queues more has forgotten to clear it.
    public static let capacity = 1000

    private let state = Mutex(State())

    public init() {}

    /// Queues an outcome; nil when the queue is full.
    func add(appID: String, userID: String?, outcome: Scenario.Outcome) -> Scenario? {
        state.withLock { state in
            guard state.queued.count < Self.capacity else { return nil }
            let scenario = Scenario(id: state.nextID, appID: appID, userID: userID, outcome: outcome)
            state.nextID += 1
            state.queued.append(scenario)
            return scenario
        }
    }

    /// Everything queued, oldest first.
    public var all: [Scenario] { state.withLock { $0.queued } }

    /// Empties the queue (or only an app's scenarios); returns how many were removed.
    @discardableResult
    func clear(appID: String? = nil) -> Int {
        state.withLock { state in
            let before = state.queued.count
            if let appID { state.queued.removeAll { $0.appID == appID } } else { state.queued.removeAll() }
            return before - state.queued.count
        }
    }

    /// Removes the scenario with this ID; false when none is queued.
    func remove(id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.queued.firstIndex(where: { $0.id == id }) else { return false }
            state.queued.remove(at: index)
            return true
        }
    }

    /// Takes the oldest scenario for this app that is for this person or for anyone, when `accept` says
    /// this is the moment for it (it stays queued otherwise, so that the order holds).
    func take(appID: String, userID: String, if accept: (Scenario.Outcome) -> Bool = { _ in true }) -> Scenario? {
        state.withLock { state in
            guard let index = state.queued.firstIndex(where: { $0.appID == appID && ($0.userID == nil || $0.userID == userID) }),
                accept(state.queued[index].outcome)
            else { return nil }
            return state.queued.remove(at: index)
        }
    }
}
