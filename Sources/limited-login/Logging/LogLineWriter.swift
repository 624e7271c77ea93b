import Dispatch
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `serve`'s log lines go: standard error, through a queue that a request never waits on.
///
/// A request's line is pushed onto a lock-free stack (one compare-and-swap; no lock, no system call) and a
/// writer thread takes the whole stack every few milliseconds and writes it in one `write`, in the order
/// the lines were pushed. Before, each line took swift-log's lock around its own `write` (and read the
/// time zone from /etc/localtime): at tens of thousands of requests a second, that halved the static
/// endpoints (docs/PERFORMANCE.md, "Request logging").
///
/// Nothing is lost: ``flush()`` writes what is queued and runs at exit (an `atexit` handler, which
/// `SIGTERM`'s graceful stop reaches too), for every error line (a failure is on disk before anything else
/// can go wrong), and before any other text on standard error (``StandardStreams``), so the order of what
/// a reader sees is the order it was said. A queue that grows past ``backlogLimit`` (a reader that does
/// not keep up) is written by the line that found it full: the writer slows down to the reader's pace
/// rather than holding lines without bound.
final class LogLineWriter: Sendable {
    /// Standard error's writer; its thread starts with the first queued line.
    static let standardError = LogLineWriter(descriptor: STDERR_FILENO)

    /// How many bytes may wait in the queue before the line that finds it full writes them itself.
    static let backlogLimit = 1 << 20

    /// How long the writer thread lets lines gather after the first one wakes it, so that a busy
    /// provider writes hundreds of lines in one system call.
    private static let gathering: useconds_t = 5_000

    private let descriptor: Int32
    /// The top of the stack of queued lines: the bits of an `Unmanaged<QueuedLine>`, 0 when empty.
    private let top = Atomic<UInt>(0)
    private let queuedBytes = Atomic<Int>(0)
    private let wake = DispatchSemaphore(value: 0)
    /// Held while lines are taken from the queue and written, so that two batches never cross.
    private let writing = Mutex(())
    private let threadStarted = Atomic<Bool>(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A log line at `level`: an error (or worse) written at once, anything else queued.
    func write(_ line: String, level: Logger.Level) {
        if level >= .error { writeNow(line) } else { enqueue(line) }
    }

    /// Queues `line` (with its newline) to be written soon.
    func enqueue(_ line: String) {
        var line = line
        line.withUTF8 { utf8 in
            enqueue(capacity: utf8.count) { buffer in
                _ = buffer.initialize(fromContentsOf: utf8)
                return utf8.count
            }
        }
    }

    /// Queues a line (with its newline) that `write` writes into its queue entry, at most `capacity` bytes;
    /// `write` returns the count. The line's bytes and the entry are one allocation: a request's line costs
    /// no string of its own (docs/PERFORMANCE.md, "Request logging").
    func enqueue(capacity: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        startThreadOnce()
        let node = QueuedLine.make(capacity: capacity, write)
        let bytes = node.count
        let bits = UInt(bitPattern: Unmanaged.passRetained(node).toOpaque())
        var expected = top.load(ordering: .relaxed)
        while true {
            node.below = expected
            let (exchanged, found) = top.compareExchange(expected: expected, desired: bits, ordering: .releasing)
            if exchanged { break }
            expected = found
        }
        // The first line on an empty queue wakes the writer; the others find it already awake.
        if expected == 0 { wake.signal() }
        if queuedBytes.add(bytes, ordering: .relaxed).newValue > Self.backlogLimit { flush() }
    }

    /// Writes `text` at once, after everything queued before it.
    func writeNow(_ text: String) {
        writing.withLock { _ in
            var bytes = takeQueued()
            bytes.append(contentsOf: text.utf8)
            write(bytes)
        }
    }

    /// Writes everything queued, in order; returns when it is written (or the reader has gone).
    func flush() {
        writing.withLock { _ in
            let bytes = takeQueued()
            if !bytes.isEmpty { write(bytes) }
        }
    }

    /// The queued lines' bytes, oldest first; the queue is empty after.
    private func takeQueued() -> [UInt8] {
        var bits = top.exchange(0, ordering: .acquiring)
        guard bits != 0 else { return [] }
        var newestFirst: [QueuedLine] = []
        var bytes = 0
        while bits != 0 {
            let node = Unmanaged<QueuedLine>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
            newestFirst.append(node)
            bytes += node.count
            bits = node.below
        }
        var text: [UInt8] = []
        text.reserveCapacity(bytes)
        for node in newestFirst.reversed() { node.withBytes { text.append(contentsOf: $0) } }
        queuedBytes.subtract(bytes, ordering: .relaxed)
        return text
    }

    private func startThreadOnce() {
        guard !threadStarted.load(ordering: .relaxed), threadStarted.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        atexit { LogLineWriter.standardError.flush() }
        let thread = Thread { [self] in
            while true {
                wake.wait()
                usleep(Self.gathering)
                flush()
            }
        }
        thread.name = "log writer"
        thread.start()
    }

    /// Writes all of `bytes`, retrying interrupted and partial writes; a reader that has gone
    /// (`EPIPE`, with SIGPIPE ignored) ends it quietly.
    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var remaining = buffer[...]
            while !remaining.isEmpty {
                let chunk = UnsafeBufferPointer(rebasing: remaining)
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, chunk.baseAddress, chunk.count)
                #else
                let written = Darwin.write(descriptor, chunk.baseAddress, chunk.count)
                #endif
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                remaining = remaining.dropFirst(written)
            }
        }
    }
}

/// One queued line: its bytes stored in the same allocation, and the bits of the line queued before it.
private final class QueuedLine: ManagedBuffer<QueuedLineHeader, UInt8> {
    /// A line of at most `capacity` bytes, as `write` writes them (it returns the count).
    static func make(capacity: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> QueuedLine {
        let line = unsafeDowncast(create(minimumCapacity: capacity) { _ in QueuedLineHeader() }, to: QueuedLine.self)
        line.withUnsafeMutablePointers { header, start in
            header.pointee.count = min(capacity, max(0, write(UnsafeMutableBufferPointer(start: start, count: capacity))))
        }
        return line
    }

    var count: Int { header.count }

    var below: UInt {
        get { header.below }
        set { header.below = newValue }
    }

    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeMutablePointers { header, start in body(UnsafeBufferPointer(start: start, count: header.pointee.count)) }
    }
}

/// A queued line's count of bytes and the bits of the line queued before it.
private struct QueuedLineHeader {
    var below: UInt = 0
    var count = 0
}
