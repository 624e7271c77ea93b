import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #58 item 5: two writers at once through two nodes of one PostgreSQL database do not lose each
/// other's changes. One of two simultaneous clock advances was lost (2 of 15 pairs); two consents at once for
/// one person and app could drop a permission.
@Suite(
    "Two nodes: two writers at once keep both changes",
    .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
struct TwoWritersTests {
    @Test("clock advances at once through two nodes add up")
    func clockAdvances() async throws {
        var shared = harnessConfiguration()
        shared.store = try await StoreDialect.postgres.freshLocation()
        let configuration = shared
        try await withProvider(configuration) { first, firstProvider in
            try await withProvider(configuration) { second, _ in
                var expected: Int64 = 0
                for round in 1...15 {
                    async let one = admin(first, "/_admin/clock", method: .post, json: #"{"advance": 100}"#)
                    async let other = admin(second, "/_admin/clock", method: .post, json: #"{"advance": 1000}"#)
                    let (a, b) = try await (one, other)
                    #expect(a.status == .ok && b.status == .ok, "round \(round): \(a.object) \(b.object)")
                    expected += 1100
                    await firstProvider.services.clusterClock.refreshIfDue(now: true)
                    #expect(firstProvider.services.clock.offset == expected, "round \(round): an advance was lost")
                }
            }
        }
    }

    @Test("two consents at once for one person and app keep both permissions")
    func consents() async throws {
        var shared = harnessConfiguration()
        shared.store = try await StoreDialect.postgres.freshLocation()
        let configuration = shared
        try await withProvider(configuration) { first, provider in
            try await withProvider(configuration) { second, _ in
                for round in 1...15 {
                    // Uninstalled first: each consent starts from no decision at all.
                    _ = try await admin(first, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)", method: .delete)
                    async let one = admin(
                        first, "/_admin/tokens", method: .post,
                        json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","permissions":["email"],"tracking":"enabled"}"#)
                    async let other = admin(
                        second, "/_admin/tokens", method: .post,
                        json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","permissions":["user_friends"],"tracking":"enabled"}"#
                    )
                    let (a, b) = try await (one, other)
                    #expect(a.status == .created && b.status == .created, "round \(round): \(a.object) \(b.object)")
                    let grant = try #require(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice))
                    #expect(grant.installed && grant.granted.isSuperset(of: [.email, .userFriends]), "round \(round): \(grant.granted)")
                }
            }
        }
    }
}
