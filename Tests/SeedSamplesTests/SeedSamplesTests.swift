import Foundation
import LimitedLogin
import LimitedLoginProvider
import LimitedLoginTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the seeds' Swift samples as an app would: `Settings.shared` pointing at a real provider on
/// loopback, the shared session (in a temporary file), and a scripted person in the browser's place.
/// Serialized: the samples use the process's shared settings and session.
@Suite("Seeds: the iOS samples, and the shared session they use", .serialized)
struct SeedSamplesTests {
    /// The shared session's file: `$LIMITED_LOGIN_STATE_FILE` as `scripts/test` sets it before the process
    /// starts, else a temporary file set here before anything touches the shared session (`setenv` while
    /// other tests start processes on other threads can crash them, hence the script's way first). Never
    /// the user's own saved login.
    static let sharedStatePath: String = {
        if let given = ProcessInfo.processInfo.environment["LIMITED_LOGIN_STATE_FILE"], !given.isEmpty { return given }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("limited-login-seeds-\(UUID().uuidString)").appendingPathComponent("session.json").path
        setenv("LIMITED_LOGIN_STATE_FILE", path, 1)
        return path
    }()

    static var sharedSession: LoginSession {
        _ = sharedStatePath
        return LoginSession.shared
    }

    /// Configures `Settings.shared` for the provider and Alice, waits for `body`'s login to set the shared
    /// session, and returns what it set.
    static func runSample(_ provider: String, _ body: @Sendable () async -> Void) async throws -> SessionSnapshot {
        let session = sharedSession
        #expect((session.store as? FileTokenStore)?.path == sharedStatePath, "the shared session must not be the user's own file")
        LoginManager(settings: .shared, session: session).logOut()
        Settings.shared.appID = TestFixtures.appID
        Settings.shared.loginEndpoints = .provider(try #require(URL(string: provider)))
        Settings.shared.authorizationPresenter = ScriptedPresenter(person: ScriptedPerson(signIn: .testUser(id: TestFixtures.alice)))
        let changes = session.changes()
        await body()
        // The sample reports nothing of its own: its login is over when the shared session has a token.
        let loggedIn = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await change in changes {
                    if case .authenticationToken(_, _?) = change { return true }
                }
                return false
            }
            group.addTask {
                try await Task.sleep(for: .seconds(300))  // liveness only: the change is what is waited for
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(loggedIn, "the sample's login set no authentication token within 300 seconds")
        // The completion runs right after the values are set; give it its turn.
        try await Task.sleep(for: .milliseconds(100))
        return session.snapshot
    }

    @Test("the login-manager sample: every Profile field it reads holds the test user's value")
    func loginManagerSampleRuns() async throws {
        let configuration = TestFixtures.configuration(store: .sqliteFile(path: temporaryDatabasePath()), publicBaseURL: nil)
        try await withLiveProvider(configuration) { baseURL, _, provider in
            // Bob uses the app with user_friends, so that he is in Alice's friend list.
            let bobSession = LoginSession(store: nil)
            let bob = LoginManager(
                appID: TestFixtures.appID, endpoints: .provider(try #require(URL(string: baseURL))),
                presenter: ScriptedPresenter(person: ScriptedPerson(signIn: .testUser(id: TestFixtures.bob))), session: bobSession
            )
            _ = try await bob.logIn(configuration: LoginConfiguration(permissions: ["user_friends"], tracking: .limited))
            let bobASID = try #require(bobSession.profile?.userID)

            let snapshot = try await Self.runSample(baseURL) { loginManagerSample() }

            let profile = try #require(Profile.current)
            #expect(snapshot.profile == profile)
            let claims = try #require(AuthenticationToken.current?.claims())
            #expect(profile.userID == claims.sub)
            #expect(profile.userID == (try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)))
            #expect(profile.email == "alice@example.com")
            #expect(profile.friendIDs == [bobASID])
            #expect(profile.birthday == Birthday.date(from: "04/22/1990"))
            #expect(profile.ageRange == UserAgeRange(min: 21, max: nil))
            #expect(profile.gender == "female")
            #expect(profile.location == Location(id: "502", name: "Lyon"))
            #expect(profile.hometown == Location(id: "501", name: "Paris"))
            #expect(profile.linkURL == URL(string: "https://example.com/alice"))
            #expect(AuthenticationToken.current?.tokenString.split(separator: ".").count == 3)
            #expect(claims.nonce == "123")
            #expect(AccessToken.current == nil, "a limited login has no access token")
        }
    }

    @Test("the login-button sample: a tap logs Alice in with the sample's permissions and nonce")
    func loginButtonSampleRuns() async throws {
        let configuration = TestFixtures.configuration(store: .sqliteFile(path: temporaryDatabasePath()), publicBaseURL: nil)
        try await withLiveProvider(configuration) { baseURL, _, _ in
            let snapshot = try await Self.runSample(baseURL) {
                await MainActor.run {
                    let viewController = LoginButtonSampleViewController()
                    viewController.viewDidLoad()
                    #expect(viewController.loginButton.nonce == "123")
                    #expect(viewController.loginButton.loginTracking == .limited)
                    viewController.loginButton.tap()
                }
            }
            let profile = try #require(Profile.current)
            #expect(snapshot.profile == profile)
            #expect(profile.email == "alice@example.com")
            #expect(profile.isLimited)
            #expect(profile.permissions?.contains("email") == true)
            let token = try #require(AuthenticationToken.current)
            #expect(token.nonce == "123")
            #expect(token.claims()?.sub == profile.userID)
            #expect(AccessToken.current == nil)
        }
    }

    // Moved here from LimitedLoginTests (SharedSessionTests): every test of the process that uses
    // LoginSession.shared is in this serialized suite, so that none sees another's values.
    @Test("AccessToken.current, AuthenticationToken.current and Profile.current are saved where the environment says")
    func staticsUseTheSharedSession() throws {
        let path = Self.sharedStatePath
        #expect(FileTokenStore.defaultPath == path)
        #expect((LoginSession.shared.store as? FileTokenStore)?.path == path)

        let token = AuthenticationToken(tokenString: "a.b.c", nonce: "shared-nonce")
        AuthenticationToken.current = token
        Profile.current = Profile(userID: "42", name: "Shared Person")
        let access = AccessToken(
            tokenString: "EAAshared", permissions: ["email"], declinedPermissions: [], expiredPermissions: [], appID: "1",
            userID: "42", expirationDate: Date().addingTimeInterval(60), dataAccessExpirationDate: Date().addingTimeInterval(120)
        )
        AccessToken.current = access
        #expect(AccessToken.isCurrentAccessTokenActive)
        // (The snapshot's user_token_nonce is the samples' last login's: kept apart from the three statics.)
        let snapshot = LoginSession.shared.snapshot
        #expect(snapshot.accessToken == access && snapshot.authenticationToken == token && snapshot.profile == Profile.current)
        #expect(try FileTokenStore(path: path).load()?.authenticationToken == token)

        try LoginSession.shared.clear()
        #expect(AccessToken.current == nil && AuthenticationToken.current == nil && Profile.current == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
