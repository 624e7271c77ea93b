/// A person's role on an app, as the admin API shows it: `{"user_id", "role"}`.
struct AdminRole: Sendable, Equatable, Encodable {
    var user_id: String
    var role: String

    init(userID: String, role: AppRole) {
        user_id = userID
        self.role = role.rawValue
    }
}
