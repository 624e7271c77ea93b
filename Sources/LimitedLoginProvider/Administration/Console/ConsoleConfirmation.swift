/// The question the console asks before a change that cannot be undone (`GET /_console/confirm/{action}`):
/// a Delete, Remove or Uninstall in a list is a link to it, and only its form posts the action. The
/// action itself stays one form post, as the admin API's call is one request.
struct ConsoleConfirmation: Sendable {
    let action: String
    let section: ConsoleSection
    let question: String
    let consequence: String
    let button: String
    /// The action's fields, carried to its form.
    let fields: [(name: String, value: String)]

    /// Why there is nothing to confirm.
    struct Refusal: Error {
        let section: ConsoleSection
        let message: String
    }

    /// The confirmation of `action` for the query's fields, with names read from the store.
    static func make(_ action: String, query: [String: String], store: ProviderStore) async throws -> Result<ConsoleConfirmation, Refusal> {
        switch action {
        case "delete-app":
            guard let id = query["app_id"], let app = try await store.app(id: id) else {
                return .failure(Refusal(section: .apps, message: "No app with ID \(query["app_id"] ?? "(none given)")."))
            }
            return .success(
                ConsoleConfirmation(
                    action: action, section: .apps, question: "Delete the app \(app.name) (\(app.id))?",
                    consequence: "Its grants, app-scoped IDs, tokens and roles go with it, and its dialog stops working. This cannot be undone.",
                    button: "Delete \(app.name)", fields: [("app_id", app.id)]))
        case "delete-user":
            guard let id = query["user_id"], let user = try await store.user(id: id) else {
                return .failure(Refusal(section: .users, message: "No test user with ID \(query["user_id"] ?? "(none given)")."))
            }
            return .success(
                ConsoleConfirmation(
                    action: action, section: .users, question: "Delete the test user \(user.fullName) (\(user.email))?",
                    consequence: "Their grants, friendships, sessions and tokens go with them. This cannot be undone.",
                    button: "Delete \(user.fullName)", fields: [("user_id", user.id)]))
        case "remove-friends":
            guard let first = query["user_id"], let second = query["friend_id"], let one = try await store.user(id: first),
                let other = try await store.user(id: second)
            else {
                return .failure(Refusal(section: .friends, message: "The friendship names a test user that does not exist."))
            }
            return .success(
                ConsoleConfirmation(
                    action: action, section: .friends, question: "End the friendship of \(one.fullName) and \(other.fullName)?",
                    consequence: "Neither appears in the other's friends (user_friends) any more; making them friends again is one form.",
                    button: "End the friendship", fields: [("user_id", one.id), ("friend_id", other.id)]))
        case "uninstall":
            guard let appID = query["app_id"], let userID = query["user_id"], let app = try await store.app(id: appID),
                let user = try await store.user(id: userID)
            else {
                return .failure(Refusal(section: .grants, message: "The grant names an app or a test user that does not exist."))
            }
            return .success(
                ConsoleConfirmation(
                    action: action, section: .grants, question: "Uninstall \(app.name) for \(user.fullName)?",
                    consequence:
                        "As when the person removes the app: their tokens for it stop working, its deauthorize callback is posted, and their next login asks for consent again.",
                    button: "Uninstall", fields: [("app_id", app.id), ("user_id", user.id)]))
        case "clear-scenarios":
            return .success(
                ConsoleConfirmation(
                    action: action, section: .harness, question: "Clear every queued scenario?",
                    consequence: "The next dialogs run as a person would drive them.", button: "Clear the scenarios", fields: []))
        default:
            return .failure(Refusal(section: .overview, message: "The console asks nothing before \(action)."))
        }
    }

    func context() -> [String: Any] {
        [
            "question": question, "consequence": consequence, "button": button, "action": action, "backPath": section.path,
            "fields": fields.map { ["name": $0.name, "value": $0.value] },
        ]
    }
}
