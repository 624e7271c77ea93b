import LimitedLoginJOSE

/// The keys a fixtures file may hold, at each place, so that a misspelt one (`"emial"`, `"redirect_uri"`) is
/// refused with its place and the accepted keys instead of being ignored.
enum FixtureKeys {
    private static let top = ProviderFixtures.CodingKeys.allCases.map(\.rawValue)
    private static let lists: [String: [String]] = [
        "apps": ProviderFixtures.App.CodingKeys.allCases.map(\.rawValue),
        "users": ProviderFixtures.User.CodingKeys.allCases.map(\.rawValue),
        "grants": ProviderFixtures.Grant.CodingKeys.allCases.map(\.rawValue),
        "app_scoped_ids": ProviderFixtures.AppScopedID.CodingKeys.allCases.map(\.rawValue),
        "signing_keys": ProviderFixtures.SigningKey.CodingKeys.allCases.map(\.rawValue),
        "access_tokens": ProviderFixtures.AccessToken.CodingKeys.allCases.map(\.rawValue),
        "scenarios": ProviderFixtures.QueuedScenario.CodingKeys.allCases.map(\.rawValue),
    ]
    /// Objects inside a user.
    private static let userParts: [String: [String]] = ["hometown": ["id", "name"], "location": ["id", "name"], "age_range": ["min", "max"]]

    /// Why `document` has a key no fixtures file takes (its place and the accepted keys), or nil.
    static func unknownKey(in document: JSONValue) -> String? {
        guard case .object(let root) = document else { return nil }
        if let problem = check(root, accepted: top, place: "the file") { return problem }
        for (list, accepted) in lists.sorted(by: { $0.key < $1.key }) {
            for (index, entry) in (root[list]?.arrayValue ?? []).enumerated() {
                guard case .object(let object) = entry else { continue }
                if let problem = check(object, accepted: accepted, place: "\(list)[\(index)]") { return problem }
                guard list == "users" else { continue }
                for (part, keys) in userParts.sorted(by: { $0.key < $1.key }) {
                    if case .object(let inner)? = object[part], let problem = check(inner, accepted: keys, place: "\(list)[\(index)].\(part)") {
                        return problem
                    }
                }
            }
        }
        return nil
    }

    private static func check(_ object: JSONObject, accepted: [String], place: String) -> String? {
        guard let unknown = object.keys.first(where: { !accepted.contains($0) }) else { return nil }
        return "unknown key \"\(unknown)\" in \(place); the accepted keys are: " + accepted.sorted().joined(separator: ", ")
    }
}
