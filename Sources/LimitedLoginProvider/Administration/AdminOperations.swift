/// The provider's administration as typed operations: apps, test users, friendships, grants, keys, the
/// clock and scenarios. The `/_admin` routes (``AdminController`` and the controllers beside it) are thin
/// adapters that read a request into these operations' inputs and write their results; the console calls
/// the same operations directly. Every refusal is an ``AdminError`` with its status and one sentence.
struct AdminOperations: Sendable {
    let services: ProviderServices
    var store: ProviderStore { services.store }

    /// A validation reason (`app ID "abc" must be digits`) as a sentence.
    static func sentence(_ reason: String) -> String {
        guard let first = reason.first else { return reason }
        return first.uppercased() + reason.dropFirst() + (reason.hasSuffix(".") ? "" : ".")
    }
}
