import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Graph API: me/friends")
struct GraphFriendsTests {
    @Test("me/friends lists the friends who use the app and granted user_friends, with summary.total_count; empty without user_friends")
    func friendsEdge() async throws {
        try await withProvider { client, provider in
            _ = try await classicLogin(client, as: TestFixtures.bob, scope: "public_profile,user_friends")
            let alice = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,user_friends")
            let bobASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)

            let friends = try await graph(client, "/v21.0/me/friends?access_token=\(alice.access)")
            #expect(friends.status == .ok)
            #expect(friends.object["data"] == .array([.object(["id": .string(bobASID), "name": "Bob Jones"])]))
            #expect(friends.object["summary"] == .object(["total_count": 1]))
            let field = try await graph(client, "/v21.0/me?fields=friends&access_token=\(alice.access)")
            #expect(field.object["friends"] == .object(friends.object), "the edge and the field say the same")

            let carol = try await classicLogin(client, as: TestFixtures.carol, scope: "public_profile")
            let none = try await graph(client, "/v21.0/me/friends?access_token=\(carol.access)")
            #expect(none.status == .ok && none.object["data"] == .array([]) && none.object["summary"] == .object(["total_count": 0]))

            let anonymous = try await graph(client, "/v21.0/me/friends")
            #expect(anonymous.status == .unauthorized && anonymous.error?["code"] == 190)
        }
    }
}
