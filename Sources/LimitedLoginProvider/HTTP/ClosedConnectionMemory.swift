import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory of closed connections back to the system after many have closed.
///
/// Each connection costs a few tens of kilobytes (pipeline, buffers, the task that serves it), allocated
/// on the event loop threads. When connections close, glibc's allocator keeps the freed memory in those
/// threads' arenas for reuse and returns only what lies at the very top of a heap, so a server that once
/// held 2,000 connections stays as large as it was then (measured: +54 MiB for 2,000 connections on a
/// debug build, all of it kept after they closed). `malloc_trim(0)` returns the free pages of every arena.
///
/// It runs once the open connections have fallen from their highest point since the last trim by
/// ``trimStep``, or by half that point (and at least ``smallestTrim``), one second after that (so a wave of
/// closes costs one trim), and at most once a second. Elsewhere than on glibc this does nothing.
///
/// Off unless the process asks for it (``ReturnedMemory/enable()``, which `limited-login serve` calls): trimming
/// walks every arena of the whole process, which is the serving process's business, not a library's. In a test
/// runner that also launched processes it was followed by crashes in Foundation's `Process.run`.
final class ClosedConnectionMemory: Sendable {
    /// Closed connections enough to return memory, however many remain open.
    static let trimStep = 256
    /// Below this many closed connections (about a megabyte), memory is never worth walking every arena for:
    /// a quiet server with a connection or two does not trim at every close.
    static let smallestTrim = 32

    private struct State {
        /// The most connections open at once since the last trim.
        var peak = 0
        var trimScheduled = false
    }

    private let state = Mutex(State())

    /// A connection opened; `open` are open now, counting it.
    func opened(nowOpen open: Int) {
        state.withLock { $0.peak = max($0.peak, open) }
    }

    /// A connection closed; `open` are open now. Schedules a trim on `eventLoop` when enough have closed.
    /// `openWhenTrimming` gives the number open at the time of the trim, the next peak's starting point.
    func closed(nowOpen open: Int, on eventLoop: any EventLoop, openWhenTrimming: @escaping @Sendable () -> Int) {
        let schedule = state.withLock { state -> Bool in
            let fall = state.peak - open
            guard !state.trimScheduled, fall >= Self.trimStep || (fall >= Self.smallestTrim && fall * 2 >= state.peak) else {
                return false
            }
            state.trimScheduled = true
            return true
        }
        guard schedule else { return }
        eventLoop.scheduleTask(in: .seconds(1)) { self.trim(nowOpen: openWhenTrimming()) }
    }

    private func trim(nowOpen open: Int) {
        if ReturnedMemory.isEnabled { _ = Self.mallocTrim?(0) }
        state.withLock { state in
            state.trimScheduled = false
            state.peak = open
        }
    }

    /// glibc's `malloc_trim`, looked up at run time: the Glibc module does not declare it (it lives in
    /// `malloc.h`), and other C libraries (musl, Darwin's) do not have it.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}

/// Whether closed connections' memory is handed back to the system (glibc `malloc_trim`): off by default,
/// on in `limited-login serve`.
public enum ReturnedMemory {
    private static let enabled = Atomic<Bool>(false)

    /// Turns trimming on for this process.
    public static func enable() { enabled.store(true, ordering: .relaxed) }

    static var isEnabled: Bool { enabled.load(ordering: .relaxed) }
}
