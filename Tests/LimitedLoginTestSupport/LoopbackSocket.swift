import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to 127.0.0.1 that sends exactly the bytes a test gives it, when it gives them,
/// and tells when the server has closed the connection: for tests of a server's connection limits, which
/// an HTTP client library would hide (it buffers, retries and reconnects).
///
/// Reads never block: waiting polls every 10 ms with `Task.sleep`, so a test holding thousands of these
/// never ties up a thread of the cooperative pool that the server under test may need. Choreography whose
/// timing matters runs on a thread of its own (`onOwnThread`) with the `…Blocking` waits.
public final class LoopbackSocket: @unchecked Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case socket(Int32)
        case connect(Int32)
        case send(Int32)
        case closedBeforeResponse(received: String)
        case noResponse(within: Duration, received: String)

        public var description: String {
            switch self {
            case .socket(let code): return "socket() failed: \(String(cString: strerror(code)))"
            case .connect(let code): return "connect() failed: \(String(cString: strerror(code)))"
            case .send(let code): return "send() failed: \(String(cString: strerror(code)))"
            case .closedBeforeResponse(let received): return "the server closed the connection before a whole response: \(received.debugDescription)"
            case .noResponse(let within, let received): return "no whole response within \(within): \(received.debugDescription)"
            }
        }
    }

    /// What one look at the socket found.
    public enum State: Equatable {
        case open
        /// The server closed the connection (end of stream, or reset).
        case closed
    }

    private let descriptor: Int32
    private var isReleased = false
    /// Everything received and not yet taken by `response(within:)`.
    public private(set) var received: [UInt8] = []
    private var peerClosed = false

    /// Connects to `127.0.0.1:port` (a blocking connect, which the kernel completes at once on loopback
    /// while the listen backlog has room); `from` is the loopback address to connect from (any of
    /// 127.0.0.0/8 on Linux), so a test can stand for clients at different addresses.
    public init(port: Int, from source: String? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.socket(errno) }
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        if let source {
            try Self.use(descriptor, Self.address(source, port: 0)) { bind($0, $1, $2) }
        }
        try Self.use(descriptor, Self.address("127.0.0.1", port: port)) { connect($0, $1, $2) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { release() }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    /// Calls `bind` or `connect` (`call`) with `address`; on failure closes the descriptor and throws.
    private static func use(
        _ descriptor: Int32, _ address: sockaddr_in, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws {
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw Failure.connect(code)
        }
    }

    /// Closes the connection from this side.
    public func release() {
        guard !isReleased else { return }
        isReleased = true
        Self.closeDescriptor(descriptor)
    }

    private static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Sends `text` (small writes: loopback buffers take them whole). A send to a connection the server
    /// has closed may succeed (the kernel learns of the close later) or fail; `state()` tells.
    public func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Self.systemSend(descriptor, $0) }
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Failure.send(errno)
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// `send(2)`, without SIGPIPE when the server has closed the connection (which would end the test process).
    private static func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(descriptor, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    /// Reads whatever has arrived, without waiting, and says whether the server has closed the connection.
    @discardableResult
    public func state() -> State {
        guard !peerClosed else { return .closed }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                received += buffer[0..<count]
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                peerClosed = true
                return .closed
            }
            return .open
        }
    }

    /// Waits until the server closes the connection; returns how long that took, or nil if it was still
    /// open after `limit`.
    public func waitUntilClosed(within limit: Duration) async throws -> Duration? {
        let start = ContinuousClock.now
        while true {
            switch lookForClose(since: start, limit: limit) {
            case .again: try await Task.sleep(for: Self.pollInterval)
            case .closed(let after): return after
            case .openAtLimit: return nil
            }
        }
    }

    /// `waitUntilClosed(within:)` blocking the calling thread: for choreography run with `onOwnThread`,
    /// which must not wait for a turn on a cooperative pool that a loaded machine keeps busy.
    public func waitUntilClosedBlocking(within limit: Duration) -> Duration? {
        let start = ContinuousClock.now
        while true {
            switch lookForClose(since: start, limit: limit) {
            case .again: pauseThread(for: Self.pollInterval)
            case .closed(let after): return after
            case .openAtLimit: return nil
            }
        }
    }

    /// Waits for one whole response (head, and a body of its `Content-Length`) and returns it as text,
    /// leaving any bytes after it for the next call.
    public func response(within limit: Duration = LoopbackSocket.answerLimit) async throws -> String {
        let start = ContinuousClock.now
        while true {
            if let response = try wholeResponse(since: start, limit: limit) { return response }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    /// `response(within:)` blocking the calling thread (see `waitUntilClosedBlocking`).
    public func responseBlocking(within limit: Duration = LoopbackSocket.answerLimit) throws -> String {
        let start = ContinuousClock.now
        while true {
            if let response = try wholeResponse(since: start, limit: limit) { return response }
            pauseThread(for: Self.pollInterval)
        }
    }

    /// Sends `request` and waits for its response.
    public func exchange(_ request: String, within limit: Duration = LoopbackSocket.answerLimit) async throws -> String {
        try send(request)
        return try await response(within: limit)
    }

    /// `exchange(_:within:)` blocking the calling thread (see `waitUntilClosedBlocking`).
    public func exchangeBlocking(_ request: String, within limit: Duration = LoopbackSocket.answerLimit) throws -> String {
        try send(request)
        return try responseBlocking(within: limit)
    }

    private static let pollInterval = Duration.milliseconds(10)

    /// How long an answer is waited for unless a test says otherwise: a minute. A connection that closes
    /// ends the wait at once; only an answer that never comes waits this long. Ten seconds was too short
    /// for the suite beside two busy processes on a slower machine (two timeout tests got no answer within 10 s).
    public static let answerLimit = Duration.seconds(60)

    private enum CloseLook {
        case again
        case closed(after: Duration)
        case openAtLimit
    }

    /// One look for the server's close, `start` being when the wait began.
    private func lookForClose(since start: ContinuousClock.Instant, limit: Duration) -> CloseLook {
        let elapsed = ContinuousClock.now - start
        if state() == .closed { return .closed(after: elapsed) }
        return elapsed < limit ? .again : .openAtLimit
    }

    /// One look for a whole response: the response, or nil to look again; throws once it cannot come.
    private func wholeResponse(since start: ContinuousClock.Instant, limit: Duration) throws -> String? {
        let closed = state() == .closed
        if let length = Self.wholeResponseLength(received) {
            let response = String(decoding: received[0..<length], as: UTF8.self)
            received.removeFirst(length)
            return response
        }
        if closed { throw Failure.closedBeforeResponse(received: String(decoding: received, as: UTF8.self)) }
        if ContinuousClock.now - start > limit { throw Failure.noResponse(within: limit, received: String(decoding: received, as: UTF8.self)) }
        return nil
    }

    /// The length of the first whole response in `bytes`, or nil while it is incomplete.
    private static func wholeResponseLength(_ bytes: [UInt8]) -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let headEnd = (0...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) })
        else { return nil }
        let head = String(decoding: bytes[0..<headEnd], as: UTF8.self).lowercased()
        let length =
            head.split(separator: "\r\n")
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = headEnd + 4 + length
        return bytes.count >= total ? total : nil
    }
}

/// A plain `GET` with keep-alive, for tests that count connections rather than read pages.
public func keepAliveRequest(_ path: String) -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"
}

/// Runs `work` on a thread of its own and gives its result: for a client's timing (send a byte every
/// 200 ms, notice a close within 10 ms) that must hold while the whole suite keeps the cooperative pool's
/// few threads busy. Seen in CI: `Task.sleep(for: 100 ms)` waking seconds late on a loaded 2-core machine.
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}

/// Pauses the calling thread (for choreography run with `onOwnThread`).
public func pauseThread(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
}
