import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Testing

/// Starting the SDK: the saved session is restored and its status checked at `/platform/oidc/status`.
@Suite("SDK: initialisation and the authentication status check")
struct AuthenticationStatusTests {
    @Test("a restored session whose person removed the app is cleared; one still installed is kept")
    func uninstalledSessionIsCleared() async throws {
        try await withSDKProvider { provider in
            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let settings = Settings()
            settings.loginEndpoints = provider.endpoints

            // The app starts again: a new session reads the saved file.
            let restarted = LoginSession(store: store, notificationCenter: NotificationCenter())
            #expect(await ApplicationDelegate(settings: settings, session: restarted).initializeSDKAndCheckStatus() == .connected)
            #expect(restarted.authenticationToken == session.authenticationToken)

            #expect(try await provider.provider.store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.alice))
            let again = LoginSession(store: store, notificationCenter: NotificationCenter())
            let delegate = ApplicationDelegate(settings: settings, session: again)
            #expect(await delegate.initializeSDK().value == .notAuthorized)
            #expect(again.snapshot.isEmpty)
            #expect(try store.load() == nil, "the saved file was cleared too")
        }
    }

    @Test("no token: nothing is asked; a provider that hangs up: unknown, and nothing is cleared")
    func noVerdict() async throws {
        let settings = Settings()
        #expect(await ApplicationDelegate(settings: settings, session: LoginSession(store: nil)).initializeSDKAndCheckStatus() == .noToken)

        // A listener that closes every connection it accepts, without an answer.
        let counter = try await ConnectionCounter()
        defer { Task { await counter.close() } }
        settings.loginEndpoints = .provider(counter.url)
        let session = LoginSession(store: nil)
        let token = AuthenticationToken(tokenString: "a.b.c", nonce: "n")
        try session.update { $0.authenticationToken = token }
        guard case .unknown = await ApplicationDelegate(settings: settings, session: session).initializeSDKAndCheckStatus() else {
            Issue.record("expected unknown")
            return
        }
        #expect(session.authenticationToken == token)
        #expect(counter.connections >= 1, "the status was asked")
    }
}
