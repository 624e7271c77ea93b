/// What a person granted an app, as the admin API shows it: `{"app_id", "user_id", "granted", "declined",
/// "installed", "updated_at"}`, the permissions sorted by name.
struct AdminGrant: Sendable, Equatable, Encodable {
    var app_id: String
    var user_id: String
    var granted: [String]
    var declined: [String]
    var installed: Bool
    var updated_at: Int64

    init(_ grant: GrantRecord) {
        app_id = grant.appID
        user_id = grant.userID
        granted = grant.granted.map(\.name).sorted()
        declined = grant.declined.map(\.name).sorted()
        installed = grant.installed
        updated_at = grant.updatedAt
    }
}
