import ArgumentParser
import Foundation

/// Ends a command with one line on standard error and an exit code, never a stack trace.
enum CommandFailure {
    /// Prints `message` to standard error and returns the exit code to throw.
    static func fail(_ message: String, code: Int32 = 1) -> ExitCode {
        printErrorLine(message)
        return ExitCode(code)
    }
}

/// `message`, then `hint` as the next sentence when there is one (one full stop between them).
func withHint(_ message: String, _ hint: String?) -> String {
    guard let hint, !hint.isEmpty else { return message }
    var message = message
    while message.hasSuffix(".") { message.removeLast() }
    return message + ". " + hint
}
