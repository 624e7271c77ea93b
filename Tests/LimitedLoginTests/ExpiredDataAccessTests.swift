import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginProvider
import LimitedLoginTestSupport
import Testing

@Suite("SDK: data access that expired on the provider's clock")
struct ExpiredDataAccessTests {
    @Test("after data access expires, a refresh fills AccessToken.expiredPermissions and empties the granted ones")
    func expiredPermissionsFill() async throws {
        try await withSDKProvider(lifetimes: TokenLifetimes(dataAccess: 600)) { provider in
            let (session, _) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email", "user_birthday"], tracking: .enabled)))
            let graph = GraphClient(session: session, endpoints: provider.endpoints)
            let fresh = try await graph.refreshAccessToken()
            #expect(fresh.expiredPermissions.isEmpty && fresh.permissions == ["public_profile", "email", "user_birthday"])

            try provider.provider.clock.advance(by: 601)
            let later = try await graph.refreshAccessToken()
            #expect(later.expiredPermissions == ["email", "user_birthday"])
            #expect(later.permissions == ["public_profile"])
            #expect(later.dataAccessExpirationDate == fresh.dataAccessExpirationDate, "a refresh does not renew data access; a login does")
            #expect(session.accessToken?.expiredPermissions == ["email", "user_birthday"])
        }
    }
}
