import Foundation

/// `serve` options from the environment (issue: configuration without flags, as containers and CI set it):
/// every option `--name` also reads `LIMITED_LOGIN_NAME` (dashes become underscores); a flag on the command
/// line wins. Flags read true/false (also 1/0, yes/no).
///
/// Not `--ca-file`: its variable, `LIMITED_LOGIN_CA_FILE`, names a CA the client commands trust (and `serve
/// --exec` sets it for its command), so reading it as the file `serve --tls` writes would overwrite that CA.
enum ServeEnvironment {
    /// Every `serve` option read from the environment and whether it is a flag (takes no value).
    static let options: [(name: String, isFlag: Bool)] = [
        ("host", false), ("port", false), ("database", false), ("issuer", false), ("public-url", false),
        ("fixtures", false), ("admin-token", false), ("no-demo-data", true), ("no-user-picker", true), ("log-level", false), ("log-format", false),
        ("request-log", false),
        ("id-token-lifetime", false), ("access-token-lifetime", false), ("data-access-lifetime", false),
        ("header-timeout", false), ("idle-timeout", false), ("body-timeout", false), ("max-connections", false),
        ("max-connections-per-address", false),
        ("exec", false), ("ready-file", false), ("export-on-exit", false), ("tls", true), ("init", true),
        ("trusted-proxy", false), ("exit-with-stdin", true), ("public-metrics", true), ("allow-private-callbacks", true),
    ]

    /// The variable that stands for `--name`.
    static func variable(for name: String) -> String {
        // ASCII by construction (the option names above): byte arithmetic, not Foundation's string search
        // (which cost the start half a millisecond before it parsed anything; docs/PERFORMANCE.md, "Start").
        let bytes = name.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "_")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
            default: byte
            }
        }
        return "LIMITED_LOGIN_" + String(decoding: bytes, as: UTF8.self)
    }

    /// Why a variable cannot be used.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// `arguments` (after the program name) with the variables' options added to a `serve` command line
    /// that does not give them itself. Other commands are returned unchanged.
    static func arguments(_ arguments: [String], environment: (String) -> String?) throws(Problem) -> [String] {
        guard arguments.first == "serve" else { return arguments }
        if arguments.contains("--help") || arguments.contains("-h") { return arguments }
        var result = arguments
        for (name, isFlag) in options {
            let variable = variable(for: name)
            guard let value = environment(variable), !value.isEmpty else { continue }
            let flag = "--" + name
            guard !arguments.contains(where: { $0 == flag || $0.hasPrefix(flag + "=") }) else { continue }
            if isFlag {
                switch value.lowercased() {
                case "1", "true", "yes": result.append(flag)
                case "0", "false", "no": break
                default: throw Problem(description: "\(variable) must be true or false, not \"\(value)\"")
                }
            } else {
                result.append(flag + "=" + value)
            }
        }
        return result
    }
}
