import Foundation
import Synchronization

/// The dialog load of the benchmarks: `clients` threads, each with its own keep-alive connection and a
/// minimal blocking HTTP client (a full client library would spend on itself a good part of what is being
/// measured), spread evenly over the given ports, sending the signed-in dialog request in a loop.
struct DialogLoad {
    var clients: Int
    var pipelineDepth: Int

    /// Tokens received per second over `seconds`. Every response must be a redirect carrying an ID token.
    func run(seconds: Double, ports: [Int], session: String) async throws -> Double {
        let clients = self.clients, depth = self.pipelineDepth
        let requests = ports.map { port in
            Array("GET \(BenchProvider.dialogTarget) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: ll_session=\(session)\r\n\r\n".utf8)
        }
        return try await withCheckedThrowingContinuation { continuation in
            let clock = ContinuousClock()
            let start = clock.now
            let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
            let total = Mutex(0)
            let failure = Mutex<String?>(nil)
            let finished = DispatchGroup()
            // Real threads, not concurrentPerform (which runs only as many at once as there are cores).
            for client in 0..<clients {
                let port = ports[client % ports.count], request = requests[client % ports.count]
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    do {
                        let connection = try RawHTTPConnection(port: port)
                        var count = 0
                        while clock.now < deadline {
                            for response in try connection.exchange(request, depth: depth, headerName: "location") {
                                guard response.status == 302, response.header?.contains("#id_token=") == true else {
                                    failure.withLock { $0 = "the dialog answered \(response.status) without a token" }
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
