import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Synchronization
import Testing

/// Issue #33: the SDK keeps the `user_token_nonce` a login answered and sends it back with its next dialog
/// request, as the iOS SDK does (its keychain, here the saved session); `logOut()` forgets it.
@Suite("SDK: user_token_nonce kept and sent back")
struct UserTokenNonceSDKTests {
    /// The dialog URLs a presenter was asked to show, in order.
    final class Shown: Sendable {
        let urls = Mutex<[URL]>([])
        var all: [URL] { urls.withLock { $0 } }
    }

    struct RecordingPresenter: AuthorizationPresenter {
        let inner: any AuthorizationPresenter
        let shown: Shown
        func begin(appID: String) async throws(LoginError) -> any AuthorizationAttempt {
            RecordingAttempt(inner: try await inner.begin(appID: appID), shown: shown)
        }
    }

    struct RecordingAttempt: AuthorizationAttempt {
        let inner: any AuthorizationAttempt
        let shown: Shown
        var redirectURI: String { inner.redirectURI }
        func present(_ url: URL) async throws(LoginError) -> URL {
            shown.urls.withLock { $0.append(url) }
            return try await inner.present(url)
        }
        func abandon() async { await inner.abandon() }
    }

    static func sentNonce(_ url: URL) throws -> String? {
        try FormParameters(encoded: URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "").single("user_token_nonce")
    }

    @Test("the first login's user_token_nonce is saved and sent with the next; after logOut it is gone and not sent")
    func keptAndSentBack() async throws {
        try await withSDKProvider { provider in
            let (session, store) = provider.makeSession()
            let shown = Shown()
            let manager = LoginManager(
                appID: TestFixtures.appID, endpoints: provider.endpoints,
                presenter: RecordingPresenter(inner: ScriptedPresenter(person: alice), shown: shown), session: session)
            let configuration = try #require(LoginConfiguration(permissions: ["email"], tracking: .limited))
            _ = try await manager.logIn(configuration: configuration)
            let kept = try #require(session.snapshot.userTokenNonce, "the limited login's answer carried one")
            #expect(try LoginSession(store: store).snapshot.userTokenNonce == kept, "saved with the session")

            _ = try await manager.logIn(configuration: configuration)
            #expect(try Self.sentNonce(try #require(shown.all.first)) == nil, "nothing to send the first time")
            #expect(try Self.sentNonce(shown.all[1]) == kept, "sent back with the next request")
            #expect(session.snapshot.userTokenNonce == kept, "the provider's value for a person and an app is stable")

            manager.logOut()
            #expect(session.snapshot.userTokenNonce == nil)
            _ = try await manager.logIn(configuration: configuration)
            #expect(try Self.sentNonce(shown.all[2]) == nil, "forgotten at logOut")
        }
    }

    @Test("a classic login's signed_request names the ID token's person; one naming another person is refused and nothing is saved")
    func signedRequestChecked() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            let configuration = try #require(LoginConfiguration(permissions: ["email"], tracking: .enabled))
            _ = try await manager.logIn(configuration: configuration)
            #expect(session.accessToken?.userID == session.authenticationToken?.claims()?.sub)

            let (otherSession, _) = provider.makeSession()
            let forged = TamperingPresenter(inner: ScriptedPresenter(person: alice)) { url in
                let payload = Base64URL.encode(Array(#"{"algorithm":"HMAC-SHA256","issued_at":1,"user_id":"999"}"#.utf8))
                return replacingParameter("signed_request", in: url, with: "c2ln." + payload)
            }
            let tampered = LoginManager(appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: forged, session: otherSession)
            await #expect(throws: LoginError.malformedCallback("the signed_request names another person than the ID token")) {
                try await tampered.logIn(configuration: configuration)
            }
            #expect(otherSession.snapshot.isEmpty)
        }
    }
}
