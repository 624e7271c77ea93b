import Foundation
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The admin API for apps, test users and friendships (JSON bodies in the fixtures file's shapes), and
/// reset. Mounted behind the same admin-token guard as ``AdminController``.
struct AdminDirectoryController: Sendable {
    let services: ProviderServices
    var store: ProviderStore { services.store }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/apps") { request, _ in try await listApps() }
        router.post("/_admin/apps") { request, _ in try await createApp(request) }
        router.delete("/_admin/apps/:id") { request, context in
            try await deleteApp(context.parameters.get("id") ?? "")
        }
        router.post("/_admin/apps/:id") { request, context in
            try await editApp(context.parameters.get("id") ?? "", request)
        }
        router.post("/_admin/apps/:id/business") { request, context in
            try await moveApp(context.parameters.get("id") ?? "", request)
        }
        router.get("/_admin/users") { request, _ in try await listUsers() }
        router.post("/_admin/users") { request, _ in try await createUser(request) }
        router.post("/_admin/users/:id") { request, context in
            try await editUser(context.parameters.get("id") ?? "", request)
        }
        router.delete("/_admin/users/:id") { request, context in
            try await deleteUser(context.parameters.get("id") ?? "")
        }
        router.post("/_admin/friendships") { request, _ in try await friendship(request, add: true) }
        router.delete("/_admin/friendships") { request, _ in try await friendship(request, add: false) }
    }


    /// A validation reason (`app ID "abc" must be digits`) as a sentence.
    static func sentence(_ reason: String) -> String {
        guard let first = reason.first else { return reason }
        return first.uppercased() + reason.dropFirst() + (reason.hasSuffix(".") ? "" : ".")
    }

    /// Reads a JSON body into `type`, refusing a key that is not one of `accepted` (a misspelt key is an
    /// error, never ignored).
    private func decode<T: Decodable>(_ type: T.Type, accepting accepted: [String], from request: Request) async throws -> Result<T, AdminBodyError> {
        guard (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") else {
            return .failure(AdminBodyError("Send a JSON body (Content-Type: application/json)."))
        }
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: services.configuration.maximumBodySize) } catch {
            return .failure(AdminBodyError("The body is larger than \(services.configuration.maximumBodySize) bytes."))
        }
        // The strict reader first: duplicate names or bad UTF-8 are refused before Foundation reads it.
        do {
            if case .object(let object) = try StrictJSONParser().parse(Array(buffer.readableBytesView)),
               let message = object.unknownKeyMessage(accepted: accepted) {
                return .failure(AdminBodyError(message))
            }
        } catch {
            return .failure(AdminBodyError("The body is not valid JSON: \(error)."))
        }
        do { return .success(try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))) } catch {
            return .failure(AdminBodyError("The body does not fit: \(Self.describe(error))."))
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }

    private static func json(_ app: AppRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(app.id), "name": .string(app.name), "secret": .string(app.secret),
            "redirect_uris": .array(app.redirectURIs.map { .string($0) }),
        ]
        if let business = app.businessID { object["business_id"] = .string(business) }
        if app.isGaming { object["gaming"] = true }
        return .object(JSONObject(object))
    }

    private static func json(_ user: TestUserRecord, friends: [String]) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(user.id), "first_name": .string(user.firstName), "last_name": .string(user.lastName),
            "email": .string(user.email), "friends": .array(friends.map { .string($0) }), "pickable": .bool(user.pickable),
        ]
        if let middle = user.middleName { object["middle_name"] = .string(middle) }
        if let birthday = user.birthday { object["birthday"] = .string(birthday) }
        if let gender = user.gender { object["gender"] = .string(gender) }
        if let link = user.link { object["link"] = .string(link) }
        if let hometown = user.hometown { object["hometown"] = hometown.json }
        if let location = user.location { object["location"] = location.json }
        if let range = user.ageRange { object["age_range"] = range.json }
        if let gamingName = user.gamingName { object["gaming_name"] = .string(gamingName) }
        return .object(JSONObject(object))
    }

    private func listApps() async throws -> Response {
        Responses.json(.object(["apps": .array(try await store.apps().map(Self.json))]))
    }

    private func createApp(_ request: Request) async throws -> Response {
        let app: ProviderFixtures.App
        switch try await decode(ProviderFixtures.App.self, accepting: ProviderFixtures.App.CodingKeys.allCases.map(\.rawValue), from: request) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let decoded): app = decoded
        }
        for uri in app.redirectURIs ?? [] {
            do { try RedirectURIRegistration.check(uri) } catch { throw AdminError.badRequest(error.description) }
        }
        do { try ProviderFixtures(apps: [app]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        let record = AppRecord(
            id: app.id, secret: app.secret ?? RandomIdentifiers.appSecret(), name: app.name, businessID: app.businessID,
            redirectURIs: app.redirectURIs ?? [], isGaming: app.gaming ?? false
        )
        do { try await store.createApp(record) } catch {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("An app with ID \(app.id) already exists.")
        }
        return Responses.json(Self.json(record), status: .created)
    }

    private func deleteApp(_ id: String) async throws -> Response {
        guard try await store.deleteApp(id: id) else { throw AdminError.notFound("No app with ID \(id).") }
        return Responses.json(.object(["success": true]))
    }

    /// `POST /_admin/apps/:id`: any of `name`, `redirect_uris` (replacing the list), `new_secret: true` and
    /// `gaming`.
    private struct AppEdit: Decodable {
        var name: String?
        var redirect_uris: [String]?
        var new_secret: Bool?
        var gaming: Bool?
    }

    private func editApp(_ id: String, _ request: Request) async throws -> Response {
        let edit: AppEdit
        switch try await decode(AppEdit.self, accepting: ["name", "redirect_uris", "new_secret", "gaming"], from: request) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let decoded): edit = decoded
        }
        guard let existing = try await store.app(id: id) else { throw AdminError.notFound("No app with ID \(id).") }
        if let name = edit.name {
            let changed = ProviderFixtures.App(id: id, secret: existing.secret, name: name)
            do { try ProviderFixtures(apps: [changed]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        }
        for uri in edit.redirect_uris ?? [] {
            do { try RedirectURIRegistration.check(uri) } catch { throw AdminError.badRequest(error.description) }
        }
        guard edit.name != nil || edit.redirect_uris != nil || edit.new_secret == true || edit.gaming != nil else {
            throw AdminError.badRequest("Send at least one of name, redirect_uris, new_secret: true and gaming.")
        }
        let app = try await store.updateApp(
            id: id, name: edit.name, redirectURIs: edit.redirect_uris,
            secret: edit.new_secret == true ? RandomIdentifiers.appSecret() : nil, isGaming: edit.gaming
        )
        guard let app else { throw AdminError.notFound("No app with ID \(id).") }
        return Responses.json(Self.json(app))
    }

    private struct BusinessMove: Decodable { var business_id: String? }

    private func moveApp(_ id: String, _ request: Request) async throws -> Response {
        let move: BusinessMove
        switch try await decode(BusinessMove.self, accepting: ["business_id"], from: request) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let decoded): move = decoded
        }
        guard let app = try await store.moveApp(id: id, toBusiness: move.business_id) else {
            throw AdminError.notFound("No app with ID \(id).")
        }
        return Responses.json(Self.json(app))
    }

    private func listUsers() async throws -> Response {
        var users: [JSONValue] = []
        for user in try await store.users() {
            users.append(Self.json(user, friends: try await store.friendIDs(of: user.id)))
        }
        return Responses.json(.object(["users": .array(users)]))
    }

    private func createUser(_ request: Request) async throws -> Response {
        var user: ProviderFixtures.User
        switch try await decode(ProviderFixtures.User.self, accepting: ProviderFixtures.User.CodingKeys.allCases.map(\.rawValue), from: request) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let decoded): user = decoded
        }
        do { try ProviderFixtures(users: [user]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        var friendIDs: [String] = []
        for friend in user.friends ?? [] {
            guard let found = try await store.user(idOrEmail: friend) else {
                throw AdminError.badRequest("The friend \(friend) is not a test user (give an ID or an email).")
            }
            friendIDs.append(found.id)
        }
        if user.friends != nil { user.friends = friendIDs }
        if user.id == nil { user.id = RandomIdentifiers.numericID() }
        do {
            try await FixtureLoader(store: store).create(user)
        } catch let error as StoreError {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("A test user with this ID or email already exists.")
        }
        let id = user.id ?? ""
        guard let stored = try await store.user(id: id) else { throw HTTPError(.internalServerError) }
        return Responses.json(Self.json(stored, friends: try await store.friendIDs(of: id)), status: .created)
    }

    /// The fields `POST /_admin/users/:id` changes, in the fixtures file's names.
    static let editableUserFields = [
        "first_name", "middle_name", "last_name", "email", "password", "birthday", "gender", "hometown", "location", "link",
        "pickable", "age_range", "gaming_name",
    ]

    /// `POST /_admin/users/:id`: the given fields replace the user's (`null` removes an optional one; a
    /// `password` replaces theirs); the rest, their ID, friendships and grants stay. Checked as a new user is.
    private func editUser(_ id: String, _ request: Request) async throws -> Response {
        let body: JSONObject
        switch await AdminJSONBody.read(request, limit: services.configuration.maximumBodySize) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let object): body = object
        }
        let fields = Self.editableUserFields.joined(separator: ", ")
        guard !body.isEmpty else { throw AdminError.badRequest("Send the fields to change: \(fields).") }
        if let unknown = body.keys.first(where: { !Self.editableUserFields.contains($0) }) {
            throw AdminError.badRequest("\"\(unknown)\" cannot be changed here; the fields are \(fields).")
        }
        guard let existing = try await store.user(idOrEmail: id) else {
            throw AdminError.notFound("No test user with ID or email \(id).")
        }
        let storedHash = try await store.userWithPasswordHash(email: existing.email)?.1
        guard case .object(var merged) = Self.json(existing, friends: []) else { throw HTTPError(.internalServerError) }
        merged["friends"] = nil
        for (key, value) in body { merged[key] = value == .null ? nil : value }
        if body["password"] == nil, let storedHash { merged["password_hash"] = .string(storedHash) }
        var user: ProviderFixtures.User
        do { user = try JSONDecoder().decode(ProviderFixtures.User.self, from: Data(JSONSerializer.serialize(.object(merged)))) } catch {
            throw AdminError.badRequest("The body does not fit: \(Self.describe(error)).")
        }
        user.id = existing.id
        do { try ProviderFixtures(users: [user]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        let record = TestUserRecord(
            id: id, firstName: user.firstName, middleName: user.middleName, lastName: user.lastName, email: user.email,
            birthday: user.birthday, gender: user.gender, hometown: user.hometown.flatMap { Location(id: $0.id, name: $0.name) },
            location: user.location.flatMap { Location(id: $0.id, name: $0.name) }, link: user.link, pickable: user.isPickable,
            ageRange: user.ageRange.flatMap { UserAgeRange(min: $0.min, max: $0.max) }, gamingName: user.gamingName
        )
        do {
            try await store.updateUser(record, passwordHash: await PasswordHasher.storedHash(user.passwordHash, orHashing: user.password))
        } catch {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("Another test user has the email \(user.email).")
        }
        guard let stored = try await store.user(id: id) else { throw HTTPError(.internalServerError) }
        return Responses.json(Self.json(stored, friends: try await store.friendIDs(of: id)))
    }

    /// `DELETE /_admin/users/:id`, the user named by ID or by email.
    private func deleteUser(_ idOrEmail: String) async throws -> Response {
        guard let user = try await store.user(idOrEmail: idOrEmail), try await store.deleteUser(id: user.id) else {
            throw AdminError.notFound("No test user with ID or email \(idOrEmail).")
        }
        return Responses.json(.object(["success": true, "id": .string(user.id)]))
    }

    /// `user_id` and `friend_id` each take a test user's ID or email.
    private struct FriendshipBody: Decodable { var user_id: String; var friend_id: String }

    private func friendship(_ request: Request, add: Bool) async throws -> Response {
        let body: FriendshipBody
        switch try await decode(FriendshipBody.self, accepting: ["user_id", "friend_id"], from: request) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let decoded): body = decoded
        }
        // Either side by ID or by email, as the dialog's sign-in takes them.
        var ids: [String] = []
        for who in [body.user_id, body.friend_id] {
            guard let user = try await store.user(idOrEmail: who) else {
                throw AdminError.notFound("No test user with ID or email \(who).")
            }
            ids.append(user.id)
        }
        guard ids[0] != ids[1] else { throw AdminError.badRequest("A test user cannot be their own friend.") }
        if add {
            try await store.addFriendship(ids[0], ids[1])
        } else {
            try await store.removeFriendship(ids[0], ids[1])
        }
        return Responses.json(.object(["success": true]))
    }
}

struct AdminBodyError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
