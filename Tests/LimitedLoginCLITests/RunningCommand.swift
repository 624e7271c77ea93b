import Foundation

/// A built executable of the package running as a child process, its standard output and error
/// collected separately while it runs (a command that waits on the person, or a server).
final class RunningCommand: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var waitingFor: String
        var output: String
        var error: String
        var description: String { "timed out waiting for \(waitingFor); stdout: \(output) stderr: \(error)" }
    }

    private let process: Process
    private let standardOutput = ServerProcess.OutputBuffer()
    private let standardError = ServerProcess.OutputBuffer()

    /// Starts `executable` (a product beside `limited-login`) with `arguments` and extra environment.
    init(_ arguments: [String], executable: String = "limited-login", environment: [String: String] = [:]) async throws {
        process = Process()
        // Extra variables through env(1): setting Process.environment crashed Foundation's Process.run.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [CLIProcess.binary.deletingLastPathComponent().appendingPathComponent(executable).path] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let (out, err) = (standardOutput, standardError)
        try await ProcessLaunch.start(process)
        PipeReader.follow(output.fileHandleForReading) { out.append(String(decoding: $0, as: UTF8.self)) }
        PipeReader.follow(error.fileHandleForReading) { err.append(String(decoding: $0, as: UTF8.self)) }
    }

    var output: String { standardOutput.value }
    var error: String { standardError.value }
    var isRunning: Bool { process.isRunning }

    /// Waits until `find` returns a value from what was printed (stdout, stderr), or the process exits.
    func waitFor<Value>(_ what: String, seconds: Double = 30, _ find: (String, String) -> Value?) async throws -> Value {
        for _ in 0..<Int(seconds * 10) {
            if let value = find(output, error) { return value }
            if !process.isRunning, let value = find(output, error) { return value }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Timeout(waitingFor: what, output: output, error: error)
    }

    /// Waits for the process to exit and returns its status.
    func waitForExit(seconds: Double = 30) async throws -> Int32 {
        for _ in 0..<Int(seconds * 10) where process.isRunning {
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.isRunning { throw Timeout(waitingFor: "exit", output: output, error: error) }
        // Let the pipe readers catch the last bytes.
        try await Task.sleep(for: .milliseconds(100))
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning { ProcessLaunch.signal(process, SIGTERM) }
    }

    deinit {
        if process.isRunning { ProcessLaunch.signal(process, SIGKILL) }
    }
}
