import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// Why a fixtures file cannot be loaded.
public enum FixturesError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, String)
    case invalid(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read the fixtures file \(path): \(reason)"
        case .invalid(let reason): return "the fixtures are invalid: \(reason)"
        }
    }

    /// The reason alone, for an admin API answer about one app or user (not a file).
    public var reason: String {
        switch self {
        case .unreadable(_, let reason), .invalid(let reason): return reason
        }
    }
}

/// Apps and test users to load at start (`serve --fixtures file.json`).
///
/// ```json
/// {"apps": [{"id": "1234", "secret": "…", "name": "My App", "redirect_uris": ["https://app.example/cb"], "business_id": "77"}],
///  "users": [{"id": "100001", "first_name": "Alice", "last_name": "Smith", "email": "alice@example.com",
///             "password": "secret", "birthday": "04/22/1990", "gender": "female",
///             "hometown": {"id": "1", "name": "Paris"}, "location": {"id": "2", "name": "Lyon"},
///             "link": "https://example.com/alice", "friends": ["100002"], "pickable": false}]}
/// ```
/// A user's `password` may be left out: such a user is picked on the sign-in page. `pickable` says
/// whether the page offers a user to pick without a password (default: only users without one).
/// Loading is idempotent: an app or user whose ID already exists is left as it is.
public struct ProviderFixtures: Sendable, Equatable, Codable {
    public struct App: Sendable, Equatable, Codable {
        public var id: String
        public var secret: String?
        public var name: String
        public var redirectURIs: [String]?
        public var businessID: String?
        /// True for a gaming app (`graph_domain=gaming`, `gaming_profile` and `gaming_user_picture`).
        public var gaming: Bool?
        /// The iOS SDK's URL-scheme suffixes (`FacebookUrlSchemeSuffix`, Unity's `urlSuffix`): each allows the
        /// redirect `fb{appID}{suffix}://authorize/` (lowercase letters and digits, starting with a letter).
        public var urlSchemeSuffixes: [String]?
        /// "Require App Secret": the Graph API refuses a person's token without `appsecret_proof`
        /// (the HMAC-SHA256 of the token keyed with the app secret, in hex).
        public var requireAppSecretProof: Bool?
        /// The Deauthorize Callback URL (http or https): a `signed_request` is posted there when a person
        /// removes the app.
        public var deauthorizeCallbackURL: String?
        /// The Data Deletion Request Callback URL (http or https): a `signed_request` is posted there when a
        /// person asks for their data to be deleted; the app answers `{"url", "confirmation_code"}`.
        public var dataDeletionCallbackURL: String?
        /// `development` (only the people in `roles` can log in) or `live` (the default: anyone).
        public var mode: String?
        /// Roles on the app, by test user ID or email: `admin`, `developer` or `tester`.
        public var roles: [String: String]?

        public init(
            id: String, secret: String? = nil, name: String, redirectURIs: [String]? = nil, businessID: String? = nil, gaming: Bool? = nil,
            urlSchemeSuffixes: [String]? = nil, requireAppSecretProof: Bool? = nil, deauthorizeCallbackURL: String? = nil,
            dataDeletionCallbackURL: String? = nil, mode: String? = nil, roles: [String: String]? = nil
        ) {
            self.id = id
            self.secret = secret
            self.name = name
            self.redirectURIs = redirectURIs
            self.businessID = businessID
            self.gaming = gaming
            self.urlSchemeSuffixes = urlSchemeSuffixes
            self.requireAppSecretProof = requireAppSecretProof
            self.deauthorizeCallbackURL = deauthorizeCallbackURL
            self.dataDeletionCallbackURL = dataDeletionCallbackURL
            self.mode = mode
            self.roles = roles
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, secret, name, gaming
            case redirectURIs = "redirect_uris"
            case businessID = "business_id"
            case urlSchemeSuffixes = "url_scheme_suffixes"
            case requireAppSecretProof = "require_appsecret_proof"
            case deauthorizeCallbackURL = "deauthorize_callback_url"
            case dataDeletionCallbackURL = "data_deletion_callback_url"
            case mode, roles
        }

        /// Why a callback URL cannot be used, or nil: an absolute http or https URL with a host, at most
        /// 2,048 characters.
        static func problem(withCallbackURL url: String, named name: String) -> String? {
            guard url.utf8.count <= 2048, let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty, parsed.fragment == nil,
                parsed.url?.hasUsablePort == true
            else {
                return "\(name) \"\(url)\" must be an http or https URL with a host and a port of 1 to 65535 (no fragment), at most 2048 characters"
            }
            return nil
        }

        /// Why a URL-scheme suffix cannot be used, or nil: 1 to 64 lowercase letters and digits, starting with a
        /// letter (so that `fb{appID}{suffix}` cannot read as another app's ID).
        static func problem(withSuffix suffix: String) -> String? {
            guard let first = suffix.first, first.isASCII, first.isLowercase, suffix.count <= 64,
                suffix.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
            else { return "URL scheme suffix \"\(suffix)\" must be 1 to 64 lowercase letters and digits, starting with a letter" }
            return nil
        }
    }

    public struct Place: Sendable, Equatable, Codable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct User: Sendable, Equatable, Codable {
        public var id: String?
        public var firstName: String
        public var middleName: String?
        public var lastName: String
        public var email: String
        /// Nil: the user has no password and can only be picked on the sign-in page.
        public var password: String?
        public var birthday: String?
        public var gender: String?
        public var hometown: Place?
        public var location: Place?
        public var link: String?
        /// IDs or emails of other users in the file or the store.
        public var friends: [String]?
        /// Whether the sign-in page offers the user to pick without a password; when absent, a user
        /// without a password is pickable and a user with one is not (their password protects them).
        public var pickable: Bool?
        /// An explicit age range (`{"min":18,"max":20}`), in place of the one the birthday implies.
        public var ageRange: AgeRange?
        /// The avatar name gaming apps see; absent: the full name.
        public var gamingName: String?
        /// The IDs of the apps the user is a test user of (an app's token manages only its own test users, and
        /// its sign-in page offers only them). Absent: every app the store holds when the user is made.
        public var apps: [String]?

        /// An age range as the fixtures write it.
        public struct AgeRange: Sendable, Equatable, Codable {
            public var min: Int?
            public var max: Int?

            public init(min: Int?, max: Int?) {
                self.min = min
                self.max = max
            }
        }

        /// The stored hash of the user's password, as `export` writes it (instead of `password`), so that a
        /// reloaded state keeps the same passwords without knowing them.
        public var passwordHash: String?

        /// Whether the user will be pickable: as asked, or when they have no password.
        public var isPickable: Bool { pickable ?? (password == nil && passwordHash == nil) }

        /// True when the user can sign in with a password.
        var hasPassword: Bool { password != nil || passwordHash != nil }

        public init(
            id: String? = nil, firstName: String, middleName: String? = nil, lastName: String, email: String, password: String? = nil,
            birthday: String? = nil, gender: String? = nil, hometown: Place? = nil, location: Place? = nil, link: String? = nil,
            friends: [String]? = nil, pickable: Bool? = nil
        ) {
            self.id = id
            self.firstName = firstName
            self.middleName = middleName
            self.lastName = lastName
            self.email = email
            self.password = password
            self.birthday = birthday
            self.gender = gender
            self.hometown = hometown
            self.location = location
            self.link = link
            self.friends = friends
            self.pickable = pickable
        }

        /// In the order people read a profile (the admin API lists the editable fields in it).
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id
            case firstName = "first_name"
            case middleName = "middle_name"
            case lastName = "last_name"
            case email, password, birthday, gender, hometown, location, link, friends, pickable
            case ageRange = "age_range"
            case gamingName = "gaming_name"
            case apps
            case passwordHash = "password_hash"
        }
    }

    /// What a person granted an app (`export` writes them; loading restores them).
    public struct Grant: Sendable, Equatable, Codable {
        public var appID: String
        public var userID: String
        public var granted: [String]
        public var declined: [String]
        public var installed: Bool
        /// The Messenger page of a `user_messenger_contact` grant.
        public var messengerPageID: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case granted, declined, installed
            case messengerPageID = "messenger_page_id"
            case appID = "app_id"
            case userID = "user_id"
        }
    }

    /// A person's app-scoped ID in an app, so that a reloaded state gives the same `sub`.
    public struct AppScopedID: Sendable, Equatable, Codable {
        public var appID: String
        public var userID: String
        public var asid: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case asid
            case appID = "app_id"
            case userID = "user_id"
        }
    }

    /// A signing key with its private key (`export --include-keys`): tokens signed before still verify.
    public struct SigningKey: Sendable, Equatable, Codable {
        public var kid: String
        public var privateKeyPEM: String
        public var createdAt: Int64
        public var signsFrom: Int64
        public var retiredAt: Int64?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case kid
            case privateKeyPEM = "private_key_pem"
            case createdAt = "created_at"
            case signsFrom = "signs_from"
            case retiredAt = "retired_at"
        }
    }

    /// A classic access token, by its hash (an export never holds a token itself): after an import, the
    /// token that was issued goes on working for the Graph API until it expires.
    public struct AccessToken: Sendable, Equatable, Codable {
        public var tokenHash: String
        public var appID: String
        public var userID: String
        public var issuedAt: Int64
        public var expiresAt: Int64
        public var dataAccessExpiresAt: Int64
        /// True for a token whose installation ended (refused for good); absent otherwise.
        public var revoked: Bool?

        public init(
            tokenHash: String, appID: String, userID: String, issuedAt: Int64, expiresAt: Int64, dataAccessExpiresAt: Int64,
            revoked: Bool? = nil
        ) {
            self.tokenHash = tokenHash
            self.appID = appID
            self.userID = userID
            self.issuedAt = issuedAt
            self.expiresAt = expiresAt
            self.dataAccessExpiresAt = dataAccessExpiresAt
            self.revoked = revoked
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case tokenHash = "token_hash"
            case appID = "app_id"
            case userID = "user_id"
            case issuedAt = "issued_at"
            case expiresAt = "expires_at"
            case dataAccessExpiresAt = "data_access_expires_at"
            case revoked
        }
    }

    /// A queued scenario, in the admin API's shape (`outcome` and its fields), for the app and, when given,
    /// the user (an ID) it is for.
    public struct QueuedScenario: Sendable, Equatable, Codable {
        public var appID: String
        public var userID: String?
        /// `{"outcome": "cancel" | "error" | "claims", ...}` as `POST /_admin/scenarios` takes it.
        public var outcome: CodableJSONValue

        enum CodingKeys: String, CodingKey, CaseIterable {
            case appID = "app_id"
            case userID = "user_id"
            case outcome
        }
    }

    public var apps: [App]
    public var users: [User]
    public var grants: [Grant]?
    public var appScopedIDs: [AppScopedID]?
    public var signingKeys: [SigningKey]?
    public var accessTokens: [AccessToken]?
    /// The provider clock's offset from the system's, in seconds (`clock advance`), restored at import.
    public var clockOffset: Int64?
    /// The scenarios queued when the state was exported, oldest first.
    public var scenarios: [QueuedScenario]?
    /// True in an export of a store emptied on purpose (`reset --empty`): a store loaded from it is kept
    /// empty too (no demo data at its start).
    public var emptied: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case apps, users, grants, scenarios
        case appScopedIDs = "app_scoped_ids"
        case signingKeys = "signing_keys"
        case accessTokens = "access_tokens"
        case clockOffset = "clock_offset"
        case emptied
    }

    public init(apps: [App] = [], users: [User] = [], grants: [Grant]? = nil, appScopedIDs: [AppScopedID]? = nil, signingKeys: [SigningKey]? = nil) {
        self.apps = apps
        self.users = users
        self.grants = grants
        self.appScopedIDs = appScopedIDs
        self.signingKeys = signingKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apps = try container.decodeIfPresent([App].self, forKey: .apps) ?? []
        users = try container.decodeIfPresent([User].self, forKey: .users) ?? []
        grants = try container.decodeIfPresent([Grant].self, forKey: .grants)
        appScopedIDs = try container.decodeIfPresent([AppScopedID].self, forKey: .appScopedIDs)
        signingKeys = try container.decodeIfPresent([SigningKey].self, forKey: .signingKeys)
        accessTokens = try container.decodeIfPresent([AccessToken].self, forKey: .accessTokens)
        clockOffset = try container.decodeIfPresent(Int64.self, forKey: .clockOffset)
        scenarios = try container.decodeIfPresent([QueuedScenario].self, forKey: .scenarios)
        emptied = try container.decodeIfPresent(Bool.self, forKey: .emptied)
    }
}
