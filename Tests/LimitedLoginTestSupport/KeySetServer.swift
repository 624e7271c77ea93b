import Foundation
import Hummingbird
import LimitedLoginJOSE
import Synchronization

/// A key-set server whose answers a test sets: document, status, Cache-Control, redirect, delay.
/// It counts the requests it serves, so a test can assert how often a cache fetched.
public final class KeySetServer: Sendable {
    public struct Behaviour: Sendable {
        public var document: [UInt8]
        public var status: HTTPResponse.Status = .ok
        public var cacheControl: String?
        public var redirectTo: String?
        public var delay: Duration = .zero
        public var issuer = "https://issuer.test"
    }

    private let state: Mutex<(behaviour: Behaviour, requests: Int)>

    public init(keySet: JSONWebKeySet) {
        self.state = Mutex((Behaviour(document: keySet.serialized()), 0))
    }

    /// Requests served on `/jwks` so far.
    public var keySetRequests: Int { state.withLock { $0.requests } }

    /// Changes what the server answers.
    public func update(_ change: (inout Behaviour) -> Void) {
        state.withLock { change(&$0.behaviour) }
    }

    /// Serves the given key set from now on.
    public func publish(_ keySet: JSONWebKeySet) {
        update { $0.document = keySet.serialized() }
    }

    /// The routes: `/jwks`, `/redirect` (always 302 to `/jwks`) and `/.well-known/openid-configuration`.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/jwks") { _, _ -> Response in
            let behaviour = self.state.withLock { state in
                state.requests += 1
                return state.behaviour
            }
            if behaviour.delay > .zero { try await Task.sleep(for: behaviour.delay) }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let location = behaviour.redirectTo {
                headers[.location] = location
                return Response(status: .found, headers: headers)
            }
            if let cacheControl = behaviour.cacheControl { headers[.cacheControl] = cacheControl }
            return Response(status: behaviour.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: behaviour.document)))
        }
        router.get("/redirect") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/jwks"])
        }
        router.get("/.well-known/openid-configuration") { request, _ -> Response in
            let host = request.head.authority ?? "127.0.0.1"
            let issuer = self.state.withLock { $0.behaviour.issuer }
            let document: JSONValue = [
                "issuer": .string(issuer),
                "jwks_uri": .string("http://\(host)/jwks"),
                "authorization_endpoint": .string("http://\(host)/dialog/oauth"),
            ]
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: JSONSerializer.serialize(document)))
            )
        }
        return router
    }
}
