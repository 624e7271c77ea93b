import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginProvider
import LimitedLoginTestSupport
import Testing

/// The scripted person with the provider's picker (a page of pickable users and a search): it picks by
/// ID or email, searching when the user is not listed, and says clearly when it cannot pick.
@Suite("SDK: the scripted person picks test users")
struct ScriptedPickerTests {
    /// Thirty pickable users after the fixtures' three, so that the last ones are not on the first page.
    static func addUsers(_ provider: SDKProvider) async throws {
        for index in 0..<30 {
            try await provider.provider.store.createUser(
                TestUserRecord(
                    id: "40\(index + 10)", firstName: "Pick", lastName: "Person\(index + 10)", email: "pick\(index + 10)@example.com",
                    pickable: true
                ), passwordHash: nil)
            try await provider.provider.store.addTestUser("40\(index + 10)", toApps: [TestFixtures.appID])
        }
        try await provider.provider.store.createUser(
            TestUserRecord(id: "4999", firstName: "Kept", lastName: "Private", email: "kept@example.com"), passwordHash: "pbkdf2-sha256$1$AA$AA"
        )
    }

    static func logIn(_ provider: SDKProvider, as signIn: ScriptedPerson.SignIn) async throws -> (LoginSession, ScriptedPresenter) {
        let (session, _) = provider.makeSession()
        let (manager, presenter) = provider.manager(ScriptedPerson(signIn: signIn), session: session)
        _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .limited)))
        return (session, presenter)
    }

    @Test("testUser(id:) finds a user beyond the first page through the search; pick() takes an ID or an email")
    func pickBeyondTheFirstPage() async throws {
        try await withSDKProvider { provider in
            try await Self.addUsers(provider)
            let (byID, presenter) = try await Self.logIn(provider, as: .testUser(id: "4039"))
            #expect(byID.profile?.email == "pick39@example.com")
            #expect(
                presenter.pageTitles.filter { $0 == "Log in to Test App" }.count == 2, "the sign-in page, then its search: \(presenter.pageTitles)")

            let (byEmail, _) = try await Self.logIn(provider, as: .pick("PICK38@example.com"))
            #expect(byEmail.profile?.name == "Pick Person38")
            let (byPickID, _) = try await Self.logIn(provider, as: .pick("4037"))
            #expect(byPickID.profile?.email == "pick37@example.com")
            let (listed, listedPresenter) = try await Self.logIn(provider, as: .pick("bob@example.com"))
            #expect(listed.profile?.email == "bob@example.com")
            #expect(listedPresenter.pageTitles.filter { $0 == "Log in to Test App" }.count == 1, "Bob is on the first page: no search")
        }
    }

    @Test("a user who is not pickable, or does not exist, fails the login with a message that says so")
    func notPickable() async throws {
        try await withSDKProvider { provider in
            try await Self.addUsers(provider)
            for who in ["kept@example.com", "nobody@example.com"] {
                await #expect(
                    throws: LoginError.presentationFailed(
                        "the sign-in page's search for \(who) lists no such test user to pick (is it pickable, and one of this app's test users or a person with a role on it?)"
                    )
                ) { try await Self.logIn(provider, as: .pick(who)) }
            }
        }
    }

    @Test("with --no-user-picker, picking fails before anything is posted; credentials still work")
    func pickerOff() async throws {
        var configuration = TestFixtures.configuration(store: .sqliteFile(path: temporaryDatabasePath()), publicBaseURL: nil)
        configuration.userPicker = false
        try await withLiveProvider(configuration) { baseURL, _, provider in
            let sdk = SDKProvider(baseURL: try #require(URL(string: baseURL)), provider: provider)
            await #expect(
                throws: LoginError.presentationFailed(
                    "the sign-in page offers no test user \(TestFixtures.alice) to pick, and no search (the provider may run with --no-user-picker: sign in with credentials)"
                )
            ) { try await Self.logIn(sdk, as: .testUser(id: TestFixtures.alice)) }
            let (session, _) = try await Self.logIn(sdk, as: .credentials(email: "alice@example.com", password: "alice-pass"))
            #expect(session.profile?.email == "alice@example.com")
        }
    }
}
