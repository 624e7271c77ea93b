import LimitedLoginJOSE
import Vapor

/// A key-set server on loopback (a second Vapor application, on a port the system picks), so the verifier
/// under test fetches its keys over HTTP as it would from a provider.
final class KeySetServer: Sendable {
    let application: Application
    /// `http://127.0.0.1:<port>/jwks`.
    let keySetURL: URL

    private init(application: Application, keySetURL: URL) {
        self.application = application
        self.keySetURL = keySetURL
    }

    /// Serves `keySet` at `/jwks` until ``stop()``.
    static func start(_ keySet: JSONWebKeySet) async throws -> KeySetServer {
        let application = try await Application.make(.testing)
        let document = keySet.serialized()
        application.get("jwks") { _ in
            Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(data: Data(document)))
        }
        do {
            try await application.server.start(address: .hostname("127.0.0.1", port: 0))
            guard let port = application.http.server.shared.localAddress?.port,
                let url = URL(string: "http://127.0.0.1:\(port)/jwks")
            else {
                throw Abort(.internalServerError, reason: "the key-set server has no port")
            }
            return KeySetServer(application: application, keySetURL: url)
        } catch {
            await application.server.shutdown()
            try await application.asyncShutdown()
            throw error
        }
    }

    func stop() async throws {
        await application.server.shutdown()
        try await application.asyncShutdown()
    }
}
