import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// A console form, turned into the admin operation it stands for (``AdminOperations``, the same one the
/// `/_admin` routes run): the console has no operation of its own and builds no HTTP request.
struct ConsoleAction: Sendable {
    /// The action's name (`create-app`, …).
    let name: String
    /// Runs the operation; a minting answers the minted token, every other action nothing.
    let perform: @Sendable (AdminOperations) async throws -> MintedToken?

    init(name: String, perform: @escaping @Sendable (AdminOperations) async throws -> MintedToken?) {
        self.name = name
        self.perform = perform
    }

    /// An action that answers nothing.
    init(name: String, _ operation: @escaping @Sendable (AdminOperations) async throws -> Void) {
        self.init(name: name) { operations in
            try await operation(operations)
            return nil
        }
    }

    /// The console page to show afterwards.
    var section: ConsoleSection { Self.section(of: name) }

    /// The page an action's form is on (the overview for an unknown name).
    static func section(of name: String) -> ConsoleSection { outcomes[name]?.section ?? .overview }

    /// What the console says once an action succeeded (`?done=<name>`); nil for an unknown name.
    static func doneMessage(for name: String) -> String? { outcomes[name]?.done }

    private static let outcomes: [String: (done: String, section: ConsoleSection)] = [
        "create-app": ("The app was created.", .apps),
        "edit-app": ("The app was changed.", .apps),
        "move-app": ("The app's business was changed.", .apps),
        "delete-app": ("The app was deleted.", .apps),
        "create-user": ("The test user was created.", .users),
        "generate-user": ("A test user was generated.", .users),
        "edit-user": ("The test user was changed.", .users),
        "delete-user": ("The test user was deleted.", .users),
        "revoke-permission": ("The permission was revoked.", .grants),
        "uninstall": ("The app was uninstalled for that person.", .grants),
        "expire-data-access": ("Their data access has expired.", .grants),
        "request-data-deletion": ("The app's data deletion callback is being delivered; see Callback deliveries.", .deliveries),
        "rotate-key": ("A new signing key was scheduled.", .keys),
        "advance-clock": ("The clock moved.", .harness),
        "set-clock": ("The clock was set.", .harness),
        "reset-clock": ("The clock follows the system's again.", .harness),
        "queue-scenario": ("The scenario was queued.", .harness),
        "remove-scenario": ("The scenario was removed.", .harness),
        "clear-scenarios": ("The queued scenarios were cleared.", .harness),
        "import-state": ("The document was imported.", .harness),
        "mint-token": ("A token was minted; it is below, to copy.", .tokens),
        "inspect-token": ("The token is below, decoded.", .tokens),
        "add-friends": ("They are friends now.", .friends),
        "remove-friends": ("They are no longer friends.", .friends),
    ]

    /// Why a form cannot become an operation.
    struct FormError: Error {
        let message: String
    }

    /// The action named in `/_console/actions/:name`, read from its form.
    static func parse(_ name: String, _ form: FormParameters) throws(FormError) -> ConsoleAction {
        let field = Fields(form: form)
        switch name {
        case "create-app":
            let app = ProviderFixtures.App(
                id: field.optional("id") ?? RandomIdentifiers.numericID(), name: try field.required("name", "The app needs a name."),
                redirectURIs: field.lines("redirect_uris").isEmpty ? nil : field.lines("redirect_uris"), businessID: field.optional("business_id"),
                gaming: field.optional("gaming") == "1" ? true : nil,
                urlSchemeSuffixes: field.lines("url_scheme_suffixes").isEmpty ? nil : field.lines("url_scheme_suffixes"),
                requireAppSecretProof: field.optional("require_appsecret_proof") == "1" ? true : nil,
                deauthorizeCallbackURL: field.optional("deauthorize_callback_url"),
                dataDeletionCallbackURL: field.optional("data_deletion_callback_url"), mode: field.optional("mode")
            )
            return ConsoleAction(name: name) { _ = try await $0.createApp(app) }
        case "edit-app":
            let id = try field.id("app_id")
            var edit = AppEdit(name: field.optional("name"))
            if form.all("redirect_uris").count == 1 { edit.redirectURIs = field.lines("redirect_uris") }
            if form.all("url_scheme_suffixes").count == 1 { edit.urlSchemeSuffixes = field.lines("url_scheme_suffixes") }
            // An emptied field removes that callback.
            if form.all("deauthorize_callback_url").count == 1 { edit.deauthorizeCallbackURL = field.optional("deauthorize_callback_url") ?? "" }
            if form.all("data_deletion_callback_url").count == 1 { edit.dataDeletionCallbackURL = field.optional("data_deletion_callback_url") ?? "" }
            if field.optional("new_secret") == "1" { edit.newSecret = true }
            edit.mode = field.optional("mode")
            let roles: [String]? = form.all("roles").count == 1 ? field.lines("roles") : nil
            // The edit form always sends `gaming_shown`, so an unticked box (gaming, Require App Secret) turns its flag off.
            if field.optional("gaming_shown") == "1" {
                edit.gaming = field.optional("gaming") == "1"
                edit.requireAppSecretProof = field.optional("require_appsecret_proof") == "1"
            }
            return ConsoleAction(name: name) { [edit] (operations: AdminOperations) async throws -> Void in
                // Everything checked before anything is written: a refused field or role line changes nothing.
                let app = edit != AppEdit(name: nil) ? try await operations.editedApp(id: id, edit) : nil
                var wanted: [String: AppRole]?
                if let roles { wanted = try await operations.roles(appID: id, lines: roles) }
                if let wanted { try await operations.replaceRoles(appID: id, with: wanted) }
                if let app { _ = try await operations.saveEditedApp(app) }
            }
        case "move-app":
            let id = try field.id("app_id")
            let business = field.optional("business_id")
            return ConsoleAction(name: name) { _ = try await $0.moveApp(id: id, toBusiness: business) }
        case "delete-app":
            let id = try field.id("app_id")
            return ConsoleAction(name: name) { try await $0.deleteApp(id: id) }
        case "create-user":
            let user = try user(field)
            return ConsoleAction(name: name) { _ = try await $0.createUser(user) }
        case "edit-user":
            let id = try field.id("user_id")
            // Every field the form shows is named: an emptied optional field removes it; an empty password keeps theirs.
            var user = try user(field)
            user.gamingName = field.optional("gaming_name")
            // A place keeps its ID when the form carries it.
            if let id = field.optional("hometown_id") { user.hometown?.id = id }
            if let id = field.optional("location_id") { user.location?.id = id }
            var named: [TestUserChanges.Field] = [
                .firstName, .middleName, .lastName, .email, .birthday, .gender, .hometown, .location, .link, .pickable, .gamingName,
            ]
            if user.password != nil { named.append(.password) }
            return ConsoleAction(name: name) { [user, named] in _ = try await $0.editUser(id, changes: try TestUserChanges(setting: named, to: user))
            }
        case "generate-user":
            let person = GeneratedPerson.random().fixture
            return ConsoleAction(name: name) { _ = try await $0.createUser(person) }
        case "delete-user":
            let id = try field.id("user_id")
            return ConsoleAction(name: name) { _ = try await $0.deleteUser(id) }
        case "add-friends", "remove-friends":
            let first = try field.required("user_id", "Choose the first test user.")
            let second = try field.required("friend_id", "Choose their friend.")
            let adding = name == "add-friends"
            return ConsoleAction(name: name) { try await $0.setFriendship(first, second, friends: adding) }
        case "revoke-permission":
            let (app, user, permission) = (try field.id("app_id"), try field.id("user_id"), try field.id("permission"))
            return ConsoleAction(name: name) { _ = try await $0.revoke(appID: app, user: user, permission: permission) }
        case "uninstall":
            let (app, user) = (try field.id("app_id"), try field.id("user_id"))
            return ConsoleAction(name: name) { try await $0.uninstall(appID: app, user: user) }
        case "request-data-deletion":
            let (app, user) = (try field.id("app_id"), try field.id("user_id"))
            return ConsoleAction(name: name) { _ = try await $0.requestDataDeletion(appID: app, user: user) }
        case "expire-data-access":
            let (app, user) = (try field.id("app_id"), try field.id("user_id"))
            return ConsoleAction(name: name) { _ = try await $0.expireDataAccess(appID: app, user: user) }
        case "rotate-key":
            var delay = RotationDefaults.publishDelay
            if let text = field.optional("publish_delay") {
                guard text.allSatisfy({ $0.isASCII && $0.isNumber }), text.count <= 8, let seconds = Int64(text) else {
                    throw FormError(message: "The publish delay must be a number of seconds.")
                }
                delay = seconds
            }
            return ConsoleAction(name: name) { [delay] in _ = try await $0.rotateKeys(publishDelay: delay) }
        case "advance-clock":
            guard let text = field.optional("seconds"), let seconds = Int64(text) else {
                throw FormError(message: "Give the seconds to move the clock by (a whole number; negative moves it back).")
            }
            return ConsoleAction(name: name) { _ = try await $0.moveClock(.advance(seconds: seconds)) }
        case "set-clock":
            guard let text = field.optional("time"), let time = ConsoleClockInput.parse(text) else {
                throw FormError(message: "Give the date and time to set the clock to (UTC), such as 2030-01-31T12:00.")
            }
            let force = field.optional("force") == "1"
            return ConsoleAction(name: name) { _ = try await $0.moveClock(.set(to: time), force: force) }
        case "reset-clock":
            return ConsoleAction(name: name) { _ = try await $0.moveClock(.reset) }
        case "queue-scenario":
            let body = try scenario(field)
            return ConsoleAction(name: name) { _ = try await $0.queueScenario(try ScenarioRequest(body)) }
        case "remove-scenario":
            guard let text = field.optional("scenario_id"), let id = Int(text), id > 0 else {
                throw FormError(message: "The form is missing the scenario's ID.")
            }
            return ConsoleAction(name: name) { try $0.removeScenario(id: id) }
        case "clear-scenarios":
            return ConsoleAction(name: name) { _ = try $0.clearScenarios() }
        case "import-state":
            let document = try field.required("document", "Paste a fixtures or export document (JSON) to import.")
            return ConsoleAction(name: name) { _ = try await $0.importState(Data(document.utf8)) }
        case "mint-token":
            let body = try mint(field)
            return ConsoleAction(name: name) { operations -> MintedToken? in
                let request = try MintRequest(body, now: ProviderTime.now(), idTokenLifetime: operations.services.configuration.lifetimes.idToken)
                return try await operations.mintToken(request)
            }
        default:
            throw FormError(message: "The console has no action called \(name).")
        }
    }

    /// The minting form: the same options as `POST /_admin/tokens` (empty fields are left out, so the
    /// admin API's defaults and refusals apply as they are).
    private static func mint(_ field: Fields) throws(FormError) -> JSONObject {
        var body: [String: JSONValue] = ["app_id": .string(try field.required("app_id", "Choose the app the token is for."))]
        if let subject = field.optional("subject") {
            body["subject"] = .string(subject)
        } else {
            body["user"] = .string(try field.required("user", "Choose a test user, or give a subject."))
        }
        let permissions = (field.optional("permissions") ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map {
            JSONValue.string(String($0))
        }
        if !permissions.isEmpty { body["permissions"] = .array(permissions) }
        for name in ["nonce", "raw_nonce", "tracking", "defect"] {
            if let value = field.optional(name) { body[name] = .string(value) }
        }
        if let claims = field.optional("claims") {
            guard let object = (try? StrictJSONParser().parse(Array(claims.utf8)))?.objectValue else {
                throw FormError(message: "The claims must be a JSON object, such as {\"email\": \"x@example.com\", \"picture\": null}.")
            }
            body["claims"] = .object(object)
        }
        if let text = field.optional("lifetime") {
            guard let seconds = Int64(text) else { throw FormError(message: "The lifetime must be a whole number of seconds.") }
            body["lifetime"] = .number(Double(seconds))
        }
        return JSONObject(body)
    }

    /// The scenario form as the admin API's body (`POST /_admin/scenarios`): the outcome's own fields only.
    private static func scenario(_ field: Fields) throws(FormError) -> JSONObject {
        var body: [String: JSONValue] = ["app_id": .string(try field.required("app_id", "Choose the app whose next dialog the scenario decides."))]
        if let user = field.optional("user") { body["user"] = .string(user) }
        let outcome = field.optional("outcome") ?? "cancel"
        body["outcome"] = .string(outcome)
        switch outcome {
        case "error":
            if let text = field.optional("code") {
                guard let code = Int(text) else { throw FormError(message: "The error code must be a whole number.") }
                body["code"] = .number(Double(code))
            }
            if let message = field.optional("message") { body["message"] = .string(message) }
        case "claims":
            guard let text = field.optional("claims"), let object = (try? StrictJSONParser().parse(Array(text.utf8)))?.objectValue else {
                throw FormError(message: "The claims must be a JSON object, such as {\"email\": \"x@example.com\"}.")
            }
            body["claims"] = .object(object)
        default:
            break
        }
        return JSONObject(body)
    }

    /// The user form as the admin API's user shape (`POST /_admin/users`); a place named without an ID gets one.
    private static func user(_ field: Fields) throws(FormError) -> ProviderFixtures.User {
        func place(_ name: String) -> ProviderFixtures.Place? {
            field.optional(name).map { ProviderFixtures.Place(id: RandomIdentifiers.numericID(), name: $0) }
        }
        return ProviderFixtures.User(
            firstName: try field.required("first_name", "The test user needs a first name."), middleName: field.optional("middle_name"),
            lastName: try field.required("last_name", "The test user needs a last name."),
            email: try field.required("email", "The test user needs an email."), password: field.optional("password"),
            birthday: field.optional("birthday"), gender: field.optional("gender"), hometown: place("hometown"), location: place("location"),
            link: field.optional("link"), pickable: field.optional("pickable") == "1"
        )
    }

    /// A form's fields, trimmed; an empty field counts as absent.
    private struct Fields {
        let form: FormParameters

        func optional(_ name: String) -> String? {
            guard let value = form.all(name).first?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return value
        }

        func required(_ name: String, _ message: String) throws(FormError) -> String {
            guard let value = optional(name) else { throw FormError(message: message) }
            return value
        }

        /// An ID or permission name that goes into a path: letters, digits, `_`, `-`, `.` and `@` only (``RecordID``).
        func id(_ name: String) throws(FormError) -> String {
            let value = try required(name, "The form is missing \(name).")
            guard RecordID.isAcceptable(value) else {
                throw FormError(message: "\(name) holds characters an ID never has.")
            }
            return value
        }

        /// One value per non-empty line.
        func lines(_ name: String) -> [String] {
            (form.all(name).first ?? "").split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

}

extension ConsoleAction {
    /// The changes a scoped credential may make from the console (each operation still keeps it to its apps
    /// and their test users); the organisation may make every one.
    static func isOpen(_ name: String, to caller: AdminCaller) -> Bool {
        switch caller {
        case .organisation: true
        case .credential: scopedActions.contains(name)
        }
    }

    private static let scopedActions: Set<String> = [
        "edit-app", "create-user", "edit-user", "generate-user", "delete-user", "revoke-permission", "uninstall", "request-data-deletion",
        "expire-data-access", "mint-token", "inspect-token",
    ]
}
