import Foundation

/// `serve --exec CMD`: runs the command once the provider accepts connections, with the provider's
/// addresses in its environment (Firebase's `emulators:exec`), and reports how it ended.
enum ServeExec {
    /// The variables the command gets, beside the ones it inherits.
    static func environment(baseURL: String, issuer: String, discoveryURL: String, jwksURL: String, appID: String?, adminToken: String) -> [String: String] {
        var variables = [
            "LIMITED_LOGIN_URL": baseURL, "LIMITED_LOGIN_PROVIDER": baseURL, "LIMITED_LOGIN_ISSUER": issuer,
            "LIMITED_LOGIN_DISCOVERY_URL": discoveryURL, "LIMITED_LOGIN_JWKS_URL": jwksURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken,
        ]
        if let appID { variables["LIMITED_LOGIN_APP_ID"] = appID }
        return variables
    }

    /// Runs `command` with `/bin/sh -c`, standard input, output and error inherited, and returns its exit
    /// status (128 + the signal when a signal ended it).
    static func run(_ command: String, adding variables: [String: String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(variables) { $1 }
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                let status = finished.terminationStatus
                continuation.resume(returning: finished.terminationReason == .uncaughtSignal ? 128 + status : status)
            }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
