import HTTPTypes

/// The admin routes a scoped credential may use (docs/SECURITY.md, "Scoped admin credentials"), and on what
/// condition. A route not named here (keys, the clock's moves, reset, import and export, credentials, the
/// certificate authority, faults (they act on endpoints every app shares), recent logins, creating or deleting
/// apps, friendships, metrics) needs the organisation's admin token: a new route is the organisation's until
/// it is added here.
enum AdminRouteAccess: Equatable {
    /// The app the route works on is this path parameter; it must be the credential's.
    case appInPath(String)
    /// The operation keeps the caller to its apps itself (``AdminCaller/current``): lists are filtered,
    /// bodies and the users named are checked.
    case keptByOperation
    /// Any caller: reads that show nothing of an app (the clock, the list of token defects).
    case anyCaller

    /// The rule for a route (`context.endpointPath`, as `/_admin/apps/{id}`), nil for the organisation's.
    static func of(_ method: HTTPRequest.Method, _ endpoint: String) -> AdminRouteAccess? {
        rules["\(method.rawValue) \(endpoint)"]
    }

    private static let rules: [String: AdminRouteAccess] = [
        "GET /_admin/apps": .keptByOperation,
        "POST /_admin/apps/{id}": .appInPath("id"),
        "GET /_admin/apps/{id}/roles": .appInPath("id"),
        "PUT /_admin/apps/{id}/roles/{user}": .appInPath("id"),
        "DELETE /_admin/apps/{id}/roles/{user}": .appInPath("id"),
        "GET /_admin/apps/{id}/test-users": .appInPath("id"),
        "PUT /_admin/apps/{id}/test-users/{user}": .appInPath("id"),
        "DELETE /_admin/apps/{id}/test-users/{user}": .appInPath("id"),
        "POST /_admin/apps/{id}/data-deletion": .appInPath("id"),
        "GET /_admin/users": .keptByOperation,
        "POST /_admin/users": .keptByOperation,
        "POST /_admin/users/{id}": .keptByOperation,
        "DELETE /_admin/users/{id}": .keptByOperation,
        "GET /_admin/grants": .keptByOperation,
        "DELETE /_admin/grants/{app_id}/{user_id}": .appInPath("app_id"),
        "DELETE /_admin/grants/{app_id}/{user_id}/permissions/{permission}": .appInPath("app_id"),
        "POST /_admin/grants/{app_id}/{user_id}/expire-data-access": .appInPath("app_id"),
        "POST /_admin/tokens": .keptByOperation,
        "GET /_admin/tokens/defects": .anyCaller,
        "GET /_admin/clock": .anyCaller,
        "GET /_admin/log": .keptByOperation,
        "GET /_admin/scenarios": .keptByOperation,
        "POST /_admin/scenarios": .keptByOperation,
        "DELETE /_admin/scenarios": .keptByOperation,
        "DELETE /_admin/scenarios/{id}": .keptByOperation,
        "GET /_admin/deliveries": .keptByOperation,
    ]
}
