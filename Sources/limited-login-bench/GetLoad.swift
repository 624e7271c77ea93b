import Foundation
import Synchronization

/// A load of GET requests for one path: `clients` threads, each with its own keep-alive connection and the
/// minimal blocking client the dialog load uses, all sending the same request in a loop for a while.
struct GetLoad {
    var clients: Int

    /// Requests answered per second over `seconds`; every answer must have status `expectedStatus`.
    func run(seconds: Double, port: Int, path: String, expectedStatus: Int = 200) async throws -> Double {
        let clients = self.clients
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        return try await withCheckedThrowingContinuation { continuation in
            let clock = ContinuousClock()
            let start = clock.now
            let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
            let total = Mutex(0)
            let failure = Mutex<String?>(nil)
            let finished = DispatchGroup()
            for _ in 0..<clients {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    do {
                        let connection = try RawHTTPConnection(port: port)
                        var count = 0
                        while clock.now < deadline {
                            for response in try connection.exchange(request, headerName: "etag") {
                                guard response.status == expectedStatus else {
                                    failure.withLock { $0 = "\(path) answered \(response.status)" }
                                    return
                                }
                                count += 1
                            }
                        }
                        total.withLock { $0 += count }
                    } catch {
                        failure.withLock { $0 = "a client failed: \(error)" }
                    }
                }.start()
            }
            finished.notify(queue: .global()) {
                if let message = failure.withLock({ $0 }) {
                    continuation.resume(throwing: BenchmarkError.unexpectedResponse(message))
                } else {
                    continuation.resume(returning: Double(total.withLock { $0 }) / (clock.now - start).seconds)
                }
            }
        }
    }
}
