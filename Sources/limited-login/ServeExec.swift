import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --exec CMD`: runs the command once the provider accepts connections, with the provider's
/// addresses in its environment (Firebase's `emulators:exec`), and reports how it ended.
///
/// What a CI job relies on (issue #30):
/// - CMD runs under `bash -c` when bash is installed, else `/bin/sh -c`, in a process group of its own, with
///   the folder of this binary first on `PATH` (so `limited-login` inside CMD is this one).
/// - serve returns as soon as CMD's shell exits, with its status: processes CMD left running (`backend &`)
///   are sent SIGTERM, then SIGKILL after ``leftoverGrace``, never waited for.
/// - SIGTERM, SIGINT or SIGHUP to serve is passed on to CMD's group while the provider goes on answering, and
///   serve then stops once CMD has ended (SIGKILL to the group if it has not, the same grace after the signal;
///   ``ExecSignals``).
///
/// Foundation's `Process` is not used: on Linux it learns that a child ended when a socket the child
/// inherited closes, that is when every process CMD started in the background has ended too.
enum ServeExec {
    /// How long processes get after SIGTERM before SIGKILL.
    static let leftoverGrace: Duration = .seconds(5)

    /// The variables the command gets, beside the ones it inherits.
    static func environment(
        baseURL: String, issuer: String, discoveryURL: String, jwksURL: String, appID: String?, adminToken: String
    ) -> [String: String] {
        var variables = [
            "LIMITED_LOGIN_URL": baseURL, "LIMITED_LOGIN_PROVIDER": baseURL, "LIMITED_LOGIN_ISSUER": issuer,
            "LIMITED_LOGIN_DISCOVERY_URL": discoveryURL, "LIMITED_LOGIN_JWKS_URL": jwksURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken,
        ]
        if let appID { variables["LIMITED_LOGIN_APP_ID"] = appID }
        return variables
    }

    /// The shell CMD runs under: bash when installed (its `-c` runs a job's `&` children in CMD's group, and
    /// it is what people write CI scripts for), else the POSIX shell.
    static var shell: String {
        for candidate in ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return "/bin/sh"
    }

    /// The environment CMD gets: this process's, the `variables`, and this binary's folder first on `PATH`.
    static func commandEnvironment(
        adding variables: [String: String], base: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        var environment = base.merging(variables) { $1 }
        if let folder = executableFolder() {
            let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            environment["PATH"] = path.split(separator: ":").first.map(String.init) == folder ? path : folder + ":" + path
        }
        return environment
    }

    /// The folder this binary was run from (`/proc/self/exe`, symbolic links resolved).
    static func executableFolder() -> String? {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first.map {
                URL(fileURLWithPath: $0).standardizedFileURL.path
            }
        guard let path, path.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// Runs `command` as described above and returns its exit status (128 + the signal when a signal ended
    /// it). Cancelling the task (serve is stopping) sends CMD's group SIGTERM, then SIGKILL after the grace.
    static func run(_ command: String, adding variables: [String: String], signals: ExecSignals) async throws -> Int32 {
        let child = try signals.spawnCommand {
            try SpawnedGroup.spawn(shell: shell, command: command, environment: commandEnvironment(adding: variables))
        }
        defer { signals.commandEnded() }
        let status = await withTaskCancellationHandler {
            await child.exitStatus()
        } onCancel: {
            child.terminate(grace: leftoverGrace)
        }
        child.endLeftovers(grace: leftoverGrace)
        return status
    }
}
