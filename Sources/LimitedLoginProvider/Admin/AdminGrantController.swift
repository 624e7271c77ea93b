import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The admin API for what people granted apps: list, revoke one permission, uninstall, and end the data
/// access of their access tokens. Mounted behind the same guard as ``AdminController``.
///
/// - `GET /_admin/grants[?user_id=…]`
/// (`:user_id` and `user_id` take a test user's ID or email.)
/// - `DELETE /_admin/grants/:app_id/:user_id`: the person removes the app (an uninstall: the next login
///   asks for consent afresh).
/// - `DELETE /_admin/grants/:app_id/:user_id/permissions/:permission`: the person's decision on that
///   permission is forgotten, so the next login that asks for it shows the consent page again. (The Graph
///   API's `DELETE me/permissions/{permission}`, which the app calls, records it as declined instead, and
///   the dialog then asks again only with `auth_type=rerequest`, as the real service does.)
/// - `POST /_admin/grants/:app_id/:user_id/expire-data-access`: the person's access tokens for the app keep
///   working but no longer read data, as after 90 days without a login.
struct AdminGrantController: Sendable {
    let services: ProviderServices
    var store: ProviderStore { services.store }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/grants") { request, _ in try await list(request) }
        router.delete("/_admin/grants/:app_id/:user_id") { request, context in
            try await uninstall(context.parameters.get("app_id") ?? "", context.parameters.get("user_id") ?? "")
        }
        router.delete("/_admin/grants/:app_id/:user_id/permissions/:permission") { request, context in
                            try await revoke(
                    context.parameters.get("app_id") ?? "", context.parameters.get("user_id") ?? "",
                    context.parameters.get("permission") ?? ""
                )
        }
        router.post("/_admin/grants/:app_id/:user_id/expire-data-access") { request, context in
            try await expireDataAccess(context.parameters.get("app_id") ?? "", context.parameters.get("user_id") ?? "")
        }
    }

    static func json(_ grant: GrantRecord) -> JSONValue {
        .object([
            "app_id": .string(grant.appID), "user_id": .string(grant.userID),
            "granted": .array(grant.granted.map(\.name).sorted().map { .string($0) }),
            "declined": .array(grant.declined.map(\.name).sorted().map { .string($0) }),
            "installed": .bool(grant.installed), "updated_at": .number(Double(grant.updatedAt)),
        ])
    }

    private func list(_ request: Request) async throws -> Response {
        let userID: String?
        do { userID = try FormParameters(encoded: request.uri.query ?? "").single("user_id") } catch {
            throw AdminError.badRequest("The query cannot be read: \(error.description).")
        }
        var user: TestUserRecord?
        if let userID {
            user = try await store.user(idOrEmail: userID)
            guard user != nil else { throw AdminError.notFound("No test user with ID or email \(userID).") }
        }
        return Responses.json(.object(["grants": .array(try await store.grants(userID: user?.id).map(Self.json))]))
    }

    /// The installed grant of this app and person (`user` an ID or an email); 404 when there is none.
    private func installedGrant(_ appID: String, _ user: String) async throws -> GrantRecord {
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        guard let userID = try await store.user(idOrEmail: user)?.id else {
            throw AdminError.notFound("No test user with ID or email \(user).")
        }
        guard let grant = try await store.grant(appID: appID, userID: userID), grant.installed else {
            throw AdminError.notFound("Test user \(user) has not installed app \(appID) (no login, or uninstalled).")
        }
        return grant
    }

    private func uninstall(_ appID: String, _ user: String) async throws -> Response {
        let grant = try await installedGrant(appID, user)
        _ = try await store.uninstall(appID: appID, userID: grant.userID)
        services.logger.notice("app uninstalled by the admin API", metadata: ["app": "\(appID)", "user": "\(grant.userID)"])
        return Responses.json(.object(["success": true]))
    }

    private func revoke(_ appID: String, _ userID: String, _ name: String) async throws -> Response {
        let permission = Permission(name: name)
        guard permission.isValid else { throw AdminError.badRequest("\(name) is not a valid permission name.") }
        guard permission != .publicProfile else {
            throw AdminError.badRequest("public_profile cannot be revoked alone; DELETE /_admin/grants/\(appID)/\(userID) uninstalls the app.")
        }
        var grant = try await installedGrant(appID, userID)
        guard grant.granted.remove(permission) != nil else {
            throw AdminError.notFound("Test user \(userID) has not granted \(name) to app \(appID).")
        }
        grant.updatedAt = ProviderTime.now()
        try await store.saveGrant(grant)
        return Responses.json(Self.json(grant))
    }

    private func expireDataAccess(_ appID: String, _ user: String) async throws -> Response {
        let grant = try await installedGrant(appID, user)
        let count = try await store.expireDataAccess(appID: appID, userID: grant.userID)
        return Responses.json(.object(["success": true, "access_tokens": .number(Double(count))]))
    }
}
