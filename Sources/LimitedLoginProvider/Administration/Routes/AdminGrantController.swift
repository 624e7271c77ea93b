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

    var operations: AdminOperations { AdminOperations(services: services) }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/grants") { request, _ in
            let user: String?
            do { user = try FormParameters(encoded: request.uri.query ?? "").single("user_id") } catch let error as FormParametersError {
                throw AdminError.badRequest("The query cannot be read: \(error.description).")
            }
            return try Responses.json(["grants": try await operations.grants(user: user).map(AdminGrant.init)])
        }
        router.delete("/_admin/grants/:app_id/:user_id") { _, context in
            try await operations.uninstall(appID: context.parameters.get("app_id") ?? "", user: context.parameters.get("user_id") ?? "")
            return try Responses.json(AdminAcknowledgement())
        }
        router.delete("/_admin/grants/:app_id/:user_id/permissions/:permission") { _, context in
            let grant = try await operations.revoke(
                appID: context.parameters.get("app_id") ?? "", user: context.parameters.get("user_id") ?? "",
                permission: context.parameters.get("permission") ?? ""
            )
            return try Responses.json(AdminGrant(grant))
        }
        router.post("/_admin/grants/:app_id/:user_id/expire-data-access") { _, context in
            let count = try await operations.expireDataAccess(
                appID: context.parameters.get("app_id") ?? "", user: context.parameters.get("user_id") ?? ""
            )
            return try Responses.json(AdminAcknowledgement(access_tokens: count))
        }
    }
}
