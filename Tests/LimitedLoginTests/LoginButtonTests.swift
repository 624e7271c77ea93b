import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Synchronization
import Testing

/// A delegate that writes down every call, in order.
@MainActor
final class RecordingButtonDelegate: LoginButtonDelegate {
    enum Call: Equatable {
        case willLogin
        case didComplete(cancelled: Bool?, error: LoginError?)
        case didLogOut
    }

    var calls: [Call] = []
    var allowsLogin = true

    func loginButton(_ loginButton: FBLoginButton, didCompleteWith result: LoginManagerLoginResult?, error: (any Error)?) {
        calls.append(.didComplete(cancelled: result?.isCancelled, error: error as? LoginError))
    }

    func loginButtonDidLogOut(_ loginButton: FBLoginButton) { calls.append(.didLogOut) }

    func loginButtonWillLogin(_ loginButton: FBLoginButton) -> Bool {
        calls.append(.willLogin)
        return allowsLogin
    }
}

/// `FBLoginButton`: taps, titles and the delegate's calls, against a real provider.
@Suite("SDK: the login button")
struct LoginButtonTests {
    @Test("tap logs in (willLogin, then didComplete), tap again offers to log out, confirming logs out (didLogOut)")
    func delegateCallsInOrder() async throws {
        try await withSDKProvider { provider in try await Self.logInThenOut(provider) }
    }

    @MainActor
    static func logInThenOut(_ provider: SDKProvider) async throws {
        let (session, _) = provider.makeSession()
        let (manager, _) = provider.manager(alice, session: session)
        let button = FBLoginButton(permissions: ["email"], loginManager: manager)
        let delegate = RecordingButtonDelegate()
        button.delegate = delegate
        button.loginTracking = .limited
        button.nonce = "button-nonce"
        #expect(button.title == "Continue with Facebook")
        #expect(!button.isAuthenticated)

        await button.tap().value
        #expect(delegate.calls == [.willLogin, .didComplete(cancelled: false, error: nil)])
        #expect(session.authenticationToken?.nonce == "button-nonce")
        #expect(session.profile?.email == "alice@example.com")
        #expect(button.isAuthenticated)
        #expect(button.title == "Log out")

        // Logged in: a tap offers to log out; Cancel changes nothing.
        await button.tap().value
        #expect(button.logOutConfirmation?.title == "Logged in as Alice Q Smith")
        #expect(button.logOutConfirmation?.logOutTitle == "Log Out")
        #expect(button.logOutConfirmation?.cancelTitle == "Cancel")
        button.cancelLogOut()
        #expect(button.logOutConfirmation == nil)
        #expect(button.isAuthenticated)
        #expect(delegate.calls.count == 2, "no delegate call for the offer or its cancel")

        await button.tap().value
        button.confirmLogOut()
        #expect(delegate.calls == [.willLogin, .didComplete(cancelled: false, error: nil), .didLogOut])
        #expect(session.snapshot.isEmpty)
        #expect(button.title == "Continue with Facebook")
    }

    @Test("a cancel and a failure reach didCompleteWith; willLogin returning false stops the tap")
    func cancelFailureAndVeto() async throws {
        try await withSDKProvider { provider in try await Self.cancelFailureAndVeto(provider) }
    }

    @MainActor
    static func cancelFailureAndVeto(_ provider: SDKProvider) async throws {
        let (session, _) = provider.makeSession()
        let (cancelling, presenter) = provider.manager(
            ScriptedPerson(signIn: .testUser(id: TestFixtures.alice), decision: .cancel), session: session
        )
        let button = FBLoginButton(permissions: ["email"], loginManager: cancelling)
        let delegate = RecordingButtonDelegate()
        button.delegate = delegate
        await button.tap().value
        #expect(delegate.calls == [.willLogin, .didComplete(cancelled: true, error: nil)])

        delegate.calls = []
        delegate.allowsLogin = false
        let pages = presenter.pageTitles.count
        await button.tap().value
        #expect(delegate.calls == [.willLogin])
        #expect(presenter.pageTitles.count == pages, "nothing was shown")

        // An app the provider does not know: the dialog's error page is the error.
        let unknownApp = FBLoginButton(
            permissions: ["email"],
            loginManager: LoginManager(appID: "999", endpoints: provider.endpoints, presenter: ScriptedPresenter(person: alice), session: session)
        )
        let failing = RecordingButtonDelegate()
        unknownApp.delegate = failing
        await unknownApp.tap().value
        guard case .didComplete(nil, .dialogFailed?)? = failing.calls.last else {
            Issue.record("expected a dialogFailed error, got \(failing.calls)")
            return
        }

        // A permission a limited login cannot ask for: no configuration, so the tap does nothing (as in the iOS SDK).
        let refused = FBLoginButton(permissions: ["user_likes"], loginManager: cancelling)
        refused.loginTracking = .limited
        let silent = RecordingButtonDelegate()
        refused.delegate = silent
        #expect(refused.makeLoginConfiguration() == nil)
        await refused.tap().value
        #expect(silent.calls == [.willLogin])
    }

    @Test("messengerPageId and authType reach the configuration; an invalid nonce is ignored")
    @MainActor
    func configuration() throws {
        let button = FBLoginButton(permissions: ["user_messenger_contact"], loginManager: LoginManager(appID: "1", session: LoginSession(store: nil)))
        button.messengerPageId = "4242"
        button.authType = nil
        button.nonce = "two words"
        let configuration = try #require(button.makeLoginConfiguration())
        #expect(configuration.messengerPageId == "4242")
        #expect(configuration.authType == nil)
        #expect(UUID(uuidString: configuration.nonce) != nil)
        #expect(configuration.requestedPermissions == [.userMessengerContact])
        #expect(FBLoginButton.shortLogInTitle == "Log in")
    }
}
