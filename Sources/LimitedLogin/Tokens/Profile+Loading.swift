import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

extension Profile {
    /// How long a profile loaded from the Graph API is kept before ``loadCurrentProfile(completion:)``
    /// asks again: a day, as the iOS SDK.
    public static let loadedProfileLifetime: TimeInterval = 86_400

    /// Loads `Profile.current` and passes it to `completion`, as the iOS SDK's
    /// `loadCurrentProfile(completion:)`.
    ///
    /// Without a current access token (a limited login, or none) the current profile is passed as it is:
    /// a limited login's profile comes from its ID token and the Graph API cannot be called. With one,
    /// the profile is read from `me` when there is none yet, when it is limited, for another person, or
    /// older than ``loadedProfileLifetime``; it then becomes `Profile.current`.
    public static func loadCurrentProfile(completion: (@Sendable (Profile?, (any Error)?) -> Void)?) {
        Task {
            do throws(GraphClientError) {
                let profile = try await loadCurrentProfile(session: .shared, endpoints: Settings.shared.loginEndpoints)
                completion?(profile, nil)
            } catch {
                completion?(nil, error)
            }
        }
    }

    /// ``loadCurrentProfile(completion:)`` for `session`, as an async call.
    public static func loadCurrentProfile(session: LoginSession, endpoints: LoginEndpoints) async throws(GraphClientError) -> Profile? {
        let current = session.profile
        guard let token = session.accessToken else { return current }
        if let current, !current.isLimited, current.userID == token.userID,
            Date().timeIntervalSince(current.refreshDate) < loadedProfileLifetime
        {
            return current
        }
        var fields = ["id", "first_name", "middle_name", "last_name", "name", "picture"]
        let byPermission: [(Permission, String)] = [
            (.email, "email"), (.userLink, "link"), (.userBirthday, "birthday"), (.userAgeRange, "age_range"),
            (.userGender, "gender"), (.userHometown, "hometown"), (.userLocation, "location"), (.userFriends, "friends"),
        ]
        for (permission, field) in byPermission where token.permissions.contains(permission) { fields.append(field) }
        let node = try await GraphClient(session: session, endpoints: endpoints).me(fields: fields)
        let profile = Profile(graphNode: node, permissions: Set(token.permissions.map(\.name)))
        try session.updateWhileSignedIn(as: token) { $0.profile = profile }
        return profile
    }

    /// A classic login's profile from a `me` answer.
    init(graphNode node: JSONObject, permissions: Set<String>) {
        func string(_ name: String) -> String? { node[name]?.stringValue }
        func location(_ name: String) -> Location? {
            guard case .object(let object)? = node[name], let id = object["id"]?.stringValue,
                let name = object["name"]?.stringValue
            else { return nil }
            return Location(id: id, name: name)
        }
        var pictureURL: URL?
        if case .object(let picture)? = node["picture"], case .object(let data)? = picture["data"] {
            pictureURL = data["url"]?.stringValue.flatMap(URL.init(string:))
        }
        var friendIDs: [String]?
        if case .object(let friends)? = node["friends"], case .array(let entries)? = friends["data"] {
            friendIDs = entries.compactMap { entry in
                if case .object(let friend) = entry { return friend["id"]?.stringValue }
                return nil
            }
        }
        self.init(
            userID: string("id") ?? "", firstName: string("first_name"), middleName: string("middle_name"),
            lastName: string("last_name"), name: string("name"), linkURL: string("link").flatMap(URL.init(string:)),
            imageURL: pictureURL, email: string("email"), friendIDs: friendIDs,
            birthday: string("birthday").flatMap(Birthday.date(from:)), ageRange: node["age_range"].flatMap(UserAgeRange.init(json:)),
            hometown: location("hometown"), location: location("location"), gender: string("gender"), isLimited: false,
            permissions: permissions
        )
    }
}
