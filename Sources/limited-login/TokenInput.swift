import Foundation

/// Reads a token from the command line or, when none is given (or it is `-`), from standard input.
enum TokenInput {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "no token given: pass it as an argument, or pipe it on standard input"
        }
    }

    static func read(_ argument: String?) throws -> String {
        if let argument, argument != "-" {
            return argument.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if argument == nil, isatty(STDIN_FILENO) != 0 { throw Missing() }
        // Bounded read: a token is at most a few KiB; more than 1 MiB is not a token.
        let data = FileHandle.standardInput.readData(ofLength: 1024 * 1024)
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { throw Missing() }
        return text
    }
}
