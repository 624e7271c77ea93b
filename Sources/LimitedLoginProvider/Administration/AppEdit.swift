import LimitedLoginJOSE

/// `POST /_admin/apps/:id`: any of `name`, `redirect_uris` and `url_scheme_suffixes` (each replacing its list),
/// `new_secret: true` and `gaming`.
struct AppEdit: Sendable, Equatable, Decodable {
    var name: String?
    var redirectURIs: [String]?
    var newSecret: Bool?
    var gaming: Bool?
    var urlSchemeSuffixes: [String]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, gaming
        case redirectURIs = "redirect_uris"
        case newSecret = "new_secret"
        case urlSchemeSuffixes = "url_scheme_suffixes"
    }

    init(name: String? = nil, redirectURIs: [String]? = nil, newSecret: Bool? = nil, gaming: Bool? = nil, urlSchemeSuffixes: [String]? = nil) {
        self.name = name
        self.redirectURIs = redirectURIs
        self.newSecret = newSecret
        self.gaming = gaming
        self.urlSchemeSuffixes = urlSchemeSuffixes
    }
}
