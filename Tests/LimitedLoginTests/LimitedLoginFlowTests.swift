import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

/// Limited logins end to end: the SDK, the scripted person and a real provider over loopback.
@Suite("SDK: limited login")
struct LimitedLoginFlowTests {
    @Test(
        "every limited permission: the profile holds each of the test user's fields, and friends who use the app",
        arguments: StoreDialect.available)
    func everyLimitedPermission(_ dialect: StoreDialect) async throws {
        try await withSDKProvider(dialect) { provider in
            // Bob uses the app with user_friends first, so that he is a visible friend of Alice.
            let (bobSession, _) = provider.makeSession()
            let (bobManager, _) = provider.manager(ScriptedPerson(signIn: .testUser(id: TestFixtures.bob)), session: bobSession)
            let bobConfiguration = try #require(LoginConfiguration(permissions: ["user_friends"], tracking: .limited))
            _ = try await bobManager.logIn(configuration: bobConfiguration)
            let bobASID = try #require(bobSession.profile?.userID)

            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            let configuration = try #require(LoginConfiguration(permissions: allLimitedPermissions, tracking: .limited, nonce: "nonce-every-field"))
            let result = try await manager.logIn(configuration: configuration)

            #expect(!result.isCancelled)
            #expect(result.token == nil)
            #expect(allLimitedPermissions.isSubset(of: result.grantedPermissions))
            #expect(result.declinedPermissions.isEmpty)
            let token = try #require(session.authenticationToken)
            #expect(result.authenticationToken == token)
            #expect(token.nonce == "nonce-every-field")
            #expect(token.graphDomain == "facebook")
            let claims = try #require(token.claims())
            #expect(claims.aud == TestFixtures.appID)
            #expect(claims.nonce == "nonce-every-field")
            #expect(claims.iss == provider.baseURL.absoluteString)
            #expect(session.accessToken == nil)

            let profile = try #require(session.profile)
            #expect(profile.userID == claims.sub)
            #expect(profile.userID != TestFixtures.alice, "the app sees an app-scoped ID, not the provider's user ID")
            #expect(profile.firstName == "Alice")
            #expect(profile.middleName == "Q")
            #expect(profile.lastName == "Smith")
            #expect(profile.name == "Alice Q Smith")
            #expect(profile.email == "alice@example.com")
            #expect(profile.birthday.map(Birthday.string(from:)) == "04/22/1990")
            #expect(profile.ageRange == UserAgeRange(min: 21, max: nil))
            #expect(profile.gender == "female")
            #expect(profile.hometown == Location(id: "501", name: "Paris"))
            #expect(profile.location == Location(id: "502", name: "Lyon"))
            #expect(profile.linkURL == URL(string: "https://example.com/alice"))
            let picture = try #require(profile.imageURL)
            #expect(picture.absoluteString.hasPrefix(provider.baseURL.absoluteString))
            #expect(profile.friendIDs == [bobASID], "Bob uses the app with user_friends; Carol does not")
            #expect(profile.isLimited)

            // What was saved is what is current.
            #expect(try store.load() == session.snapshot)
        }
    }

    @Test("permissions unticked on the consent page come back declined and their claims are absent")
    func untickedPermissionsAreDeclined() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let person = ScriptedPerson(signIn: .testUser(id: TestFixtures.alice), untick: ["email", "user_birthday"])
            let (manager, presenter) = provider.manager(person, session: session)
            let configuration = try #require(LoginConfiguration(permissions: ["email", "user_birthday", "user_gender"], tracking: .limited))
            let result = try await manager.logIn(configuration: configuration)
            #expect(result.declinedPermissions == ["email", "user_birthday"])
            #expect(result.grantedPermissions.contains("user_gender"))
            #expect(!result.grantedPermissions.contains("email"))
            let profile = try #require(session.profile)
            #expect(profile.email == nil)
            #expect(profile.birthday == nil)
            #expect(profile.gender == "female")
            #expect(presenter.pageTitles.count == 2, "a sign-in page and a consent page: \(presenter.pageTitles)")
        }
    }

    @Test("a cancel is a cancelled result, and nothing is set or saved")
    func cancel() async throws {
        try await withSDKProvider { provider in
            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(ScriptedPerson(signIn: .testUser(id: TestFixtures.alice), decision: .cancel), session: session)
            let result = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited)))
            #expect(result.isCancelled)
            #expect(result.authenticationToken == nil)
            #expect(result.grantedPermissions.isEmpty)
            #expect(session.snapshot.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: store.path))
        }
    }

    @Test("a second login skips consent when the grant covers the scope, with the same app-scoped ID")
    func secondLoginSkipsConsent() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, presenter) = provider.manager(alice, session: session)
            let configuration = try #require(LoginConfiguration(permissions: ["email"], tracking: .limited, authType: nil))
            _ = try await manager.logIn(configuration: configuration)
            let first = try #require(session.profile?.userID)
            let pagesAfterFirst = presenter.pageTitles.count
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited, authType: nil)))
            #expect(presenter.pageTitles.count == pagesAfterFirst, "no page shown: \(presenter.pageTitles)")
            #expect(session.profile?.userID == first)
        }
    }

    @Test("a wrong password is the dialog's failure with its message; nothing is set")
    func wrongPassword() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let person = ScriptedPerson(signIn: .credentials(email: "alice@example.com", password: "not-her-password"))
            let (manager, _) = provider.manager(person, session: session)
            let configuration = try #require(LoginConfiguration(tracking: .limited))
            await #expect(throws: LoginError.dialogFailed(code: "401", message: "The email or password you entered is incorrect.")) {
                try await manager.logIn(configuration: configuration)
            }
            #expect(session.snapshot.isEmpty)
        }
    }

    @Test("email and password sign-in works like picking the test user")
    func passwordSignIn() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let person = ScriptedPerson(signIn: .credentials(email: "bob@example.com", password: "bob-pass"))
            let (manager, _) = provider.manager(person, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited)))
            #expect(session.profile?.email == "bob@example.com")
        }
    }
}
