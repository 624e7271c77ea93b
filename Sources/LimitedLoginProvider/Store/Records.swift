import LimitedLoginCore

/// An app registered with the provider.
public struct AppRecord: Sendable, Equatable {
    public var id: String
    public var secret: String
    public var name: String
    /// The business the app belongs to, if any (token_for_business).
    public var businessID: String?
    /// Redirect URIs allowed besides `fb{appID}://authorize/` and loopback addresses.
    public var redirectURIs: [String]
    /// True for a gaming app: its logins answer `graph_domain=gaming`, and `gaming_profile` /
    /// `gaming_user_picture` stand in for `public_profile`.
    public var isGaming: Bool

    public init(
        id: String, secret: String, name: String, businessID: String? = nil, redirectURIs: [String] = [], isGaming: Bool = false
    ) {
        self.id = id
        self.secret = secret
        self.name = name
        self.businessID = businessID
        self.redirectURIs = redirectURIs
        self.isGaming = isGaming
    }

    /// The `graph_domain` of this app's logins: `gaming` for a gaming app, else `facebook`.
    public var graphDomain: String { isGaming ? "gaming" : "facebook" }
}

/// A test user: a person who can sign in to the dialog.
public struct TestUserRecord: Sendable, Equatable {
    public var id: String
    public var firstName: String
    public var middleName: String?
    public var lastName: String
    public var email: String
    /// `MM/DD/YYYY`.
    public var birthday: String?
    public var gender: String?
    public var hometown: Location?
    public var location: Location?
    public var link: String?
    /// An age range given explicitly, in place of the one the birthday implies (or for a user without one).
    public var ageRange: UserAgeRange?
    /// The avatar name gaming apps see (`gaming_profile`); nil: the full name.
    public var gamingName: String?
    /// True when the sign-in page offers this user to pick without a password. Only users meant for
    /// that (the demo users, users made without a password, or ones marked so) are: a user with a
    /// password is protected by it.
    public var pickable: Bool

    public init(
        id: String, firstName: String, middleName: String? = nil, lastName: String, email: String,
        birthday: String? = nil, gender: String? = nil, hometown: Location? = nil, location: Location? = nil,
        link: String? = nil, pickable: Bool = false, ageRange: UserAgeRange? = nil, gamingName: String? = nil
    ) {
        self.id = id
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.email = email
        self.birthday = birthday
        self.gender = gender
        self.hometown = hometown
        self.location = location
        self.link = link
        self.pickable = pickable
        self.ageRange = ageRange
        self.gamingName = gamingName
    }

    /// "First Middle Last".
    public var fullName: String {
        // Without an array of parts: the claims and the recent-logins record each ask for it on every login.
        var name = firstName
        func append(_ part: String) {
            guard !part.isEmpty else { return }
            if !name.isEmpty { name.append(" ") }
            name.append(part)
        }
        if let middleName { append(middleName) }
        append(lastName)
        return name
    }
}

/// What a person granted an app, and whether the app is still installed.
public struct GrantRecord: Sendable, Equatable {
    public var appID: String
    public var userID: String
    public var granted: Set<Permission>
    public var declined: Set<Permission>
    /// False once the person uninstalled the app.
    public var installed: Bool
    public var updatedAt: Int64
    /// The Facebook Page that `user_messenger_contact` lets contact the person: the `messenger_page_id`
    /// of the request that granted it.
    public var messengerPageID: String?

    public init(
        appID: String, userID: String, granted: Set<Permission>, declined: Set<Permission>, installed: Bool, updatedAt: Int64,
        messengerPageID: String? = nil
    ) {
        self.appID = appID
        self.userID = userID
        self.granted = granted
        self.declined = declined
        self.installed = installed
        self.updatedAt = updatedAt
        self.messengerPageID = messengerPageID
    }

    /// True when the app is installed and every permission of `scope` is granted.
    public func covers(_ scope: Set<Permission>) -> Bool {
        installed && scope.isSubset(of: granted)
    }
}

/// A one-time authorization code of the classic code flow.
public struct AuthorizationCodeRecord: Sendable, Equatable {
    public var appID: String
    public var userID: String
    public var redirectURI: String
    /// The S256 challenge, when the request used PKCE.
    public var codeChallenge: String?
    public var granted: Set<Permission>
    public var nonce: String?
    public var expiresAt: Int64
}

/// A classic access token (stored by hash only).
public struct AccessTokenRecord: Sendable, Equatable {
    public var appID: String
    public var userID: String
    public var issuedAt: Int64
    public var expiresAt: Int64
    public var dataAccessExpiresAt: Int64
}

/// A signing key as stored.
public struct SigningKeyRecord: Sendable, Equatable {
    public var keyID: String
    public var privateKeyPEM: String
    public var createdAt: Int64
    /// When the key starts signing (it is published from `createdAt`).
    public var signsFrom: Int64
    /// When it stopped signing; nil while it is the current key.
    public var retiredAt: Int64?
}
