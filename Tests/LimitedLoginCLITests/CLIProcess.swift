import Foundation

/// Runs the built `limited-login` binary as a user would, capturing what it prints.
struct CLIProcess {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// The binary beside the test bundle (`.build/<triple>/debug/limited-login`).
    static var binary: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("limited-login"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("limited-login"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/limited-login"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs the binary off the cooperative thread pool: waiting on a child process there would starve
    /// the loopback servers the same test relies on.
    static func run(_ arguments: [String], input: String? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try runBlocking(arguments, input: input))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runBlocking(_ arguments: [String], input: String?) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read standard error on another thread so neither full pipe can stall the child.
        nonisolated(unsafe) var errorData = Data()
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        reading.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self)
        )
    }
}
