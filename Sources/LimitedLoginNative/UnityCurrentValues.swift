import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE

/// The current authentication token, access token and profile as the Unity SDK's native side returns them
/// (`IOSFBCurrentAuthenticationToken`, `IOSFBCurrentProfile`): flat objects of strings, which its C#
/// side reads into `AuthenticationToken` and `Profile`; nothing signed in is the empty string.
enum UnityCurrentValues {
    /// `auth_token_string` and `auth_nonce`.
    static func authenticationTokenMembers(_ token: AuthenticationToken) -> [String: JSONValue] {
        ["auth_token_string": .string(token.tokenString), "auth_nonce": .string(token.nonce)]
    }

    /// A classic login's access token as the Unity SDK's `AccessToken` is read: `access_token`, `user_id`,
    /// `expiration_timestamp` and `last_refresh` (Unix seconds), `permissions`, `graph_domain`.
    static func accessTokenMembers(_ token: AccessToken) -> [String: JSONValue] {
        [
            "access_token": .string(token.tokenString), "user_id": .string(token.userID),
            "expiration_timestamp": .string(String(Int64(token.expirationDate.timeIntervalSince1970.rounded(.down)))),
            "last_refresh": .string(String(Int64(token.refreshDate.timeIntervalSince1970.rounded(.down)))),
            "permissions": .array(token.permissions.map(\.name).sorted().map { .string($0) }), "graph_domain": .string(token.graphDomain),
        ]
    }

    /// The profile's members under the Unity SDK's keys; a value the person did not share is left out.
    /// `friendIDs` is comma-separated, `birthday` the Unix seconds of its midnight UTC, the age range's
    /// bounds and places' parts are members of their own.
    static func profileMembers(_ profile: Profile) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["userID": .string(profile.userID)]
        func add(_ key: String, _ value: String?) {
            if let value { members[key] = .string(value) }
        }
        add("firstName", profile.firstName)
        add("middleName", profile.middleName)
        add("lastName", profile.lastName)
        add("name", profile.name)
        add("email", profile.email)
        add("imageURL", profile.imageURL?.absoluteString)
        add("linkURL", profile.linkURL?.absoluteString)
        add("friendIDs", profile.friendIDs?.joined(separator: ","))
        add("birthday", profile.birthday.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) })
        add("ageMin", profile.ageRange?.min.map(String.init))
        add("ageMax", profile.ageRange?.max.map(String.init))
        add("hometown_id", profile.hometown?.id)
        add("hometown_name", profile.hometown?.name)
        add("location_id", profile.location?.id)
        add("location_name", profile.location?.name)
        add("gender", profile.gender)
        return members
    }
}
