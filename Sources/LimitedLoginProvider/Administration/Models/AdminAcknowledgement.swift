/// The answer of an admin change that returns no model: `{"success": true}`, with what the change names
/// or counts when it has one of these.
struct AdminAcknowledgement: Sendable, Equatable, Encodable {
    var success = true
    /// The test user a deletion removed.
    var id: String?
    /// The test user added to an app's.
    var user_id: String?
    /// The credential revoked.
    var name: String?
    /// How many access tokens lost their data access.
    var access_tokens: Int?
    /// Whether a reset seeded the demo data again.
    var seeded_demo_data: Bool?
    /// What an import added.
    var apps_added: Int?
    var users_added: Int?
    var scenarios_queued: Int?
}
