import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard output and standard error without ever crashing: when the reader has gone
/// (`limited-login verify … | head -1`), further output is dropped and the command still ends with its own
/// exit status. (Foundation's `FileHandle.write` traps on a broken pipe.)
enum StandardStreams {
    /// Called once at start: a closed pipe then fails a write with `EPIPE` instead of killing the process.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Through the log's writer, after the log lines queued before it (``LogLineWriter``).
    static func writeError(_ text: String) { LogLineWriter.standardError.writeNow(text) }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return  // EPIPE and the rest: the reader is gone; nothing more can be said there.
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Writes a line to standard output.
func printLine(_ text: String) {
    StandardStreams.writeOutput(text + "\n")
}

/// Writes a line to standard error.
func printErrorLine(_ text: String) {
    StandardStreams.writeError(text + "\n")
}
