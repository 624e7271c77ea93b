import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Testing

/// The smaller parts of the iOS SDK's API: permissions, configurations, pictures, claims, error codes,
/// notification keys, and loading a classic profile.
@Suite("SDK: the iOS SDK's names")
struct IOSSurfaceTests {
    @Test("Permission has the real enum's userLink and userAgeRange cases")
    func permissionCases() {
        #expect(Permission.userLink.name == "user_link")
        #expect(Permission.userAgeRange.name == "user_age_range")
        #expect(Permission(name: "user_link") == .userLink)
        #expect(Permission.userAgeRange.isAllowedInLimitedLogin)
    }

    @Test("LoginConfiguration's [String] initializers and messengerPageId")
    func stringConfigurations() throws {
        let configuration = try #require(
            LoginConfiguration(
                permissions: ["email", "user_messenger_contact"], tracking: .limited, nonce: "n", messengerPageId: "77"
            ))
        #expect(configuration.requestedPermissions == [.email, .userMessengerContact])
        #expect(configuration.messengerPageId == "77")
        #expect(LoginConfiguration(permissions: ["user_likes"], tracking: .limited) == nil)
        #expect(LoginConfiguration(permissions: ["email"], tracking: .limited, nonce: "a b") == nil)
        let request = AuthorizationRequest(
            appID: "1", configuration: configuration, redirectURI: "fb1://authorize/", endpoints: .facebook
        )
        #expect(request.url.absoluteString.contains("messenger_page_id=77"))
    }

    @Test("imageURL(forMode:size:) points at the Graph picture with type, size and a token")
    func imageURL() throws {
        let settings = Settings()
        settings.loginEndpoints = .provider(try #require(URL(string: "http://127.0.0.1:8080")))
        settings.clientToken = "client-token"
        let profile = Profile(userID: "42")
        let url = try #require(profile.imageURL(forMode: .square, size: CGSize(width: 100.7, height: 50), settings: settings, accessToken: nil))
        #expect(url.absoluteString == "http://127.0.0.1:8080/v21.0/42/picture?type=square&width=100&height=50&access_token=client-token")
        let token = AccessToken(
            tokenString: "user-token", permissions: [], declinedPermissions: [], expiredPermissions: [], appID: "1", userID: "42",
            expirationDate: Date().addingTimeInterval(60), dataAccessExpirationDate: Date().addingTimeInterval(60)
        )
        let withToken = try #require(profile.imageURL(forMode: .large, size: CGSize(width: 10, height: 10), settings: settings, accessToken: token))
        #expect(withToken.absoluteString.hasSuffix("type=large&width=10&height=10&access_token=user-token"))
    }

    @Test("claims() is nil once the token expired, ten minutes after iat, or with another nonce")
    func claimsOnceInvalid() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited, nonce: "claims-nonce"))
            let token = try #require(session.authenticationToken)
            let claims = try #require(token.claims())
            #expect(token.claims(at: claims.iat.addingTimeInterval(599)) != nil)
            #expect(token.claims(at: claims.iat.addingTimeInterval(601)) == nil, "older than ten minutes")
            #expect(token.claims(at: claims.exp) == nil, "expired")
            #expect(AuthenticationToken(tokenString: token.tokenString, nonce: "other").claims() == nil)
            #expect(token.unvalidatedClaims() != nil, "the payload stays readable")
        }
    }

    @Test("logIn(permissions:from:handler:) is a classic login whose handler gets the result")
    func logInWithPermissionNames() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            let (result, error) = await withCheckedContinuation { continuation in
                manager.logIn(permissions: ["email"], from: nil) { result, error in
                    continuation.resume(returning: (result, error as? LoginError))
                }
            }
            #expect(error == nil)
            #expect(result?.tracking == .enabled)
            #expect(result?.token == session.accessToken)
            #expect(session.accessToken?.hasGranted(.email) == true)

            let refused = await withCheckedContinuation { continuation in
                manager.logIn(permissions: ["Not A Permission"], from: nil) { result, error in
                    continuation.resume(returning: (result == nil, error as? LoginError))
                }
            }
            #expect(refused.0)
            #expect(refused.1 == .invalidConfiguration)
        }
    }

    @Test("an explicit graph API version wins over the endpoints'; endpoints set in code keep theirs otherwise")
    func graphVersions() throws {
        let settings = Settings()
        var endpoints = LoginEndpoints.provider(try #require(URL(string: "http://127.0.0.1:1")))
        endpoints.graphVersion = "v19.0"
        settings.loginEndpoints = endpoints
        #expect(settings.loginEndpoints.graphVersion == "v19.0")
        settings.graphAPIVersion = "v20.0"
        #expect(settings.loginEndpoints.graphVersion == "v20.0")
    }

    @Test("LoginError carries the iOS SDK's codes and domain")
    func errorCodes() {
        #expect(LoginError.errorDomain == "com.facebook.sdk.login")
        #expect(LoginError.badChallengeString.errorCode == 308)
        #expect(LoginError.invalidIDToken(.nonceMismatch).code == .invalidIDToken)
        #expect(LoginError.invalidIDToken(.nonceMismatch).errorCode == 309)
        #expect(LoginError.timedOut(seconds: 1).code == .unknown)
        #expect(LoginErrorCode.reserved.rawValue == 300)
    }

    @Test("AccessTokenDidChange says when the user changed, and when the current token expired")
    func accessTokenNotificationKeys() async throws {
        let center = NotificationCenter()
        let session = LoginSession(store: nil, notificationCenter: center)
        let received = Recorder<[[String: Bool]]>([])
        let observer = center.addObserver(forName: .AccessTokenDidChange, object: session, queue: nil) { note in
            let info = note.userInfo ?? [:]
            received.update {
                $0.append([
                    "userChanged": info[AccessTokenDidChangeUserIDKey] as? Bool ?? false,
                    "expired": info[AccessTokenDidExpireKey] as? Bool ?? false,
                ])
            }
        }
        defer { center.removeObserver(observer) }
        func token(_ user: String, _ value: String, lifetime: TimeInterval) -> AccessToken {
            AccessToken(
                tokenString: value, permissions: [], declinedPermissions: [], expiredPermissions: [], appID: "1", userID: user,
                expirationDate: Date().addingTimeInterval(lifetime), dataAccessExpirationDate: Date().addingTimeInterval(3600)
            )
        }
        try session.update { $0.accessToken = token("1", "a", lifetime: 3600) }
        try session.update { $0.accessToken = token("1", "b", lifetime: 0.3) }
        try await Task.sleep(for: .seconds(1))
        try session.update { $0.accessToken = nil }
        #expect(
            received.value == [
                ["userChanged": true, "expired": false],
                ["userChanged": false, "expired": false],
                ["userChanged": false, "expired": true],
                ["userChanged": true, "expired": false],
            ])
    }

    @Test("loadCurrentProfile: a limited profile stays as it is; a classic one is read from me with the granted fields")
    func loadCurrentProfile() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let limited = session.profile
            #expect(try await Profile.loadCurrentProfile(session: session, endpoints: provider.endpoints) == limited)

            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email", "user_link"], tracking: .enabled))
            let beforeLoad = try #require(session.profile)
            #expect(beforeLoad.permissions?.isSuperset(of: ["email", "user_link"]) == true)
            // A classic login's profile older than a day is read again.
            let stale = Profile(userID: beforeLoad.userID, refreshDate: Date(timeIntervalSinceNow: -2 * 86_400))
            try session.update { $0.profile = stale }
            let loaded = try #require(try await Profile.loadCurrentProfile(session: session, endpoints: provider.endpoints))
            #expect(loaded.userID == beforeLoad.userID)
            #expect(loaded.name == "Alice Q Smith")
            #expect(loaded.email == "alice@example.com")
            #expect(loaded.linkURL == URL(string: "https://example.com/alice"))
            #expect(loaded.imageURL != nil)
            #expect(!loaded.isLimited)
            #expect(session.profile == loaded)
        }
    }
}
