/// A signing key as the admin API lists it.
struct AdminKey: Sendable, Equatable {
    let record: SigningKeyRecord
    let signing: Bool
    let state: String
    /// When a retired key stops being published.
    let unpublishedAt: Int64?
}
