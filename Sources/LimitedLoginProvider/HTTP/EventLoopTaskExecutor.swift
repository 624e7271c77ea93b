import NIOCore

/// Runs a connection's Swift tasks on the connection's own event loop.
///
/// Hummingbird reads each request on the connection's event loop and hands it to a task on Swift's global
/// concurrent pool; the answer then goes back to the event loop to be written. Each request thus crosses
/// threads twice, which on a 2-core machine cost more than all the provider's own work for a static
/// endpoint (a bare router served a third more requests without it: docs/PERFORMANCE.md). With this
/// executor preferred by the task that serves a connection (``BoundedHTTP1Channel``), the whole request,
/// from reading it to writing the answer, runs on the event loop that owns the socket: a request that
/// arrives resumes its task in the same loop tick, and the answer is written without a hop.
///
/// Work that suspends (the store's thread pool, a timer) resumes here too. What runs here holds up the
/// loop's other connections while it runs, as any handler on an event loop does; the provider does no
/// blocking waits, a signature (half a millisecond) stays here, and the longer CPU work (password hashes,
/// key generation) goes to Swift's global pool through ``OffEventLoop``.
///
/// Public to the benchmarks only (`@_spi(Benchmarks)`), whose bare router can run the same way.
@_spi(Benchmarks)
public final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the event loop is Sendable; nothing else is stored.
    private let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
