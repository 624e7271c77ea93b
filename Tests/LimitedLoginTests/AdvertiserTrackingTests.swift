import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Testing

/// `Settings.isAdvertiserTrackingEnabled == false`: a classic login is performed as a limited one (the
/// iOS SDK since v17, as the FAQ describes).
@Suite("SDK: tracking off makes classic logins limited")
struct AdvertiserTrackingTests {
    @Test("a classic request becomes limited: an ID token, no access token, the other permissions declined, the result says limited")
    func classicBecomesLimited() async throws {
        try await withSDKProvider { provider in
            let settings = Settings()
            settings.isAdvertiserTrackingEnabled = false
            let (session, _) = provider.makeSession()
            let presenter = ScriptedPresenter(person: alice)
            let manager = LoginManager(
                appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: presenter, session: session, settings: settings
            )
            let configuration = try #require(LoginConfiguration(permissions: ["email", "user_posts"], tracking: .enabled, nonce: "att-off"))

            let result = try await manager.logIn(configuration: configuration)

            #expect(result.tracking == .limited)
            #expect(result.token == nil)
            #expect(session.accessToken == nil)
            let token = try #require(session.authenticationToken)
            #expect(token.nonce == "att-off")
            #expect(token.claims()?.atHash == nil, "a limited token: no at_hash")
            #expect(result.grantedPermissions.contains(.email))
            #expect(result.declinedPermissions.contains("user_posts"), "a limited login cannot ask for user_posts")
            #expect(!result.grantedPermissions.contains("user_posts"))
            #expect(session.profile?.isLimited == true)
            #expect(session.profile?.email == "alice@example.com")
        }
    }

    @Test("tracking on (the default on Linux): the same request stays classic")
    func classicStaysClassic() async throws {
        try await withSDKProvider { provider in
            let settings = Settings()
            #expect(settings.isAdvertiserTrackingEnabled)
            let (session, _) = provider.makeSession()
            let manager = LoginManager(
                appID: TestFixtures.appID, endpoints: provider.endpoints, presenter: ScriptedPresenter(person: alice), session: session,
                settings: settings
            )
            let result = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .enabled))
            #expect(result.tracking == .enabled)
            #expect(result.token != nil)
            #expect(session.profile?.isLimited == false)
        }
    }
}
