import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import NIOCore
import Synchronization
import Testing

/// Classic logins: the code exchanged with the PKCE verifier, the access token, the Graph client, refresh.
@Suite("SDK: classic login and the Graph API")
struct ClassicLoginAndGraphTests {
    @Test("classic login sets an access token; the Graph client reads me with it", arguments: StoreDialect.available)
    func classicLoginThenMe(_ dialect: StoreDialect) async throws {
        try await withSDKProvider(dialect) { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            let before = Date()
            let result = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .enabled)))
            let token = try #require(session.accessToken)
            #expect(result.token == token)
            #expect(token.appID == TestFixtures.appID)
            #expect(token.userID == session.profile?.userID)
            #expect(token.hasGranted("email"))
            #expect(token.hasGranted("public_profile"))
            #expect(!token.hasGranted("user_friends"))
            #expect(token.tokenString.hasPrefix("EAA"))
            #expect(!token.isExpired)
            #expect(!token.isDataAccessExpired)
            #expect(token.expirationDate > before.addingTimeInterval(59 * 86_400))
            #expect(token.dataAccessExpirationDate > before.addingTimeInterval(89 * 86_400))
            #expect(session.profile?.isLimited == false)
            #expect(session.authenticationToken?.claims()?.atHash != nil, "the exchanged ID token is bound to the access token")

            let graph = GraphClient(session: session, endpoints: provider.endpoints)
            let me = try await graph.me(fields: ["id", "name", "email"])
            #expect(me["id"]?.stringValue == token.userID)
            #expect(me["name"]?.stringValue == "Alice Q Smith")
            #expect(me["email"]?.stringValue == "alice@example.com")

            await #expect(
                throws: GraphClientError.graph(
                    code: 100, subcode: nil, type: "OAuthException",
                    message: "(#100) Tried accessing nonexisting field (shoe_size) on node type (User)"
                )
            ) {
                try await graph.me(fields: ["shoe_size"])
            }
        }
    }

    @Test("a log-out while a refresh or a profile load waits for its answer stays a log-out: nothing is saved, sessionChanged")
    func logOutDuringRefresh() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .enabled)))
            try #require(session.accessToken != nil)
            // A Graph API that holds its answers until the test has logged out: each request says it arrived,
            // then waits to be let go.
            let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
            let gate = Gate()
            let router = Router()
            router.get("{version}/oauth/access_token") { _, _ -> Response in
                arrived.yield()
                await gate.wait()
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"access_token":"EAArefreshed","token_type":"bearer","expires_in":3600}"#)))
            }
            router.get("{version}/me/permissions") { _, _ -> Response in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"data":[]}"#)))
            }
            router.get("{version}/me") { _, _ -> Response in
                arrived.yield()
                await gate.wait()
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"id":"1","name":"Someone"}"#)))
            }
            try await withLoopbackServer(router) { port in
                let endpoints = LoginEndpoints.provider(URL(string: "http://127.0.0.1:\(port)")!)
                var arrival = arrivals.makeAsyncIterator()
                let graph = GraphClient(session: session, endpoints: endpoints)
                let refresh = Task { try await graph.refreshAccessToken() }
                _ = await arrival.next()
                manager.logOut()
                gate.open()
                await #expect(throws: GraphClientError.sessionChanged) { try await refresh.value }
                #expect(session.accessToken == nil && session.authenticationToken == nil && session.profile == nil)

                _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .enabled)))
                try session.update { $0.profile = nil }  // so that the profile is loaded, not the login's reused
                let load = Task { try await Profile.loadCurrentProfile(session: session, endpoints: endpoints) }
                _ = await arrival.next()
                manager.logOut()
                gate.open()
                await #expect(throws: GraphClientError.sessionChanged) { try await load.value }
                #expect(session.profile == nil && session.accessToken == nil)
            }
        }
    }

    /// Holds handlers in ``wait()`` until ``open()`` lets one go (or lets the next one through at once).
    final class Gate: Sendable {
        private let state = Mutex<(opened: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let go = state.withLock { state -> Bool in
                    guard state.opened > 0 else {
                        state.waiting.append(continuation)
                        return false
                    }
                    state.opened -= 1
                    return true
                }
                if go { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.opened += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            waiting?.resume()
        }
    }

    @Test("after a limited login a Graph request fails with noAccessToken and nothing is sent")
    func limitedLoginCannotCallGraph() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited)))
            #expect(session.authenticationToken != nil)

            let counter = try await ConnectionCounter()
            let graph = GraphClient(session: session, endpoints: .provider(counter.url))
            await #expect(throws: GraphClientError.noAccessToken) { try await graph.me() }
            await #expect(throws: GraphClientError.noAccessToken) { try await graph.refreshAccessToken() }
            #expect(GraphClientError.noAccessToken.description.contains("a limited login"))
            try await Task.sleep(nanoseconds: 100_000_000)
            #expect(counter.connections == 0)
            await counter.close()
        }
    }

    @Test("a limited login after a classic one clears the access token")
    func limitedClearsAccessToken() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            #expect(session.accessToken != nil)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .limited)))
            #expect(session.accessToken == nil)
            #expect(session.profile?.isLimited == true)
        }
    }

    @Test(
        "refresh replaces the access token with a new one that still works, with the permissions read again",
        arguments: StoreDialect.available)
    func refresh(_ dialect: StoreDialect) async throws {
        try await withSDKProvider(dialect) { provider in
            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(
                ScriptedPerson(signIn: .testUser(id: TestFixtures.alice), untick: ["user_birthday"]), session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email", "user_birthday"], tracking: .enabled)))
            let old = try #require(session.accessToken)
            let graph = GraphClient(session: session, endpoints: provider.endpoints)
            let refreshed = try await graph.refreshAccessToken()
            #expect(refreshed.tokenString != old.tokenString)
            #expect(refreshed.refreshDate >= old.refreshDate)
            #expect(refreshed.permissions == ["email", "public_profile"])
            #expect(refreshed.declinedPermissions == ["user_birthday"])
            #expect(refreshed.userID == old.userID)
            #expect(session.accessToken == refreshed)
            #expect(try store.load()?.accessToken == refreshed)
            let me = try await graph.me(fields: ["id"])
            #expect(me["id"]?.stringValue == old.userID)
        }
    }

    @Test("a code exchange with a wrong verifier is refused by the provider: codeExchangeFailed")
    func wrongVerifierIsRefused() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            // The presenter swaps in a code issued to another login (another verifier's challenge).
            let (otherSession, _) = provider.makeSession()
            let captured = Recorder<URL?>(nil)
            let capturing = TamperingPresenter(inner: ScriptedPresenter(person: alice)) { url in
                captured.set(url)
                return URL(string: "fb\(TestFixtures.appID)://authorize/#error=access_denied&state=x") ?? url
            }
            let otherManager = LoginManager(appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: capturing, session: otherSession)
            _ = try? await otherManager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            let capturedURL = try #require(captured.value)
            let foreignCode = try #require(parameter("code", in: capturedURL))

            let presenter = TamperingPresenter(inner: ScriptedPresenter(person: alice)) { url in
                replacingParameter("code", in: url, with: foreignCode)
            }
            let manager = LoginManager(appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: presenter, session: session)
            await #expect(throws: LoginError.codeExchangeFailed("The code_verifier does not match the code_challenge.")) {
                try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            }
            #expect(session.snapshot.isEmpty)
        }
    }
}

/// The SDK's own check that a classic login's ID token belongs to its access token (`at_hash`), against
/// a code exchange that pairs a real ID token with another access token.
@Suite("SDK: at_hash")
struct AccessTokenHashTests {
    @Test("an exchange answering an ID token issued with another access token: accessTokenHashMismatch, nothing set")
    func mismatchedPairIsRefused() async throws {
        try await withSDKProvider { provider in
            let nonce = "pair-nonce"
            // A real classic login gives an ID token whose at_hash is that of its own access token.
            let (firstSession, _) = provider.makeSession()
            let (first, _) = provider.manager(alice, session: firstSession)
            _ = try await first.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled, nonce: nonce)))
            let realIDToken = try #require(firstSession.authenticationToken?.tokenString)

            // The dialog is the real provider's; only the code exchange is answered by this stand-in.
            let router = Router()
            router.post("/:version/oauth/access_token") { _, _ -> Response in
                let body = #"{"access_token":"EAAnotTheOneItWasIssuedWith","token_type":"bearer","expires_in":5184000,"id_token":"\#(realIDToken)"}"#
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
            }
            try await Application(router: router).test(.live) { client in
                let port = try #require(client.port)
                var endpoints = provider.endpoints
                endpoints.graphBaseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
                let (session, _) = provider.makeSession()
                let manager = LoginManager(
                    appID: TestFixtures.appID, endpoints: endpoints, presenter: ScriptedPresenter(person: alice), session: session
                )
                await #expect(throws: LoginError.accessTokenHashMismatch) {
                    try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled, nonce: nonce)))
                }
                #expect(session.snapshot.isEmpty)
            }
        }
    }
}
