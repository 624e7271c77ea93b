import Hummingbird
import LimitedLoginJOSE

/// The admin API for apps, test users and friendships (JSON bodies in the fixtures file's shapes): each
/// route reads its request into ``AdminOperations`` and writes the answer. Mounted in the admin group.
struct AdminDirectoryController: Sendable {
    let services: ProviderServices
    var operations: AdminOperations { AdminOperations(services: services) }
    var limit: Int { services.configuration.maximumBodySize }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/apps") { _, _ in
            try Responses.json(["apps": try await operations.apps()])
        }
        router.post("/_admin/apps") { request, _ in
            let app = try await AdminJSONBody.decode(
                ProviderFixtures.App.self, accepting: ProviderFixtures.App.CodingKeys.allCases.map(\.rawValue), from: request, limit: limit
            )
            return try Responses.json(try await operations.createApp(app), status: .created)
        }
        router.delete("/_admin/apps/:id") { _, context in
            try await operations.deleteApp(id: context.parameters.get("id") ?? "")
            return try Responses.json(AdminAcknowledgement())
        }
        router.post("/_admin/apps/:id") { request, context in
            let edit = try await AdminJSONBody.decode(
                AppEdit.self, accepting: AppEdit.CodingKeys.allCases.map(\.rawValue), from: request, limit: limit)
            return try Responses.json(try await operations.editApp(id: context.parameters.get("id") ?? "", edit))
        }
        router.post("/_admin/apps/:id/business") { request, context in
            let move = try await AdminJSONBody.decode(BusinessMove.self, accepting: ["business_id"], from: request, limit: limit)
            return try Responses.json(try await operations.moveApp(id: context.parameters.get("id") ?? "", toBusiness: move.business_id))
        }
        router.get("/_admin/users") { _, _ in
            try Responses.json(["users": try await operations.users().map(\.fixture)])
        }
        router.post("/_admin/users") { request, _ in
            let user = try await AdminJSONBody.decode(
                ProviderFixtures.User.self, accepting: ProviderFixtures.User.CodingKeys.allCases.map(\.rawValue), from: request, limit: limit
            )
            return try Responses.json(try await operations.createUser(user).fixture, status: .created)
        }
        router.post("/_admin/users/:id") { request, context in
            let changes = try await AdminJSONBody.decode(TestUserChanges.self, accepting: nil, fromOptional: request, limit: limit)
            return try Responses.json(try await operations.editUser(context.parameters.get("id") ?? "", changes: changes).fixture)
        }
        router.delete("/_admin/users/:id") { _, context in
            let id = try await operations.deleteUser(context.parameters.get("id") ?? "")
            return try Responses.json(AdminAcknowledgement(id: id))
        }
        router.post("/_admin/friendships") { request, _ in try await friendship(request, friends: true) }
        router.delete("/_admin/friendships") { request, _ in try await friendship(request, friends: false) }
    }

    private struct BusinessMove: Decodable { var business_id: String? }

    /// `user_id` and `friend_id` each take a test user's ID or email.
    private struct FriendshipBody: Decodable {
        var user_id: String
        var friend_id: String
    }

    private func friendship(_ request: Request, friends: Bool) async throws -> Response {
        let body = try await AdminJSONBody.decode(FriendshipBody.self, accepting: ["user_id", "friend_id"], from: request, limit: limit)
        try await operations.setFriendship(body.user_id, body.friend_id, friends: friends)
        return try Responses.json(AdminAcknowledgement())
    }
}

struct AdminBodyError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
