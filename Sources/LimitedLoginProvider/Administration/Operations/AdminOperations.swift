/// The provider's administration as typed operations: apps, test users, friendships, grants, keys, the
/// clock and scenarios. The `/_admin` routes (``AdminController`` and the controllers beside it) are thin
/// adapters that read a request into these operations' inputs and write their results; the console calls
/// the same operations directly. Every refusal is an ``AdminError`` with its status and one sentence.
struct AdminOperations: Sendable {
    let services: ProviderServices
    var store: ProviderStore { services.store }

    /// The test user named by ID or email, if the caller may see them (``AdminCaller/current``): to a scoped
    /// credential, a user of none of its apps does not exist.
    func visibleUser(_ idOrEmail: String) async throws -> TestUserRecord? {
        guard let user = try await store.user(idOrEmail: idOrEmail) else { return nil }
        if case .organisation = AdminCaller.current { return user }
        return AdminCaller.current.maySee(userOfApps: try await store.appsOfTestUser(user.id)) ? user : nil
    }

    /// Refuses a scoped credential an app that is not its own (the route's guard checks it first; the console
    /// calls the operations directly).
    func requireTouchable(app appID: String) throws {
        guard AdminCaller.current.mayTouch(app: appID) else { throw AdminCaller.current.outOfScope("App \(appID) is not this credential's.") }
    }

    /// Refuses a scoped credential a change to a test user some app outside its scope shares, or a list of
    /// apps for a user that reaches outside it.
    func requireChangeable(userApps: [String], what: String) throws {
        guard AdminCaller.current.mayChange(userOfApps: userApps) else {
            throw AdminCaller.current.outOfScope("\(what) must belong to this credential's apps only.")
        }
    }

    /// A validation reason (`app ID "abc" must be digits`) as a sentence.
    static func sentence(_ reason: String) -> String {
        guard let first = reason.first else { return reason }
        return first.uppercased() + reason.dropFirst() + (reason.hasSuffix(".") ? "" : ".")
    }
}
