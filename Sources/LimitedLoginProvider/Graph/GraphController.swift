import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The Graph API subset for classic login (docs/BEHAVIOUR.md, section 5): `me`, `{asid}`, `me/permissions`, `me/picture`, `me/friends`,
/// `{asid}/picture`. (`debug_token` is ``DebugTokenController``.) (`oauth/access_token` is ``CodeExchangeController``.)
struct GraphController: Sendable {
    let services: ProviderServices
    var fields: GraphUserFields { GraphUserFields(services: services) }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/:version/me") { request, context in try await answer(request, context) { try await me($0, $1) } }
        router.get("/:version/me/permissions") { request, context in try await answer(request, context) { try await permissions($0, $1) } }
        router.get("/:version/me/picture") { request, context in try await answer(request, context) { try await myPicture($0, $1) } }
        router.get("/:version/me/friends") { request, context in try await answer(request, context) { try await myFriends($1) } }
        router.delete("/:version/me/permissions") { request, context in try await answer(request, context) { try await revoke($0, $1) } }
        router.delete("/:version/me/permissions/:permission") { request, context in
            try await answer(request, context) { try await revoke(context.parameters.get("permission") ?? "", $1) }
        }
        router.get("/:version/:id") { request, context in
            try await answer(request, context) { try await node(context.parameters.get("id") ?? "", $0, $1) }
        }
        router.get("/:version/:id/picture") { request, context in
            guard let version = context.parameters.get("version"), DialogController.isVersion(version) else { throw HTTPError(.notFound) }
            do { return try await picture(context.parameters.get("id") ?? "", request) } catch let error as GraphError { return error.response }
        }
    }

    /// A picture's `type`, `width` or `height` that ``AvatarPicture/side(type:width:height:)`` refuses.
    static let badPictureSize = GraphError(
        "(#100) type must be one of small, normal, album, large, square; width and height positive numbers.", code: 100
    )

    /// Runs a Graph handler with the request's query and caller, turning failures into the Graph error shape.
    private func answer(
        _ request: Request, _ context: BasicRequestContext,
        _ body: (FormParameters, GraphCaller) async throws -> Response
    ) async throws -> Response {
        guard let version = context.parameters.get("version"), DialogController.isVersion(version) else {
            throw HTTPError(.notFound)
        }
        return try await GraphCall.answer(request, services: services, body)
    }

    private func person(of caller: GraphCaller) async throws -> (TestUserRecord, GrantRecord) {
        guard case .user(_, let record, let app) = caller else {
            throw GraphError("An active access token must be used to query information about the current user.", code: 2500)
        }
        guard let user = try await services.store.user(id: record.userID),
            let grant = try await services.store.grant(appID: app.id, userID: user.id)
        else { throw GraphError.invalidatedToken }
        return (user, grant)
    }

    private func fieldsParameter(_ query: FormParameters) throws(GraphError) -> [GraphFieldRequest] {
        do { return try GraphUserFields.requested(try query.single("fields")) } catch let error as GraphError { throw error } catch {
            throw GraphError("The request is ambiguous: \(error).", code: 100)
        }
    }

    private func me(_ query: FormParameters, _ caller: GraphCaller) async throws -> Response {
        let requested = try fieldsParameter(query)
        let (user, grant) = try await person(of: caller)
        var readable = grant
        readable.granted.subtract(Self.expiredPermissions(grant, caller))
        return Responses.json(.object(try await fields.node(fields: requested, user: user, app: caller.app, grant: readable, callerIsApp: false)))
    }

    /// `me/friends`: the friends edge; empty without `user_friends` (or once it expired with the data access).
    private func myFriends(_ caller: GraphCaller) async throws -> Response {
        let (user, grant) = try await person(of: caller)
        guard grant.granted.contains(.userFriends), !Self.expiredPermissions(grant, caller).contains(.userFriends) else {
            return Responses.json(.object(["data": .array([]), "summary": .object(["total_count": 0])]))
        }
        return Responses.json(try await fields.friendsEdge(user: user, app: caller.app))
    }

    private func node(_ id: String, _ query: FormParameters, _ caller: GraphCaller) async throws -> Response {
        let requested = try fieldsParameter(query)
        let store = services.store
        guard let owner = try await store.owner(ofAppScopedID: id), owner.appID.hasSameBytes(as: caller.app.id),
            let user = try await store.user(id: owner.userID)
        else {
            throw TestUsersController.unsupported(id, "get")
        }
        if case .user(_, let record, _) = caller, !record.userID.hasSameBytes(as: user.id) {
            throw GraphError("(#100) A user access token can read only its own person.", code: 100)
        }
        guard let grant = try await store.grant(appID: caller.app.id, userID: user.id), grant.installed else {
            // A person's token is what the uninstall invalidated; the app's own token is still good, and it is the
            // person it cannot read (a backend that drops its credential on 190 would drop a working one).
            if case .app = caller { throw TestUsersController.unsupported(id, "get") }
            throw GraphError.invalidatedToken
        }
        let isApp: Bool
        if case .app = caller { isApp = true } else { isApp = false }
        // A Development-mode app's own token reads no one without a role on it (a person's token was refused
        // when it was resolved).
        if isApp, try await !store.admits(caller.app, userID: user.id) { throw TestUsersController.unsupported(id, "get") }
        // A person's token whose data access expired reads what `me` reads: public_profile's fields only.
        var readable = grant
        readable.granted.subtract(Self.expiredPermissions(grant, caller))
        return Responses.json(.object(try await fields.node(fields: requested, user: user, app: caller.app, grant: readable, callerIsApp: isApp)))
    }

    /// `me/picture`: a redirect to the person's picture (the same `type`, `width` and `height`), or with
    /// `redirect=0` (or `false`) its description, `{"data": {"url", "width", "height", "is_silhouette"}}`.
    private func myPicture(_ query: FormParameters, _ caller: GraphCaller) async throws -> Response {
        let (user, _) = try await person(of: caller)
        func single(_ name: String) throws(GraphError) -> String? {
            do { return try query.single(name) } catch { throw GraphError("The request is ambiguous: \(error.description).", code: 100) }
        }
        let type = try single("type")
        let width = try single("width")
        let height = try single("height")
        guard let side = AvatarPicture.side(type: type, width: width, height: height) else {
            throw Self.badPictureSize
        }
        let asid = try await services.store.appScopedID(appID: caller.app.id, userID: user.id)
        var sizing = FormParameters()
        for (name, value) in [("type", type), ("width", width), ("height", height)] { if let value { sizing.append(name, value) } }
        let url = services.urls.pictureURL(asid: asid) + (sizing.pairs.isEmpty ? "" : "?" + sizing.encoded)
        switch try single("redirect") {
        case "0"?, "false"?:
            return Responses.json(
                .object([
                    "data": .object([
                        "height": .number(Double(side)), "is_silhouette": false, "url": .string(url), "width": .number(Double(side)),
                    ])
                ]))
        case nil, "1"?, "true"?:
            return Responses.redirect(to: url, afterPost: false)
        case let other?:
            throw GraphError("(#100) redirect must be a boolean, not \(other).", code: 100)
        }
    }

    private func permissions(_ query: FormParameters, _ caller: GraphCaller) async throws -> Response {
        let (_, grant) = try await person(of: caller)
        let expired = Self.expiredPermissions(grant, caller)
        func entries(_ permissions: Set<Permission>, _ status: String) -> [JSONValue] {
            permissions.map(\.name).sorted().map { JSONValue.object(["permission": .string($0), "status": .string(status)]) }
        }
        let data = entries(grant.granted.subtracting(expired), "granted") + entries(grant.declined, "declined") + entries(expired, "expired")
        return Responses.json(.object(["data": .array(data)]))
    }

    /// Once the data access of the login behind a user access token has expired (90 days by default,
    /// `serve --data-access-lifetime`), every granted permission but `public_profile` is `expired` until the
    /// person logs in again (the seeds' permission states).
    static func expiredPermissions(_ grant: GrantRecord, _ caller: GraphCaller) -> Set<Permission> {
        guard case .user(_, let record, _) = caller, record.dataAccessExpiresAt <= ProviderTime.now() else { return [] }
        return grant.granted.subtracting([.publicProfile])
    }

    /// `DELETE me/permissions`: the person removes the app, as an uninstall does.
    private func revoke(_ query: FormParameters, _ caller: GraphCaller) async throws -> Response {
        let (user, _) = try await person(of: caller)
        if try await services.store.uninstall(appID: caller.app.id, userID: user.id) {
            try await services.callbacks.appRemoved(caller.app, userID: user.id)
        }
        return Responses.json(.object(["success": true]))
    }

    /// `DELETE me/permissions/{permission}`: that permission becomes declined; the app stays installed.
    /// `public_profile` cannot be revoked alone (revoke the whole app instead).
    private func revoke(_ name: String, _ caller: GraphCaller) async throws -> Response {
        let permission = Permission(name: name)
        guard permission.isValid else { throw GraphError("(#100) \(name) is not a valid permission name.", code: 100) }
        guard permission != .publicProfile else {
            throw GraphError("(#100) public_profile cannot be revoked alone; DELETE me/permissions removes the app.", code: 100)
        }
        // Written only if the grant is still as read: a revocation beside an uninstall must not install the app
        // again, nor undo another revocation. An app no longer installed has nothing left to revoke.
        let change = try await services.store.changeGrantPermissions(
            reading: { try await person(of: caller).1 },
            { grant in
                guard grant.installed, grant.granted.remove(permission) != nil else { return false }
                grant.declined.insert(permission)
                grant.updatedAt = ProviderTime.now()
                return true
            })
        guard case .keptChanging = change else { return Responses.json(.object(["success": true])) }
        throw GraphError("(#2) The permissions changed while they were being revoked; try again.", code: 2)
    }

    /// A generated picture (``AvatarPicture``): a PNG sized by `type` or `width`/`height` as the real endpoint
    /// sizes it; an SVG with `format=svg`. Public, like real picture URLs.
    private func picture(_ id: String, _ request: Request) async throws -> Response {
        guard let owner = try await services.store.owner(ofAppScopedID: id), let user = try await services.store.user(id: owner.userID) else {
            throw HTTPError(.notFound)
        }
        let query = request.uri.queryParameters
        guard
            let side = AvatarPicture.side(
                type: query.get("type"), width: query.get("width"), height: query.get("height")
            )
        else {
            throw Self.badPictureSize
        }
        let avatar = AvatarPicture(user: user)
        let headers: HTTPFields
        let body: ByteBuffer
        if query.get("format") == "svg" {
            headers = [.contentType: "image/svg+xml", .cacheControl: "public, max-age=86400"]
            body = ByteBuffer(string: avatar.svg(side: side))
        } else {
            headers = [.contentType: "image/png", .cacheControl: "public, max-age=86400"]
            body = ByteBuffer(bytes: avatar.png(side: side))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
