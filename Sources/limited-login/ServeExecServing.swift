import LimitedLoginProvider
import Synchronization

extension ServeExec {
    /// Serves while `command` runs, then stops the provider; the command's exit status.
    static func serve(
        _ provider: LimitedLoginProvider, runningThen command: String, apps: [AppRecord], caFile: String?,
        onRunning: @escaping @Sendable (String) async -> Void, beforeClosing: @escaping @Sendable (LimitedLoginProvider) async -> Void,
        started: AsyncStream<String>, signals: ExecSignals
    ) async throws -> Int32 {
        let status = Mutex<Int32?>(nil)
        try await provider.run(onRunning: onRunning, beforeClosing: beforeClosing) {
            var iterator = started.makeAsyncIterator()
            guard let baseURL = await iterator.next() else { return }
            let urls = provider.urls
            var variables = ServeExec.environment(
                baseURL: baseURL, issuer: urls.issuer, discoveryURL: urls.discoveryURL, jwksURL: urls.jwksURL,
                appID: apps.first?.id, adminToken: provider.adminToken
            )
            if let caFile { variables["LIMITED_LOGIN_CA_FILE"] = caFile }
            do {
                let code = try await ServeExec.run(command, adding: variables, signals: signals)
                status.withLock { $0 = code }
            } catch {
                printErrorLine("limited-login serve: cannot run the --exec command: \(error)")
                status.withLock { $0 = 127 }
            }
        }
        // No status: the provider stopped (a signal) before the command ended.
        return status.withLock { $0 } ?? 1
    }
}
