import LimitedLoginJOSE

/// An app as the admin API answers it: `{"id", "name", "secret", "redirect_uris", "business_id"?, "gaming"?}`.
struct AdminApp: Sendable, Equatable, Codable {
    var id: String
    var name: String
    var secret: String
    var redirectURIs: [String]
    var businessID: String?
    var gaming: Bool?

    enum CodingKeys: String, CodingKey {
        case id, name, secret, gaming
        case redirectURIs = "redirect_uris"
        case businessID = "business_id"
    }

    init(_ app: AppRecord) {
        id = app.id
        name = app.name
        secret = app.secret
        redirectURIs = app.redirectURIs
        businessID = app.businessID
        gaming = app.isGaming ? true : nil
    }

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "secret": .string(secret), "redirect_uris": .array(redirectURIs.map { .string($0) }),
        ]
        if let businessID { object["business_id"] = .string(businessID) }
        if gaming == true { object["gaming"] = true }
        return .object(JSONObject(object))
    }
}

/// `POST /_admin/apps/:id`: any of `name`, `redirect_uris` (replacing the list), `new_secret: true` and `gaming`.
struct AppEdit: Sendable, Equatable, Decodable {
    var name: String?
    var redirectURIs: [String]?
    var newSecret: Bool?
    var gaming: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, gaming
        case redirectURIs = "redirect_uris"
        case newSecret = "new_secret"
    }

    init(name: String? = nil, redirectURIs: [String]? = nil, newSecret: Bool? = nil, gaming: Bool? = nil) {
        self.name = name
        self.redirectURIs = redirectURIs
        self.newSecret = newSecret
        self.gaming = gaming
    }
}
