import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// Reading a fixtures document strictly (a key given twice or misspelt is an error), and checking it before
/// anything of it is written.
extension ProviderFixtures {
    /// Reads and checks a fixtures file.
    public static func load(path: String) throws(FixturesError) -> ProviderFixtures {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, error.localizedDescription)
        }
        return try parse(data, source: path)
    }

    /// Reads and checks a fixtures document (a file's content, or one given to the admin API or the
    /// console); `source` names it in errors.
    public static func parse(_ data: Data, source path: String) throws(FixturesError) -> ProviderFixtures {
        // Read strictly first: a name given twice (two "apps") or a misspelt key is an error, never ignored.
        do {
            let document = try StrictJSONParser(maximumSize: 256 << 20, maximumDepth: 32).parse(Array(data))
            if let unknown = FixtureKeys.unknownKey(in: document) { throw FixturesError.invalid(unknown) }
        } catch let error as FixturesError {
            throw error
        } catch {
            throw .unreadable(path: path, "it is not valid JSON (\(error))")
        }
        let fixtures: ProviderFixtures
        do { fixtures = try JSONDecoder().decode(ProviderFixtures.self, from: data) } catch {
            throw .unreadable(path: path, Self.describe(error))
        }
        try fixtures.validate()
        return fixtures
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(path(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(path(context)): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON (\(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the top level" : path
    }

    /// Checks what the store's constraints would otherwise refuse halfway through loading.
    public func validate() throws(FixturesError) {
        var appIDs: Set<String> = []
        for app in apps {
            guard !app.id.isEmpty, app.id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .invalid("app ID \"\(app.id)\" must be digits")
            }
            guard appIDs.insert(app.id).inserted else { throw .invalid("app ID \(app.id) appears twice") }
            guard !app.name.isEmpty else { throw .invalid("app \(app.id) has an empty name") }
            for suffix in app.urlSchemeSuffixes ?? [] {
                if let problem = App.problem(withSuffix: suffix) { throw .invalid("app \(app.id): \(problem)") }
            }
            if let mode = app.mode, AppMode(rawValue: mode) == nil {
                throw .invalid("app \(app.id): mode \"\(mode)\" must be development or live")
            }
            for (user, role) in (app.roles ?? [:]).sorted(by: { $0.key < $1.key }) where AppRole(rawValue: role) == nil {
                throw .invalid("app \(app.id): the role \"\(role)\" of \(user) must be admin, developer or tester")
            }
            for (name, url) in [
                ("deauthorize_callback_url", app.deauthorizeCallbackURL), ("data_deletion_callback_url", app.dataDeletionCallbackURL),
            ] {
                if let url, let problem = App.problem(withCallbackURL: url, named: name) { throw .invalid("app \(app.id): \(problem)") }
            }
            for uri in app.redirectURIs ?? [] {
                do { try RedirectURIRegistration.check(uri) } catch {
                    throw .invalid("app \(app.id): \(error.description)")
                }
            }
        }
        var emails: Set<String> = []
        for user in users {
            if let id = user.id, !RecordID.isAcceptable(id) {
                throw .invalid(
                    "user \(user.email) has ID \"\(id)\"; a user ID is 1 to \(RecordID.maximumLength) letters, digits, _, -, . and @")
            }
            guard !user.firstName.isEmpty, !user.lastName.isEmpty else {
                throw .invalid("user \(user.email) needs a first and last name")
            }
            guard user.email.contains("@"), emails.insert(user.email.lowercased()).inserted else {
                throw .invalid("user email \"\(user.email)\" is malformed or appears twice")
            }
            for app in user.apps ?? [] where !RecordID.isAcceptable(app) {
                throw .invalid(
                    "user \(user.email) names the app \"\(app.prefix(100))\"; an app ID is 1 to \(RecordID.maximumLength) letters, digits, _, -, . and @"
                )
            }
            if let password = user.password, password.isEmpty {
                throw .invalid("user \(user.email) has an empty password; leave \"password\" out for a user without one")
            }
            if user.password != nil, user.passwordHash != nil {
                throw .invalid("user \(user.email) has both \"password\" and \"password_hash\"; give one")
            }
            if let hash = user.passwordHash, let problem = PasswordHasher.importProblem(hash) {
                throw .invalid("user \(user.email) has a \"password_hash\" that \(problem)")
            }
            guard user.hasPassword || user.isPickable else {
                throw .invalid("user \(user.email) has no password and is not pickable, so nobody could sign in as them")
            }
            if let birthday = user.birthday, Birthday.date(from: birthday) == nil {
                throw .invalid("user \(user.email) has birthday \"\(birthday)\"; use MM/DD/YYYY")
            }
            if let range = user.ageRange, UserAgeRange(min: range.min, max: range.max) == nil {
                throw .invalid("user \(user.email) has an age range without a bound, with a negative one, or with min above max")
            }
        }
        for grant in grants ?? [] {
            for name in grant.granted + grant.declined where !Permission(name: name).isValid {
                throw .invalid("the grant of user \(grant.userID) to app \(grant.appID) names \"\(name)\", which is not a permission")
            }
        }
        var asids: Set<String> = []
        for entry in appScopedIDs ?? [] {
            guard !entry.asid.isEmpty, entry.asid.allSatisfy({ $0.isASCII && $0.isNumber }), asids.insert(entry.asid).inserted else {
                throw .invalid("app-scoped ID \"\(entry.asid)\" must be digits and appear once")
            }
        }
        for key in signingKeys ?? [] where key.kid.isEmpty || key.privateKeyPEM.isEmpty {
            throw .invalid("a signing key needs \"kid\" and \"private_key_pem\"")
        }
    }
}
