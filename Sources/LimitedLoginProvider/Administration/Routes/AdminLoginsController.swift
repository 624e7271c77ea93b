import Hummingbird
import LimitedLoginJOSE

/// `GET /_admin/logins`: the last logins this node completed (``RecentLogins``), newest first, each with
/// the decoded claims of its ID token.
struct AdminLoginsController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/logins") { request, _ in
            Responses.json(.object(["logins": .array(services.recentLogins.all.map(\.json))]))
        }
    }
}
