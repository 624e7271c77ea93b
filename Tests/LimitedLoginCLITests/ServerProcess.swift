import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `limited-login serve` running as a child process, as a user would start it.
final class ServerProcess: @unchecked Sendable {
    enum StartError: Error, CustomStringConvertible {
        case exited(status: Int32, output: String)
        case timedOut(output: String)

        var description: String {
            switch self {
            case .exited(let status, let output): return "serve exited with \(status): \(output)"
            case .timedOut(let output): return "serve did not report its URL in time: \(output)"
            }
        }
    }

    /// What the child printed, filled by the pipe's reader thread.
    final class OutputBuffer: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ more: String) { lock.withLock { text += more } }
        var value: String { lock.withLock { text } }
    }

    private let process: Process
    private let printed: OutputBuffer
    let baseURL: String

    private init(process: Process, printed: OutputBuffer, baseURL: String) {
        self.process = process
        self.printed = printed
        self.baseURL = baseURL
    }

    /// Starts the server and waits until it prints its base URL.
    static func start(_ arguments: [String], directory: URL) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = CLIProcess.binary
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let printed = OutputBuffer()
        try await ProcessLaunch.start(process)
        PipeReader.follow(output.fileHandleForReading) { printed.append(String(decoding: $0, as: UTF8.self)) }
        for _ in 0..<300 {
            let text = printed.value
            if text.contains("(Ctrl-C stops)"),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Limited Login provider running at ") })
            {
                return ServerProcess(process: process, printed: printed, baseURL: String(line.dropFirst("Limited Login provider running at ".count)))
            }
            if !process.isRunning { throw StartError.exited(status: process.terminationStatus, output: text) }
            try await Task.sleep(for: .milliseconds(100))
        }
        ProcessLaunch.signal(process, SIGKILL)
        throw StartError.timedOut(output: printed.value)
    }

    /// Everything the server printed so far.
    var output: String { printed.value }

    var isRunning: Bool { process.isRunning }

    /// The exit status, once it has exited.
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// Sends a signal without waiting.
    func signal(_ signal: Int32) async {
        ProcessLaunch.signal(process, signal)
    }

    /// Stops the server with a signal (SIGKILL simulates a crash) and waits for it to exit.
    func stop(signal: Int32 = SIGTERM) async {
        ProcessLaunch.signal(process, signal)
        for _ in 0..<100 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    deinit {
        if process.isRunning { ProcessLaunch.signal(process, SIGKILL) }
    }
}

/// One HTTP exchange, without following redirects.
struct HTTPExchange {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    static func send(
        _ url: String, method: HTTPMethod = .GET, cookie: String? = nil, form: String? = nil, headers: [(String, String)] = []
    ) async throws -> HTTPExchange {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let response = try await client.execute(request, timeout: .seconds(20))
            let body = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            return HTTPExchange(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
