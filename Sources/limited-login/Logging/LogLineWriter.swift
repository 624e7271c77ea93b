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
        startThreadOnce()
        let bytes = line.utf8.count
        let node = Unmanaged.passRetained(QueuedLine(line))
        let bits = UInt(bitPattern: node.toOpaque())
        var expected = top.load(ordering: .relaxed)
        while true {
            node._withUnsafeGuaranteedRef { $0.below = expected }
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
            write(takeQueued() + text)
        }
    }

    /// Writes everything queued, in order; returns when it is written (or the reader has gone).
    func flush() {
        writing.withLock { _ in
            let text = takeQueued()
            if !text.isEmpty { write(text) }
        }
    }

    /// The queued lines, oldest first, as one text; the queue is empty after.
    private func takeQueued() -> String {
        var bits = top.exchange(0, ordering: .acquiring)
        guard bits != 0 else { return "" }
        var newestFirst: [String] = []
        while bits != 0 {
            let node = Unmanaged<QueuedLine>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
            newestFirst.append(node.text)
            bits = node.below
        }
        let bytes = newestFirst.reduce(0) { $0 + $1.utf8.count }
        var text = ""
        text.reserveCapacity(bytes)
        for line in newestFirst.reversed() { text += line }
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

    /// Writes all of `text`, retrying interrupted and partial writes; a reader that has gone
    /// (`EPIPE`, with SIGPIPE ignored) ends it quietly.
    private func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
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

/// One queued line and the bits of the line queued before it.
private final class QueuedLine: @unchecked Sendable {
    let text: String
    var below: UInt = 0

    init(_ text: String) { self.text = text }
}
