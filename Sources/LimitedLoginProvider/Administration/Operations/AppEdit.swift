import LimitedLoginJOSE

/// `POST /_admin/apps/:id`: any of `name`, `redirect_uris` and `url_scheme_suffixes` (each replacing its list),
/// `new_secret: true`, `gaming`, `require_appsecret_proof`, `deauthorize_callback_url` and
/// `data_deletion_callback_url` (an empty string removes a callback), `mode` (`development` or `live`).
struct AppEdit: Sendable, Equatable, Decodable {
    var name: String?
    var redirectURIs: [String]?
    var newSecret: Bool?
    var gaming: Bool?
    var urlSchemeSuffixes: [String]?
    var requireAppSecretProof: Bool?
    var deauthorizeCallbackURL: String?
    var dataDeletionCallbackURL: String?
    var mode: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, gaming
        case redirectURIs = "redirect_uris"
        case newSecret = "new_secret"
        case urlSchemeSuffixes = "url_scheme_suffixes"
        case requireAppSecretProof = "require_appsecret_proof"
        case deauthorizeCallbackURL = "deauthorize_callback_url"
        case dataDeletionCallbackURL = "data_deletion_callback_url"
        case mode
    }

    init(name: String? = nil, redirectURIs: [String]? = nil, newSecret: Bool? = nil, gaming: Bool? = nil, urlSchemeSuffixes: [String]? = nil) {
        self.name = name
        self.redirectURIs = redirectURIs
        self.newSecret = newSecret
        self.gaming = gaming
        self.urlSchemeSuffixes = urlSchemeSuffixes
    }
}

/// An app edit checked and ready to write: the app as read from the database, and as the edit leaves it.
/// Only the fields that differ are written, so that edits at once (through two nodes) keep each other's
/// changes: a name changed beside a new secret leaves both.
struct EditedApp: Sendable {
    let original: AppRecord
    let app: AppRecord
}
