import Foundation
import Synchronization

/// The load generator the benchmarks share: `clients` real threads (not concurrentPerform, which runs only
/// as many at once as there are cores), each with its own keep-alive connection to a port and the minimal
/// blocking HTTP client (a full client library would spend on itself a good part of what is measured),
/// sending one request in a loop until the time is up.
enum ClientThreads {
    /// What a load did: answers per second, and the CPU time its client threads used (their own work and
    /// the kernel's for their system calls), which a benchmark can take out of the process's CPU time to
    /// leave the server's.
    struct Result {
        var rate: Double
        var clientCPUSeconds: Double
    }

    /// Answers per second over `seconds`. `check` reads each answer and returns why it is wrong, or nil;
    /// the first wrong answer ends that client and the run fails with it.
    static func run(
        clients: Int, seconds: Double, ports: [Int], requests: [[UInt8]], depth: Int = 1, headerName: String,
        check: @escaping @Sendable (RawHTTPConnection.Response) -> String?
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let clock = ContinuousClock()
            let start = clock.now
            let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
            let total = Mutex(0)
            let cpu = Mutex(0.0)
            let failure = Mutex<String?>(nil)
            let finished = DispatchGroup()
            for client in 0..<clients {
                let port = ports[client % ports.count]
                let request = requests[client % requests.count]
                finished.enter()
                Thread {
                    let cpuStart = CPUTime.thread()
                    defer {
                        let used = CPUTime.thread() - cpuStart
                        cpu.withLock { $0 += used }
                        finished.leave()
                    }
                    do {
                        let connection = try RawHTTPConnection(port: port)
                        var count = 0
                        while clock.now < deadline {
                            for response in try connection.exchange(request, depth: depth, headerName: headerName) {
                                if let problem = check(response) {
                                    failure.withLock { $0 = problem }
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
                    continuation.resume(
                        returning: Result(
                            rate: Double(total.withLock { $0 }) / (clock.now - start).seconds, clientCPUSeconds: cpu.withLock { $0 }
                        ))
                }
            }
        }
    }
}
