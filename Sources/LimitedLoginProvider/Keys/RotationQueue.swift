import Synchronization

/// Runs a node's key rotations one after another, in the order they were asked for: each waits for the one
/// before it to finish (or fail). Two rotations at once (two admin calls, the console and the CLI) would
/// otherwise interleave their statements, and a `drop_previous` one could drop the key the other just made.
final class RotationQueue: Sendable {
    /// The last rotation asked for, ended when its work is done.
    private let last = Mutex<Task<Void, Never>?>(nil)

    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let mine = Task { for await _ in finished {} }
        let previous = last.withLock { last -> Task<Void, Never>? in
            defer { last = mine }
            return last
        }
        defer { finish.finish() }
        await previous?.value
        return try await work()
    }
}
