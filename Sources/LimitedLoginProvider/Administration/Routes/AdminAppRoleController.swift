import Hummingbird
import LimitedLoginJOSE

/// The admin API for roles on apps (docs/BEHAVIOUR.md, section 2: an app in Development mode lets in only
/// the people with a role). Mounted behind the same guard as ``AdminController``; `:user` takes an ID or email.
///
/// - `GET /_admin/apps/:id/roles`: `{"roles": [{"user_id", "role"}]}`.
/// - `PUT /_admin/apps/:id/roles/:user` `{"role": "admin" | "developer" | "tester"}`.
/// - `DELETE /_admin/apps/:id/roles/:user`.
/// - `GET /_admin/apps/:id/test-users`: `{"test_users": [user ID]}`; `PUT` and `DELETE
///   /_admin/apps/:id/test-users/:user` add an existing test user to the app's, or take one off.
struct AdminAppRoleController: Sendable {
    let services: ProviderServices

    var operations: AdminOperations { AdminOperations(services: services) }

    private struct RoleBody: Decodable { var role: String }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/apps/:id/roles") { _, context in
            let roles = try await operations.roles(appID: context.parameters.get("id") ?? "")
            return try Responses.json(["roles": roles.map { AdminRole(userID: $0.userID, role: $0.role) }])
        }
        router.put("/_admin/apps/:id/roles/:user") { request, context in
            let body = try await AdminJSONBody.decode(
                RoleBody.self, accepting: ["role"], from: request, limit: services.configuration.maximumBodySize)
            let role = try await operations.setRole(
                appID: context.parameters.get("id") ?? "", user: context.parameters.get("user") ?? "", role: body.role)
            return try Responses.json(AdminRole(userID: role.userID, role: role.role))
        }
        router.delete("/_admin/apps/:id/roles/:user") { _, context in
            try await operations.removeRole(appID: context.parameters.get("id") ?? "", user: context.parameters.get("user") ?? "")
            return try Responses.json(AdminAcknowledgement())
        }
        // An app's test users: a new app has none; these add an existing user to it, or take one off.
        router.get("/_admin/apps/:id/test-users") { _, context in
            let users = try await operations.testUsers(appID: context.parameters.get("id") ?? "")
            return try Responses.json(["test_users": users])
        }
        router.put("/_admin/apps/:id/test-users/:user") { _, context in
            let id = try await operations.addTestUser(appID: context.parameters.get("id") ?? "", user: context.parameters.get("user") ?? "")
            return try Responses.json(AdminAcknowledgement(user_id: id))
        }
        router.delete("/_admin/apps/:id/test-users/:user") { _, context in
            try await operations.removeTestUser(appID: context.parameters.get("id") ?? "", user: context.parameters.get("user") ?? "")
            return try Responses.json(AdminAcknowledgement())
        }
    }
}
