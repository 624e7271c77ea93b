import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Testing

/// `refreshLimitedLogin`: the silent `prompt=none` renewal against a real provider, and its refusals.
@Suite("SDK: limited-login refresh")
struct LimitedLoginRefreshTests {
    @Test("granted: prompt=none renews the token and profile without showing a page, for the same person")
    func silentRefreshGranted() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, presenter) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email", "user_gender"], tracking: .limited))
            let before = try #require(session.authenticationToken)
            let pagesBefore = presenter.pageTitles

            let result = try await manager.refreshLimitedLogin(fallbackPolicy: .silentOnly)

            #expect(result.path == .silent)
            #expect(result.authenticationToken != before)
            #expect(session.authenticationToken == result.authenticationToken)
            #expect(session.profile == result.profile)
            #expect(result.profile.userID == before.claims()?.sub)
            #expect(result.profile.email == "alice@example.com")
            #expect(result.profile.gender == "female")
            #expect(result.profile.isLimited)
            #expect(result.profile.permissions?.isSuperset(of: ["email", "user_gender"]) == true)
            #expect(result.authenticationToken.claims()?.nonce == result.authenticationToken.nonce, "a fresh nonce, carried by the token")
            #expect(result.authenticationToken.nonce != before.nonce)
            #expect(presenter.pageTitles == pagesBefore, "no page was shown")
            #expect(session.accessToken == nil)
        }
    }

    @Test("refused: the browser has no provider session, so silentOnly reports loginRequired and changes nothing")
    func silentRefreshLoginRequired() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, presenter) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let before = session.snapshot
            presenter.clearCookies()

            await #expect(throws: LimitedLoginRefreshError.loginRequired) {
                try await manager.refreshLimitedLogin(fallbackPolicy: .silentOnly)
            }
            #expect(session.snapshot == before)
        }
    }

    @Test("refused: the person removed the app, so silentOnly reports consentRequired; automatic falls back to a login")
    func silentRefreshConsentRequired() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, presenter) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let before = session.snapshot
            #expect(try await provider.provider.store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.alice))

            await #expect(throws: LimitedLoginRefreshError.consentRequired) {
                try await manager.refreshLimitedLogin(fallbackPolicy: .silentOnly)
            }
            #expect(session.snapshot == before)

            let pagesBefore = presenter.pageTitles.count
            let result = try await manager.refreshLimitedLogin(fallbackPolicy: .automatic)
            #expect(result.path == .explicit)
            #expect(presenter.pageTitles.count > pagesBefore, "the consent page was shown again")
            #expect(result.profile.userID == before.profile?.userID)
            #expect(session.authenticationToken == result.authenticationToken)
        }
    }

    @Test("another person signs in at the explicit refresh: userMismatch, and the session is what it was, in memory and on disk")
    func explicitRefreshUserMismatch() async throws {
        try await withSDKProvider { provider in
            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let before = session.snapshot
            // The same session, and a browser in which Bob signs in when the dialog asks.
            let (bobAtTheDialog, presenter) = provider.manager(ScriptedPerson(signIn: .testUser(id: TestFixtures.bob)), session: session)
            await #expect(throws: LimitedLoginRefreshError.userMismatch) {
                try await bobAtTheDialog.refreshLimitedLogin(fallbackPolicy: .explicitOnly)
            }
            #expect(!presenter.pageTitles.isEmpty, "the dialog was shown")
            #expect(session.snapshot == before)
            #expect(session.profile?.userID == before.profile?.userID)
            #expect(LoginSession(store: store).snapshot == before, "the saved file is Alice's again")
        }
    }

    @Test("preconditions: no token, a classic session, and the DPoP-only path each fail with their own error")
    func preconditions() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            await #expect(throws: LimitedLoginRefreshError.noCurrentToken) { try await manager.refreshLimitedLogin() }

            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .enabled))
            await #expect(throws: LimitedLoginRefreshError.notLimitedLogin) { try await manager.refreshLimitedLogin() }

            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            await #expect(throws: LimitedLoginRefreshError.notDPoPBound) { try await manager.refreshLimitedLogin(fallbackPolicy: .directOnly) }
            #expect(LimitedLoginRefreshError.notDPoPBound.errorCode == 12)
            #expect(LimitedLoginRefreshError.errorDomain == "com.facebook.sdk.login.refresh")
        }
    }

    @Test("the completion-handler form delivers the same result")
    func completionForm() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let outcome = await withCheckedContinuation { continuation in
                manager.refreshLimitedLogin(fallbackPolicy: .silentOnly) { continuation.resume(returning: $0) }
            }
            let result = try outcome.get()
            #expect(result.path == .silent)
            #expect(session.authenticationToken == result.authenticationToken)
        }
    }
}
