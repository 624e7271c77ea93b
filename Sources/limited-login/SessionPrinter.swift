import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE

/// Prints a login (just made, or saved) for a person or as JSON.
struct SessionPrinter {
    let snapshot: SessionSnapshot
    let statePath: String

    func printHuman(result: LoginManagerLoginResult?) {
        let profile = snapshot.profile
        let mode = snapshot.accessToken == nil ? "limited" : "classic"
        let who = profile?.name ?? profile?.userID ?? "unknown"
        printLine(result == nil ? "Logged in (\(mode)) as \(who)" : "Logged in (\(mode)) as \(who); the ID token was verified.")
        if let result {
            printLine("granted:  \(Self.list(result.grantedPermissions))")
            printLine("declined: \(Self.list(result.declinedPermissions))")
        }
        if let profile {
            printLine("profile:")
            for (name, value) in Self.profileFields(profile) { printLine("  \(name): \(value.displayText)") }
        }
        if let token = snapshot.authenticationToken {
            let expiry = token.unvalidatedClaims().map { " (expires \(Self.time($0.exp))\($0.exp <= Date() ? ", EXPIRED" : ""))" } ?? ""
            printLine("ID token\(expiry):")
            printLine("  \(token.tokenString)")
            printLine("  nonce: \(token.nonce)")
        }
        if let access = snapshot.accessToken {
            printLine("access token (expires \(Self.time(access.expirationDate))\(access.isExpired ? ", EXPIRED" : "")):")
            printLine("  \(access.tokenString)")
            printLine("  permissions: \(Self.list(access.permissions)); declined: \(Self.list(access.declinedPermissions))")
            printLine("  data access until \(Self.time(access.dataAccessExpirationDate))")
        } else {
            printLine("access token: none (a limited login cannot call the Graph API)")
        }
        printLine("saved in \(statePath)")
    }

    func json(result: LoginManagerLoginResult?) -> String {
        var object: [String: JSONValue] = ["logged_in": true, "limited": .bool(snapshot.accessToken == nil), "state_file": .string(statePath)]
        if let result {
            object["cancelled"] = false
            object["granted"] = .array(result.grantedPermissions.map(\.name).sorted().map(JSONValue.string))
            object["declined"] = .array(result.declinedPermissions.map(\.name).sorted().map(JSONValue.string))
        }
        object["profile"] = snapshot.profile.map { .object(JSONObject(Dictionary(uniqueKeysWithValues: Self.profileFields($0)))) } ?? .null
        object["authentication_token"] =
            snapshot.authenticationToken.map {
                .object(["token": .string($0.tokenString), "nonce": .string($0.nonce), "graph_domain": .string($0.graphDomain)])
            } ?? .null
        object["access_token"] =
            snapshot.accessToken.map { token in
                .object([
                    "token": .string(token.tokenString), "app_id": .string(token.appID), "user_id": .string(token.userID),
                    "permissions": .array(token.permissions.map(\.name).sorted().map(JSONValue.string)),
                    "declined_permissions": .array(token.declinedPermissions.map(\.name).sorted().map(JSONValue.string)),
                    "expiration_date": .string(Self.time(token.expirationDate)),
                    "data_access_expiration_date": .string(Self.time(token.dataAccessExpirationDate)),
                ])
            } ?? .null
        return JSONSerializer.prettyPrinted(.object(JSONObject(object)))
    }

    static func profileFields(_ profile: Profile) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("user_id", .string(profile.userID))]
        func add(_ name: String, _ value: String?) { if let value { fields.append((name, .string(value))) } }
        add("name", profile.name)
        add("first_name", profile.firstName)
        add("middle_name", profile.middleName)
        add("last_name", profile.lastName)
        add("email", profile.email)
        add("image_url", profile.imageURL?.absoluteString)
        add("link_url", profile.linkURL?.absoluteString)
        add("birthday", profile.birthday.map(Birthday.string(from:)))
        add("gender", profile.gender)
        if let range = profile.ageRange { fields.append(("age_range", range.json)) }
        if let hometown = profile.hometown { fields.append(("hometown", hometown.json)) }
        if let location = profile.location { fields.append(("location", location.json)) }
        if let friends = profile.friendIDs { fields.append(("friend_ids", .array(friends.map(JSONValue.string)))) }
        fields.append(("is_limited", .bool(profile.isLimited)))
        return fields
    }

    static func list(_ permissions: Set<Permission>) -> String {
        permissions.isEmpty ? "(none)" : permissions.map(\.name).sorted().joined(separator: ", ")
    }

    static func time(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}

extension JSONValue {
    /// A value as one line for a person: strings bare, the rest as compact JSON.
    var displayText: String {
        if case .string(let text) = self { return text }
        return String(decoding: JSONSerializer.serialize(self), as: UTF8.self)
    }
}
