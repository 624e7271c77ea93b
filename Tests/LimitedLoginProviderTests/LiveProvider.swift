import Foundation
import Hummingbird
import HummingbirdTesting
@testable import LimitedLoginProvider

/// Runs a provider on 127.0.0.1 on a free port (HummingbirdTesting's live mode: a real server and a
/// real HTTP client) for the length of `body`, then stops it and closes its store.
func withLiveProvider<Value: Sendable>(
    _ configuration: ProviderConfiguration,
    _ body: @Sendable (_ baseURL: String, _ client: any TestClientProtocol, _ provider: LimitedLoginProvider) async throws -> Value
) async throws -> Value {
    let provider = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
    do {
        let value = try await provider.application().test(.live) { client in
            try await body(provider.urls.baseURL, client, provider)
        }
        await provider.store.close()
        return value
    } catch {
        await provider.store.close()
        throw error
    }
}

/// A fresh SQLite file path in a temporary folder.
func temporaryDatabasePath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("provider.sqlite").path
}
