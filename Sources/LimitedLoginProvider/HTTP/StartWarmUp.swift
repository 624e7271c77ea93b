import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import SQLiteNIO
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Work a provider's start needs whatever its options say, begun on the other core: `serve` begins it
/// before it parses its command line, ``LimitedLoginProvider/prepare(_:logger:)`` at the latest
/// (docs/PERFORMANCE.md, "Start"). Once per process.
public enum StartWarmUp {
    /// Begins the warm-up, once; later calls do nothing.
    public static func begin() {
        _ = begun
    }

    /// Tells the warm-up not to rehearse the server's start: the real server is starting (``EarlyServer``).
    static func serverStartsEarly() {
        serverStartsEarlyFlag.store(true, ordering: .relaxed)
    }

    private static let serverStartsEarlyFlag = Atomic<Bool>(false)

    private static let begun: Void = {
        Task.detached(priority: .high) {
            // The event loops and the thread pool that the store's driver and the server run on: threads
            // made one after another, each waited for until it runs.
            _ = MultiThreadedEventLoopGroup.singleton.any()
            _ = NIOThreadPool.singleton
            await rehearseStore()
            // A server that starts while the provider is prepared is its own rehearsal.
            if !serverStartsEarlyFlag.load(ordering: .relaxed) { await rehearseServer() }
            loadCalendar()
        }
    }()

    /// SQLite's start (the library's initialization, the driver's first connection and its first
    /// statement), on a throwaway in-memory database, while `serve` parses its options: the store's own
    /// open then took 0.3–0.5 ms instead of 1.0 (docs/PERFORMANCE.md, "Start").
    static func rehearseStore() async {
        let logger = Logger(label: "limited-login.warm-up", factory: { _ in SwiftLogNoOpLogHandler() })
        guard let connection = try? await SQLiteConnection.open(storage: .memory, logger: logger) else { return }
        _ = try? await connection.query("PRAGMA quick_check")
        try? await connection.close()
    }

    /// Loads the Gregorian calendar and the GMT zone (ICU data), as formatting an HTTP `Date` does.
    static func loadCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        _ = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: Date())
        _ = Date.now.formatted(Date.FormatStyle(timeZone: .gmt).weekday(.abbreviated))
    }

    /// The server's start and one request, rehearsed on a loopback port nobody is told of, with the
    /// provider's own server types: what the runtime does once per process for them (generic types made,
    /// protocol conformances looked up, code paged in) is then done when the real server starts. Returns
    /// the port it used and the status line it was answered with (nil when no port, or no answer within
    /// `seconds` each way, was had); the server is stopped when it returns.
    @discardableResult
    static func rehearseServer(answerWithin seconds: Int = 1) async -> (port: Int, statusLine: String?)? {
        let logger = Logger(label: "limited-login.warm-up", factory: { _ in SwiftLogNoOpLogHandler() })
        let router = Router()
        router.get("/") { _, _ in Response(status: .noContent) }
        // The server takes connections only once `onServerRunning` has returned: the port is passed out.
        let bound = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: router.buildResponder(),
            server: .http1(limits: ConnectionLimits(), logger: logger),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "limited-login"),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { bound.continuation.yield(port) }
                bound.continuation.finish()
            },
            logger: logger
        )
        // Stopped as the provider's own server is, gracefully (cancelling a running server is not a way
        // to stop it).
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let serving = Task {
            // A loopback port that cannot be had ends the rehearsal, not the start.
            try? await group.run()
            bound.continuation.finish()
        }
        var rehearsed: (port: Int, statusLine: String?)?
        for await port in bound.stream {
            // On a thread of its own: a blocking exchange must not hold a thread the start needs.
            let statusLine = await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
                Thread.detachNewThread { done.resume(returning: exchange(port: port, within: seconds)) }
            }
            rehearsed = (port, statusLine)
        }
        await group.triggerGracefulShutdown()
        await serving.value
        return rehearsed
    }

    /// One `GET /` over a blocking loopback connection (with `header` when given), read to the end of the
    /// answer's head (at most `seconds` each way); the answer's status line, or nil.
    static func exchange(port: Int, within seconds: Int, header: (name: String, value: String)? = nil) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let field = header.map { "\($0.name): \($0.value)\r\n" } ?? ""
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(field)Connection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return nil }
        // The answer is a 204: its head is the whole of it.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        return String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }
}
