import LimitedLoginCore

/// An app registered with the provider.
package struct AppRecord: Sendable, Equatable {
    package var id: String
    package var secret: String
    package var name: String
    /// The business the app belongs to, if any (token_for_business).
    package var businessID: String?
    /// Redirect URIs allowed besides `fb{appID}://authorize/` and loopback addresses.
    package var redirectURIs: [String]
    /// True for a gaming app: its logins answer `graph_domain=gaming`, and `gaming_profile` /
    /// `gaming_user_picture` stand in for `public_profile`.
    package var isGaming: Bool
    /// The iOS SDK's URL-scheme suffixes (`FacebookUrlSchemeSuffix`): each allows `fb{appID}{suffix}://authorize/`.
    package var urlSchemeSuffixes: [String]
    /// "Require App Secret": Graph calls with a person's token must carry `appsecret_proof`.
    package var requiresAppSecretProof: Bool
    /// The Deauthorize Callback URL: a `signed_request` is posted there when a person removes the app.
    package var deauthorizeCallbackURL: String?
    /// The Data Deletion Request Callback URL: a `signed_request` is posted there when a person asks for
    /// their data to be deleted; the app answers `{url, confirmation_code}`.
    package var dataDeletionCallbackURL: String?
    /// Development (only people with a role on the app can log in) or Live (anyone).
    package var mode: AppMode

    package init(
        id: String, secret: String, name: String, businessID: String? = nil, redirectURIs: [String] = [], isGaming: Bool = false,
        urlSchemeSuffixes: [String] = [], requiresAppSecretProof: Bool = false, deauthorizeCallbackURL: String? = nil,
        dataDeletionCallbackURL: String? = nil, mode: AppMode = .live
    ) {
        self.id = id
        self.secret = secret
        self.name = name
        self.businessID = businessID
        self.redirectURIs = redirectURIs
        self.isGaming = isGaming
        self.urlSchemeSuffixes = urlSchemeSuffixes
        self.requiresAppSecretProof = requiresAppSecretProof
        self.deauthorizeCallbackURL = deauthorizeCallbackURL
        self.dataDeletionCallbackURL = dataDeletionCallbackURL
        self.mode = mode
    }

    /// The `graph_domain` of this app's logins: `gaming` for a gaming app, else `facebook`.
    package var graphDomain: String { isGaming ? "gaming" : "facebook" }
}

/// A test user: a person who can sign in to the dialog.
package struct TestUserRecord: Sendable, Equatable {
    package var id: String
    package var firstName: String
    package var middleName: String?
    package var lastName: String
    package var email: String
    /// `MM/DD/YYYY`.
    package var birthday: String?
    package var gender: String?
    package var hometown: Location?
    package var location: Location?
    package var link: String?
    /// An age range given explicitly, in place of the one the birthday implies (or for a user without one).
    package var ageRange: UserAgeRange?
    /// The avatar name gaming apps see (`gaming_profile`); nil: the full name.
    package var gamingName: String?
    /// True when the sign-in page offers this user to pick without a password. Only users meant for
    /// that (the demo users, users made without a password, or ones marked so) are: a user with a
    /// password is protected by it.
    package var pickable: Bool

    package init(
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
    package var fullName: String {
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
package struct GrantRecord: Sendable, Equatable {
    package var appID: String
    package var userID: String
    package var granted: Set<Permission>
    package var declined: Set<Permission>
    /// False once the person uninstalled the app.
    package var installed: Bool
    package var updatedAt: Int64
    /// The Facebook Page that `user_messenger_contact` lets contact the person: the `messenger_page_id`
    /// of the request that granted it.
    package var messengerPageID: String?

    package init(
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
    package func covers(_ scope: Set<Permission>) -> Bool {
        installed && scope.isSubset(of: granted)
    }
}

/// A one-time authorization code of the classic code flow.
package struct AuthorizationCodeRecord: Sendable, Equatable {
    package var appID: String
    package var userID: String
    package var redirectURI: String
    /// The S256 challenge, when the request used PKCE.
    package var codeChallenge: String?
    package var granted: Set<Permission>
    package var nonce: String?
    package var expiresAt: Int64
}

/// A classic access token (stored by hash only).
package struct AccessTokenRecord: Sendable, Equatable {
    package var appID: String
    package var userID: String
    package var issuedAt: Int64
    package var expiresAt: Int64
    package var dataAccessExpiresAt: Int64
    /// True once the installation it was issued in ended (an uninstall, `DELETE me/permissions`): it stays
    /// dead when the person installs the app again, as on the real service.
    package var revoked = false
}

/// A signing key as stored.
package struct SigningKeyRecord: Sendable, Equatable {
    package var keyID: String
    package var privateKeyPEM: String
    package var createdAt: Int64
    /// When the key starts signing (it is published from `createdAt`).
    package var signsFrom: Int64
    /// When it stopped signing; nil while it is the current key.
    package var retiredAt: Int64?
}

/// An app's mode (docs/BEHAVIOUR.md, section 2): in Development only the people with a role on the app
/// (``AppRole``) can log in to it; Live is open to every test user.
package enum AppMode: String, Sendable, CaseIterable {
    case development
    case live
}

/// A person's role on an app, which lets them log in while the app is in Development mode.
package enum AppRole: String, Sendable, CaseIterable {
    case admin
    case developer
    case tester
}
