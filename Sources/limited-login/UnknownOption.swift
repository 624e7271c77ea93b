import ArgumentParser
import LimitedLoginJOSE

/// Finds an option the command does not have (`--nonse`), so that it is reported first, for what it is.
///
/// swift-argument-parser runs a command's `validate()` before it complains about arguments it did not use,
/// so `verify --nonse n` was answered "choose exactly one of --nonce, --raw-nonce or --no-nonce". This is
/// consulted only when parsing failed; it reads the command tree from the parser's own description of it.
enum UnknownOption {
    struct Found: Equatable {
        /// The option as typed, without a value (`--nonse`).
        var option: String
        /// The command it was given to (`limited-login verify`).
        var command: String
        /// The command's option closest to it, when one is close (`--nonce`).
        var suggestion: String?

        var message: String {
            var text = "Error: unknown option '\(option)' for \(command)."
            if let suggestion { text += " Did you mean '\(suggestion)'?" }
            return text + " See '\(command) --help'."
        }
    }

    /// The first long option in `arguments` (after the program name) that the command they name does not know.
    static func first(in arguments: [String], tree: String = LimitedLoginCommand._dumpHelp()) -> Found? {
        guard let document = try? StrictJSONParser(maximumSize: 4 << 20, maximumDepth: 64).parse(Array(tree.utf8)).objectValue,
            var node = document["command"]?.objectValue
        else { return nil }
        var path = [node["commandName"]?.stringValue ?? "limited-login"]
        var index = 0
        // Descend through the subcommands the arguments name.
        while index < arguments.count, !arguments[index].hasPrefix("-"),
            let next = node["subcommands"]?.arrayValue?.compactMap(\.objectValue).first(where: { $0["commandName"]?.stringValue == arguments[index] })
        {
            node = next
            path.append(arguments[index])
            index += 1
        }
        var known: Set<String> = ["--help", "-h", "--version", "--experimental-dump-help"]
        for argument in node["arguments"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            for name in argument["names"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                guard let text = name["name"]?.stringValue else { continue }
                known.insert((name["kind"]?.stringValue == "short" ? "-" : "--") + text)
                if name["kind"]?.stringValue == "longWithSingleDash" { known.insert("-" + text) }
            }
        }
        for argument in arguments[index...] {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let option = String(argument.split(separator: "=", maxSplits: 1)[0])
            guard !known.contains(option) else { continue }
            let close = known.filter { $0.hasPrefix("--") }.map { ($0, distance($0, option)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
            return Found(option: option, command: path.joined(separator: " "), suggestion: close?.0)
        }
        return nil
    }

    /// Levenshtein distance, for a suggestion.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
