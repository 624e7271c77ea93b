import HTTPTypes
import LimitedLoginCore
import LimitedLoginJOSE

/// A console form, turned into the admin API call it stands for (``AdminAPI``): the console has no
/// operation of its own.
struct ConsoleAction: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let body: AdminAPI.Body?
    /// The action's name (`create-app`, …).
    let name: String

    /// The part of the console to show afterwards.
    var section: String { Self.outcomes[name]?.section ?? "title" }

    /// What the console says once an action's call succeeded (`?done=<name>`); nil for an unknown name.
    static func doneMessage(for name: String) -> String? { outcomes[name]?.done }

    private static let outcomes: [String: (done: String, section: String)] = [
        "create-app": ("The app was created.", "apps"),
        "edit-app": ("The app was changed.", "apps"),
        "move-app": ("The app's business was changed.", "apps"),
        "delete-app": ("The app was deleted.", "apps"),
        "create-user": ("The test user was created.", "users"),
        "generate-user": ("A test user was generated.", "users"),
        "edit-user": ("The test user was changed.", "users"),
        "delete-user": ("The test user was deleted.", "users"),
        "revoke-permission": ("The permission was revoked.", "grants"),
        "uninstall": ("The app was uninstalled for that person.", "grants"),
        "expire-data-access": ("Their data access has expired.", "grants"),
        "rotate-key": ("A new signing key was scheduled.", "keys"),
        "advance-clock": ("The clock moved.", "harness"),
        "reset-clock": ("The clock follows the system's again.", "harness"),
        "clear-scenarios": ("The queued scenarios were cleared.", "harness"),
        "mint-token": ("A token was minted; it is below, to copy.", "mint"),
        "add-friends": ("They are friends now.", "friends"),
        "remove-friends": ("They are no longer friends.", "friends"),
    ]

    /// Why a form cannot become a call.
    struct FormError: Error {
        let message: String
    }

    /// The action named in `/_console/actions/:name`, read from its form.
    static func parse(_ name: String, _ form: FormParameters) throws(FormError) -> ConsoleAction {
        let field = Fields(form: form)
        switch name {
        case "create-app":
            var app: [String: JSONValue] = ["name": .string(try field.required("name", "The app needs a name."))]
            app["id"] = .string(field.optional("id") ?? RandomIdentifiers.numericID())
            let uris = field.lines("redirect_uris")
            if !uris.isEmpty { app["redirect_uris"] = .array(uris.map { .string($0) }) }
            if let business = field.optional("business_id") { app["business_id"] = .string(business) }
            if field.optional("gaming") == "1" { app["gaming"] = true }
            return ConsoleAction(method: .post, path: "/_admin/apps", body: .json(.object(JSONObject(app))), name: name)
        case "edit-app":
            let id = try field.id("app_id")
            var edit: [String: JSONValue] = [:]
            if let name = field.optional("name") { edit["name"] = .string(name) }
            if form.all("redirect_uris").count == 1 { edit["redirect_uris"] = .array(field.lines("redirect_uris").map { .string($0) }) }
            if field.optional("new_secret") == "1" { edit["new_secret"] = true }
            // The edit form always sends `gaming_shown`, so an unticked box turns the flag off.
            if field.optional("gaming_shown") == "1" { edit["gaming"] = .bool(field.optional("gaming") == "1") }
            return ConsoleAction(method: .post, path: "/_admin/apps/\(id)", body: .json(.object(JSONObject(edit))), name: name)
        case "move-app":
            let id = try field.id("app_id")
            let business: JSONValue = field.optional("business_id").map { .string($0) } ?? .null
            return ConsoleAction(
                method: .post, path: "/_admin/apps/\(id)/business", body: .json(.object(["business_id": business])),
                name: name
            )
        case "delete-app":
            return ConsoleAction(method: .delete, path: "/_admin/apps/\(try field.id("app_id"))", body: nil, name: name)
        case "create-user":
            return ConsoleAction(method: .post, path: "/_admin/users", body: .json(try user(field)), name: name)
        case "edit-user":
            let id = try field.id("user_id")
            var edit: [String: JSONValue] = [:]
            for name in ["first_name", "last_name", "email"] { edit[name] = .string(try field.required(name, "The test user needs a \(name.replacingOccurrences(of: "_", with: " ")).")) }
            // An emptied optional field removes it; an empty password keeps theirs.
            for name in ["middle_name", "birthday", "gender", "link", "gaming_name"] { edit[name] = field.optional(name).map { .string($0) } ?? .null }
            if let password = field.optional("password") { edit["password"] = .string(password) }
            for place in ["hometown", "location"] {
                edit[place] = field.optional(place).map { name in
                    .object(["id": .string(field.optional(place + "_id") ?? RandomIdentifiers.numericID()), "name": .string(name)])
                } ?? .null
            }
            edit["pickable"] = .bool(field.optional("pickable") == "1")
            return ConsoleAction(method: .post, path: "/_admin/users/\(id)", body: .json(.object(JSONObject(edit))), name: name)
        case "generate-user":
            return ConsoleAction(method: .post, path: "/_admin/users", body: .json(GeneratedPerson.random().fixtureJSON), name: name)
        case "delete-user":
            return ConsoleAction(method: .delete, path: "/_admin/users/\(try field.id("user_id"))", body: nil, name: name)
        case "add-friends", "remove-friends":
            let body: AdminAPI.Body = .json(.object([
                "user_id": .string(try field.required("user_id", "Choose the first test user.")),
                "friend_id": .string(try field.required("friend_id", "Choose their friend.")),
            ]))
            let adding = name == "add-friends"
            return ConsoleAction(
                method: adding ? .post : .delete, path: "/_admin/friendships", body: body,
                name: name
            )
        case "revoke-permission":
            let path = "/_admin/grants/\(try field.id("app_id"))/\(try field.id("user_id"))/permissions/\(try field.id("permission"))"
            return ConsoleAction(method: .delete, path: path, body: nil, name: name)
        case "uninstall":
            let path = "/_admin/grants/\(try field.id("app_id"))/\(try field.id("user_id"))"
            return ConsoleAction(method: .delete, path: path, body: nil, name: name)
        case "expire-data-access":
            let path = "/_admin/grants/\(try field.id("app_id"))/\(try field.id("user_id"))/expire-data-access"
            return ConsoleAction(method: .post, path: path, body: nil, name: name)
        case "rotate-key":
            var body: AdminAPI.Body?
            if let delay = field.optional("publish_delay") {
                guard delay.allSatisfy({ $0.isASCII && $0.isNumber }), delay.count <= 8 else {
                    throw FormError(message: "The publish delay must be a number of seconds.")
                }
                body = .form("publish_delay=" + delay)
            }
            return ConsoleAction(method: .post, path: "/_admin/keys/rotate", body: body, name: name)
        case "advance-clock":
            guard let text = field.optional("seconds"), let seconds = Int64(text) else {
                throw FormError(message: "Give the seconds to move the clock by (a whole number; negative moves it back).")
            }
            return ConsoleAction(method: .post, path: "/_admin/clock", body: .json(.object(["advance": .number(Double(seconds))])), name: name)
        case "reset-clock":
            return ConsoleAction(method: .post, path: "/_admin/clock", body: .json(.object(["reset": true])), name: name)
        case "clear-scenarios":
            return ConsoleAction(method: .delete, path: "/_admin/scenarios", body: nil, name: name)
        case "mint-token":
            return ConsoleAction(method: .post, path: "/_admin/tokens", body: .json(try mint(field)), name: name)
        default:
            throw FormError(message: "The console has no action called \(name).")
        }
    }

    /// The minting form: the same options as `POST /_admin/tokens` (empty fields are left out, so the
    /// admin API's defaults and refusals apply as they are).
    private static func mint(_ field: Fields) throws(FormError) -> JSONValue {
        var body: [String: JSONValue] = ["app_id": .string(try field.required("app_id", "Choose the app the token is for."))]
        if let subject = field.optional("subject") {
            body["subject"] = .string(subject)
        } else {
            body["user"] = .string(try field.required("user", "Choose a test user, or give a subject."))
        }
        let permissions = (field.optional("permissions") ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { JSONValue.string(String($0)) }
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
        return .object(JSONObject(body))
    }

    private static func user(_ field: Fields) throws(FormError) -> JSONValue {
        var user: [String: JSONValue] = [
            "first_name": .string(try field.required("first_name", "The test user needs a first name.")),
            "last_name": .string(try field.required("last_name", "The test user needs a last name.")),
            "email": .string(try field.required("email", "The test user needs an email.")),
        ]
        for name in ["middle_name", "password", "birthday", "gender", "link"] {
            if let value = field.optional(name) { user[name] = .string(value) }
        }
        for place in ["hometown", "location"] {
            if let value = field.optional(place) {
                user[place] = .object(["id": .string(RandomIdentifiers.numericID()), "name": .string(value)])
            }
        }
        user["pickable"] = .bool(field.optional("pickable") == "1")
        return .object(JSONObject(user))
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

        /// An ID or permission name that goes into a path: letters, digits, `_`, `-`, `.` and `@` only.
        func id(_ name: String) throws(FormError) -> String {
            let value = try required(name, "The form is missing \(name).")
            guard value.count <= 200, value.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSetCheck.isWordish($0)) }) else {
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

    private enum CharacterSetCheck {
        static func isWordish(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "@": return true
            default: return false
            }
        }
    }
}
