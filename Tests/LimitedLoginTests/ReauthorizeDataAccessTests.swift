import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Testing

/// `reauthorizeDataAccess`: a classic login with `auth_type=reauthorize`.
@Suite("SDK: reauthorize data access")
struct ReauthorizeDataAccessTests {
    @Test("with an access token: the consent page is shown again and a new access token becomes current")
    func reauthorizes() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, presenter) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .enabled))
            let before = try #require(session.accessToken)
            let consentPages = presenter.pageTitles.count

            let result = try await manager.reauthorizeDataAccess()

            #expect(!result.isCancelled)
            #expect(result.tracking == .enabled)
            let token = try #require(result.token)
            #expect(token != before)
            #expect(session.accessToken == token)
            #expect(token.userID == before.userID)
            #expect(token.hasGranted(.email), "the grant is kept")
            #expect(presenter.pageTitles.count > consentPages, "auth_type=reauthorize shows the consent page even though the grant covers the scope")
        }
    }

    @Test("without an access token: missingAccessToken (code 310), and nothing is shown")
    func needsAnAccessToken() async throws {
        try await withSDKProvider { provider in
            let (session, _) = provider.makeSession()
            let (manager, presenter) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            let pages = presenter.pageTitles.count
            await #expect(throws: LoginError.missingAccessToken) { try await manager.reauthorizeDataAccess() }
            #expect(LoginError.missingAccessToken.errorCode == 310)
            #expect(LoginError.missingAccessToken.code == .missingAccessToken)
            #expect(presenter.pageTitles.count == pages)

            let outcome = await withCheckedContinuation { continuation in
                manager.reauthorizeDataAccess(from: nil) { result, error in
                    continuation.resume(returning: (result == nil, (error as? LoginError)))
                }
            }
            #expect(outcome.0)
            #expect(outcome.1 == .missingAccessToken)
        }
    }
}
