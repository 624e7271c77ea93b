import Crypto
import LimitedLoginCore
import LimitedLoginJOSE

/// The fields of a User node (docs/BEHAVIOUR.md, section 5), each allowed by a permission of the person's grant.
/// A field the grant does not allow is left out, as the Graph API does; a field that does not exist is
/// an error.
struct GraphUserFields: Sendable {
    /// Field → the permission it needs (nil: always readable).
    static let permissionByField: [String: Permission?] = [
        "id": nil, "name": .publicProfile, "first_name": .publicProfile, "middle_name": .publicProfile,
        "last_name": .publicProfile, "short_name": .publicProfile, "picture": .publicProfile,
        "email": .email, "birthday": .userBirthday, "age_range": Permission(name: "user_age_range"),
        "gender": .userGender, "hometown": .userHometown, "location": .userLocation,
        "link": Permission(name: "user_link"), "friends": .userFriends, "token_for_business": nil,
    ]

    static let defaultFields = [GraphFieldRequest(name: "id", modifiers: []), GraphFieldRequest(name: "name", modifiers: [])]

    let services: ProviderServices

    /// The requested field names, or the error for a field that does not exist.
    static func requested(_ text: String?) throws(GraphError) -> [GraphFieldRequest] {
        guard let text, !text.isEmpty else { return defaultFields }
        var fields: [GraphFieldRequest] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let field = try GraphFieldRequest.parse(entry)
            guard permissionByField[field.name] != nil else {
                throw GraphError("(#100) Tried accessing nonexisting field (\(field.name)) on node type (User)", code: 100)
            }
            if !fields.contains(where: { $0.name == field.name }) { fields.append(field) }
        }
        return fields.isEmpty ? defaultFields : fields
    }

    func node(fields: [GraphFieldRequest], user: TestUserRecord, app: AppRecord, grant: GrantRecord, callerIsApp: Bool) async throws -> JSONObject {
        let store = services.store
        let asid = try await store.appScopedID(appID: app.id, userID: user.id)
        // The Graph API always answers with the node's id.
        var node: [(String, JSONValue)] = [("id", .string(asid))]
        for request in fields {
            let field = request.name
            if let needed = Self.permissionByField[field] ?? nil, !grant.granted.contains(needed) { continue }
            switch field {
            case "id": node.append((field, .string(asid)))
            case "name": node.append((field, .string(user.fullName)))
            case "first_name": node.append((field, .string(user.firstName)))
            case "middle_name": if let middle = user.middleName { node.append((field, .string(middle))) }
            case "last_name": node.append((field, .string(user.lastName)))
            case "short_name": node.append((field, .string(user.firstName)))
            case "picture":
                // Sized as me/picture sizes it (`picture.type(large)`, `picture.width(200).height(200)`).
                let (type, width, height) = (request.modifier("type"), request.modifier("width"), request.modifier("height"))
                guard let side = AvatarPicture.side(type: type, width: width, height: height) else { throw GraphController.badPictureSize }
                var sizing = FormParameters()
                for (name, value) in [("type", type), ("width", width), ("height", height)] { if let value { sizing.append(name, value) } }
                let url = services.urls.pictureURL(asid: asid) + (sizing.pairs.isEmpty ? "" : "?" + sizing.encoded)
                node.append(
                    (
                        field,
                        .object([
                            "data": .object([
                                "url": .string(url), "width": .number(Double(side)), "height": .number(Double(side)), "is_silhouette": false,
                            ])
                        ])
                    ))
            case "email": node.append((field, .string(user.email)))
            case "birthday": if let birthday = user.birthday { node.append((field, .string(birthday))) }
            case "gender": if let gender = user.gender { node.append((field, .string(gender))) }
            case "hometown": if let hometown = user.hometown { node.append((field, hometown.json)) }
            case "location": if let location = user.location { node.append((field, location.json)) }
            case "link": if let link = user.link { node.append((field, .string(link))) }
            case "age_range":
                if let range = IDTokenClaimsBuilder.ageRange(of: user, at: ProviderTime.now()) { node.append((field, range.json)) }
            case "friends":
                node.append((field, try await friendsEdge(user: user, app: app)))
            case "token_for_business":
                guard callerIsApp else {
                    throw GraphError("(#100) token_for_business can be read only with the app access token.", code: 100)
                }
                guard let business = app.businessID, !business.isEmpty else {
                    throw GraphError("(#100) The app \(app.id) is not associated with a business.", code: 100)
                }
                node.append((field, .string(try await tokenForBusiness(userID: user.id, businessID: business))))
            default:
                break
            }
        }
        return JSONObject(Dictionary(node, uniquingKeysWith: { first, _ in first }))
    }

    /// The friends edge (`me?fields=friends`, `me/friends`): the friends who use the app and granted it
    /// `user_friends`, by their app-scoped IDs, with `summary.total_count`.
    func friendsEdge(user: TestUserRecord, app: AppRecord) async throws -> JSONValue {
        let store = services.store
        var friends: [JSONValue] = []
        for friendASID in try await store.visibleFriendASIDs(userID: user.id, appID: app.id) {
            guard let owner = try await store.owner(ofAppScopedID: friendASID), let friend = try await store.user(id: owner.userID) else { continue }
            friends.append(.object(["id": .string(friendASID), "name": .string(friend.fullName)]))
        }
        return .object(["data": .array(friends), "summary": .object(["total_count": .number(Double(friends.count))])])
    }

    /// Stable for (person, business): an HMAC under a secret kept in the store.
    func tokenForBusiness(userID: String, businessID: String) async throws -> String {
        let secret = try await services.store.setting("business_secret") { RandomIdentifiers.secret() }
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("\(businessID)|\(userID)".utf8), using: SymmetricKey(data: Array(secret.utf8))
        )
        return Base64URL.encode(Array(mac).prefix(24))
    }
}
