import Hummingbird
import LimitedLoginJOSE

/// The admin API for the apps' callbacks (docs/BEHAVIOUR.md, section 4). Mounted behind the same guard as
/// ``AdminController``.
///
/// - `GET /_admin/deliveries`: every delivery of a deauthorize or data-deletion callback, newest first, with
///   its status (`pending`, `delivered`, `failed`), attempts, last error and, for a data deletion, the
///   app's `status_url` and `confirmation_code`.
/// - `POST /_admin/apps/:id/data-deletion` `{"user_id": …}` (an ID or email): the person asks the app to
///   delete their data; 202 with the delivery, pending.
struct AdminCallbackController: Sendable {
    let services: ProviderServices
    var operations: AdminOperations { AdminOperations(services: services) }

    private struct DataDeletionBody: Decodable { var user_id: String }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/deliveries") { _, _ in
            Responses.json(.object(["deliveries": .array(try await operations.deliveries().map(\.json))]))
        }
        router.post("/_admin/apps/:id/data-deletion") { request, context in
            let body = try await AdminJSONBody.decode(
                DataDeletionBody.self, accepting: ["user_id"], from: request, limit: services.configuration.maximumBodySize)
            let delivery = try await operations.requestDataDeletion(appID: context.parameters.get("id") ?? "", user: body.user_id)
            return Responses.json(delivery.json, status: .accepted)
        }
    }
}
