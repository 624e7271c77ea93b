import ArgumentParser
import Foundation

/// Ends a command with one line on standard error and an exit code, never a stack trace.
enum CommandFailure {
    /// Prints `message` to standard error and returns the exit code to throw.
    static func fail(_ message: String, code: Int32 = 1) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(code)
    }
}

/// Writes a line to standard output.
func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
