import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The Graph API's test-user calls, as app servers and test tooling make them against the real service
/// (docs/BEHAVIOUR.md, section 5). Test users belong to apps: an app's token reads and changes only its own
/// (anyone else's ID answers as an unknown one, and nothing changes); IDs are the app's app-scoped IDs, as
/// everywhere in the Graph API.
///
/// - `GET /{version}/{app-id}/accounts/test-users` (the app's token): its test users, `{"data": [{"id",
///   "login_url", "access_token"}]}`, the access token (a new one) for a person who has the app installed.
/// - `POST /{version}/{app-id}/accounts/test-users` (the app's token; `installed`, default true,
///   `permissions`, `name`): a new test user of this app, `{"id", "access_token", "login_url", "email",
///   "password"}`; installed, with the permissions granted (`public_profile` always). With `uid` and
///   `owner_access_token` (the token of an app the user belongs to): adds that user to this app.
/// - `DELETE /{version}/{app-id}/accounts/test-users?uid=` (the app's token): takes a user off this app.
/// - `POST /{version}/{test-user-id}` (the app's token; `name`, `password`): changes them; `{"success": true}`.
/// - `DELETE /{version}/{test-user-id}` (the app's token): deletes them; `{"success": true}`.
/// - `POST /{version}/{test-user-id}/friends/{other-id}` (the first person's access token): the friend
///   request; the real service waits for the other's own call to confirm it, the provider makes them friends
///   at once (the confirming call is answered the same and changes nothing).
///
/// Parameters may be in the query or, for POST and DELETE, in a form body, as the real API takes them.
struct TestUsersController: Sendable {
    let services: ProviderServices

    static let appTokenRequired = GraphError("(#15) This method must be called with an app access_token.", code: 15)
    static let personTokenRequired = GraphError(
        "(#200) A friend request must be made with the access token of the test user who makes it.", code: 200)

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/:version/:id/accounts/test-users") { request, context in
            try await answer(request, context) { _, caller in try await list(try appOfPath(context, caller)) }
        }
        router.post("/:version/:id/accounts/test-users") { request, context in
            try await answer(request, context) { parameters, caller in
                let app = try appOfPath(context, caller)
                return try parameters.all("uid").isEmpty ? try await create(app, parameters) : try await add(app, parameters)
            }
        }
        router.delete("/:version/:id/accounts/test-users") { request, context in
            try await answer(request, context) { parameters, caller in try await remove(try appOfPath(context, caller), parameters) }
        }
        router.post("/:version/:id") { request, context in
            try await answer(request, context) { parameters, caller in try await edit(context.parameters.get("id") ?? "", parameters, caller) }
        }
        router.delete("/:version/:id") { request, context in
            try await answer(request, context) { _, caller in try await delete(context.parameters.get("id") ?? "", caller) }
        }
        router.post("/:version/:id/friends/:friend") { request, context in
            try await answer(request, context) { _, caller in
                try await befriend(context.parameters.get("id") ?? "", context.parameters.get("friend") ?? "", caller)
            }
        }
    }

    /// Runs a call with its parameters (query, then form body) and caller; failures in the Graph error shape.
    private func answer(
        _ request: Request, _ context: BasicRequestContext, _ body: (FormParameters, GraphCaller) async throws -> Response
    ) async throws -> Response {
        guard let version = context.parameters.get("version"), DialogController.isVersion(version) else { throw HTTPError(.notFound) }
        return try await GraphCall.answer(request, services: services, parameters: .queryAndForm(limit: 16 * 1024)) { parameters, caller in
            do { return try await body(parameters, caller) } catch let error as AdminError { throw Self.graphError(error) }
        }
    }

    /// The app the path names, which must be the caller's own, called with its app token.
    private func appOfPath(_ context: BasicRequestContext, _ caller: GraphCaller) throws(GraphError) -> AppRecord {
        guard case .app(let app) = caller else { throw Self.appTokenRequired }
        let id = context.parameters.get("id") ?? ""
        guard id.hasSameBytes(as: app.id) else { throw Self.unsupported(id, "get") }
        return app
    }

    private func list(_ app: AppRecord) async throws -> Response {
        let store = services.store
        var data: [JSONValue] = []
        for user in try await store.testUsers(ofApp: app.id) {
            var entry: JSONObject = [
                "id": .string(try await store.appScopedID(appID: app.id, userID: user.id)), "login_url": .string(loginURL),
            ]
            // No token for someone a Development-mode app does not let in (it would be refused everywhere).
            if let grant = try await store.grant(appID: app.id, userID: user.id), grant.installed, try await store.admits(app, userID: user.id) {
                entry["access_token"] = .string(try await TokenIssuer(services: services).accessToken(app: app, userID: user.id).token)
            }
            data.append(.object(entry))
        }
        return Responses.json(.object(["data": .array(data)]))
    }

    private func create(_ app: AppRecord, _ parameters: FormParameters) async throws -> Response {
        let granted = try installation(parameters)
        let (firstName, lastName) = Self.names(try single("name", parameters) ?? "Test User")
        let letters = String((firstName + lastName).lowercased().unicodeScalars.filter { ("a"..."z").contains($0) }.prefix(20).map(Character.init))
        let email = "\(letters.isEmpty ? "test" : letters)_\(RandomIdentifiers.numericID(digits: 8))@tfbnw.net"
        let password = RandomIdentifiers.secret(byteCount: 12)
        var made = ProviderFixtures.User(firstName: firstName, lastName: lastName, email: email, password: password)
        made.apps = [app.id]
        let user = try await AdminOperations(services: services).createUser(made)
        var answer: JSONObject = [
            "id": .string(try await services.store.appScopedID(appID: app.id, userID: user.record.id)), "login_url": .string(loginURL),
            "email": .string(email), "password": .string(password),
        ]
        if let token = try await install(app, user.record.id, granted) { answer["access_token"] = .string(token) }
        return Responses.json(.object(answer))
    }

    /// What `installed` (default true) and `permissions` ask for a test user of an app: whether the app is
    /// installed for them, and the permissions granted (`public_profile` always). Read before anything is
    /// written, so that a bad flag or permission makes and adds nobody.
    private func installation(_ parameters: FormParameters) throws(GraphError) -> Set<Permission>? {
        let installed: Bool
        switch try single("installed", parameters)?.lowercased() {
        case nil, "true", "1": installed = true
        case "false", "0": installed = false
        case let other?: throw GraphError("(#100) installed must be a boolean, not \"\(other)\".", code: 100)
        }
        var granted: Set<Permission> = [.publicProfile]
        for name in (try single("permissions", parameters) ?? "").split(separator: ",") {
            let permission = Permission(name: name.trimmingCharacters(in: .whitespaces))
            guard Permission.knownCases.contains(permission) else { throw GraphError("(#100) Invalid permission: \(name).", code: 100) }
            granted.insert(permission)
        }
        return installed ? granted : nil
    }

    /// Installs the app for the user with these permissions and returns a new access token; nil (nothing
    /// written) when `granted` is nil: not installed.
    private func install(_ app: AppRecord, _ userID: String, _ granted: Set<Permission>?) async throws -> String? {
        guard let granted else { return nil }
        try await services.store.saveGrant(
            GrantRecord(appID: app.id, userID: userID, granted: granted, declined: [], installed: true, updatedAt: ProviderTime.now()))
        guard try await services.store.admits(app, userID: userID) else { return nil }
        return try await TokenIssuer(services: services).accessToken(app: app, userID: userID).token
    }

    /// `uid` (the user's ID in the owner app) and `owner_access_token` (the owner app's token): that app's test
    /// user becomes this app's too, installed as `installed` and `permissions` say.
    private func add(_ app: AppRecord, _ parameters: FormParameters) async throws -> Response {
        let uid = try single("uid", parameters) ?? ""
        guard let ownerToken = try single("owner_access_token", parameters), !ownerToken.isEmpty else {
            throw GraphError("(#100) Adding a test user to an app needs owner_access_token, the token of an app the user belongs to.", code: 100)
        }
        guard case .app(let owner) = try await GraphCallerResolver(services: services).resolve(ownerToken) else {
            throw GraphError("(#100) owner_access_token must be an app access token.", code: 100)
        }
        let userID = try await person(uid, of: owner, "post")
        guard try await !services.store.isTestUser(userID, ofApp: app.id) else {
            throw GraphError("(#100) The test user \(uid) is already a test user of app \(app.id).", code: 100)
        }
        let granted = try installation(parameters)
        try await services.store.addTestUser(userID, toApps: [app.id])
        var answer: JSONObject = ["success": true, "id": .string(try await services.store.appScopedID(appID: app.id, userID: userID))]
        if let token = try await install(app, userID, granted) { answer["access_token"] = .string(token) }
        return Responses.json(.object(answer))
    }

    /// `uid`: one of this app's test users, taken off it (the user and their other apps stay).
    private func remove(_ app: AppRecord, _ parameters: FormParameters) async throws -> Response {
        let uid = try single("uid", parameters) ?? ""
        let userID = try await person(uid, of: app, "delete")
        guard try await services.store.appsOfTestUser(userID).count > 1 else {
            throw GraphError(
                "(#100) The test user \(uid) belongs to this app alone: delete them with DELETE /{test-user-id} instead.", code: 100)
        }
        _ = try await services.store.removeTestUser(userID, fromApp: app.id)
        return Responses.json(.object(["success": true]))
    }

    private func edit(_ id: String, _ parameters: FormParameters, _ caller: GraphCaller) async throws -> Response {
        guard case .app = caller else { throw Self.appTokenRequired }
        let userID = try await person(id, caller, "post")
        var user = ProviderFixtures.User(firstName: "", lastName: "", email: "")
        var named: [TestUserChanges.Field] = []
        if let name = try single("name", parameters) {
            (user.firstName, user.lastName) = Self.names(name)
            named += [.firstName, .lastName]
        }
        if let password = try single("password", parameters) {
            user.password = password
            named.append(.password)
        }
        guard !named.isEmpty else { throw GraphError("(#100) Send name or password to change a test user.", code: 100) }
        _ = try await AdminOperations(services: services).editUser(userID, changes: try TestUserChanges(setting: named, to: user))
        return Responses.json(.object(["success": true]))
    }

    private func delete(_ id: String, _ caller: GraphCaller) async throws -> Response {
        guard case .app = caller else { throw Self.appTokenRequired }
        let userID = try await person(id, caller, "delete")
        // One app cannot delete a test user other apps share, as on the real service: it takes it off itself.
        guard try await services.store.appsOfTestUser(userID).count <= 1 else {
            throw GraphError(
                "(#2903) Cannot delete this test account because it is associated with other applications. Use DELETE /{app-id}/accounts/test-users?uid=\(id) to remove it from this app.",
                code: 2903)
        }
        _ = try await AdminOperations(services: services).deleteUser(userID)
        return Responses.json(.object(["success": true]))
    }

    private func befriend(_ id: String, _ friendID: String, _ caller: GraphCaller) async throws -> Response {
        let userID = try await person(id, caller, "post")
        guard case .user(_, let record, _) = caller, record.userID.hasSameBytes(as: userID) else { throw Self.personTokenRequired }
        let friend = try await person(friendID, caller, "post")
        guard friend != userID else { throw GraphError("(#100) A test user cannot be their own friend.", code: 100) }
        try await AdminOperations(services: services).setFriendship(userID, friend, friends: true)
        return Responses.json(.object(["success": true]))
    }

    /// The test user an app-scoped ID of the caller's app names.
    private func person(_ id: String, _ caller: GraphCaller, _ method: String) async throws -> String {
        try await person(id, of: caller.app, method)
    }

    /// The test user of `app` that one of its app-scoped IDs names: anyone else (another app's ID, a person who
    /// is not this app's test user, one deleted) answers as an unknown ID does, so an app's token learns and
    /// changes nothing of another app's users.
    private func person(_ id: String, of app: AppRecord, _ method: String) async throws -> String {
        // The app-scoped ID outlives a deleted person: the person must still be there.
        guard let owner = try await services.store.owner(ofAppScopedID: id), owner.appID.hasSameBytes(as: app.id),
            try await services.store.user(id: owner.userID) != nil, try await services.store.isTestUser(owner.userID, ofApp: app.id)
        else { throw Self.unsupported(id, method) }
        return owner.userID
    }

    /// Where a test user logs in: the provider's home page, which links the dialog and the console.
    private var loginURL: String { services.urls.baseURL + "/" }

    private func single(_ name: String, _ parameters: FormParameters) throws(GraphError) -> String? {
        do { return try parameters.single(name) } catch { throw GraphError("(#100) \(name) is given more than once.", code: 100) }
    }

    /// A name's first word and the rest ("User" when there is no rest), as the provider's users have both.
    static func names(_ name: String) -> (String, String) {
        let words = name.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { return ("Test", "User") }
        return (first, words.count > 1 ? words.dropFirst().joined(separator: " ") : "User")
    }

    static func unsupported(_ id: String, _ method: String) -> GraphError {
        GraphError(
            "Unsupported \(method) request. Object with ID '\(id)' does not exist, cannot be loaded due to missing permissions, or does not support this operation.",
            code: 100, subcode: 33, type: "GraphMethodException"
        )
    }

    /// An admin operation's refusal, as the Graph API says it.
    static func graphError(_ error: AdminError) -> GraphError {
        GraphError("(#100) " + error.message, code: 100)
    }
}
