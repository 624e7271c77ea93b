import Foundation
import LimitedLogin
import LimitedLoginProvider
import LimitedLoginTestSupport
import Testing

/// A limited login to a gaming app, through the SDK: the token's graph domain and the gaming profile.
@Suite("SDK: gaming apps")
struct GamingLoginTests {
    @Test("graph_domain=gaming reaches AuthenticationToken.graphDomain; the profile's name is the avatar name")
    func gamingLogin() async throws {
        try await withSDKProvider { provider in
            try await provider.provider.store.createApp(AppRecord(id: "7070", secret: "s", name: "A Game", isGaming: true))
            try await provider.provider.store.createUser(
                TestUserRecord(
                    id: "300002", firstName: "Erin", lastName: "Gamer", email: "erin@example.com", pickable: true,
                    ageRange: UserAgeRange(min: 13, max: 17), gamingName: "ErinPlays"
                ),
                passwordHash: nil
            )
            try await provider.provider.store.addTestUser("300002", toApps: ["7070"])
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(ScriptedPerson(signIn: .testUser(id: "300002")), session: session, appID: "7070")
            let result = try await manager.logIn(
                configuration: LoginConfiguration(
                    permissions: ["gaming_profile", "gaming_user_picture", "user_age_range"], tracking: .limited
                ))
            #expect(result.authenticationToken?.graphDomain == "gaming")
            let profile = try #require(session.profile)
            #expect(profile.name == "ErinPlays")
            #expect(profile.firstName == "Erin")
            #expect(profile.lastName == nil)
            #expect(profile.imageURL != nil)
            #expect(profile.ageRange == UserAgeRange(min: 13, max: 17))
        }
    }
}
