import HTTPTypes
import Hummingbird
import HummingbirdCore
import LimitedLoginJOSE
import LimitedLoginProvider
@_spi(Benchmarks) import LimitedLoginProvider
import Logging
import NIOCore

/// The ceiling of the `issue` benchmark: a Hummingbird 2 router with one route at the dialog's path whose
/// handler signs fixed claims and answers with the redirect, and nothing else: no session, store, grant,
/// parameter check or claims to build, and no middleware. Its connections run on their event loops, as
/// the provider's do (`EventLoopTaskExecutor`).
///
/// It is what any provider on Hummingbird and loopback TCP could reach on this machine: the signature plus
/// the HTTP exchange and the kernel's work for it. The distance between it and the provider is the
/// provider's own work; the distance between it and bare signing is the server's and the load's.
enum SigningRouterServer {
    /// Serves the dialog path on a loopback port for the length of `body`, answering each GET with a 302
    /// whose `Location` carries a token signed by `signer` over `claims`.
    static func with<Value: Sendable>(
        signer: JWSSigner, claims: JSONObject, _ body: @Sendable (_ port: Int) async throws -> Value
    ) async throws -> Value {
        let router = Router()
        let path = String(BenchProvider.dialogTarget.prefix { $0 != "?" })
        router.get(RouterPath(path)) { _, _ in
            let token = try signer.sign(claims: claims)
            return Response(status: .found, headers: [.location: "https://bench.example/cb#id_token=\(token)&state=s"])
        }
        return try await serveOnLoopback(
            responder: router.buildResponder(),
            server: HTTPServerBuilder { responder in EventLoopHTTP1Channel(http1: HTTP1Channel(responder: responder)) },
            serverName: "limited-login",
            body
        )
    }
}
