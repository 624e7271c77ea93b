import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The console's page: what the store and the admin API say now, laid out for people.
struct ConsolePage: Sendable {
    let services: ProviderServices
    let operations: AdminOperations

    /// `minted`: the admin API's answer to a minting, shown to copy.
    func render(
        csrf: String, notice: String?, errorMessage: String?, status: HTTPResponse.Status, minted: JSONObject? = nil
    ) async throws -> Response {
        let store = services.store
        let apps = try await store.apps()
        // Each app's roles as the edit form takes them: `<email> <role>` per line.
        var roleLines: [String: String] = [:]
        for app in apps {
            var lines: [String] = []
            for (userID, role) in try await store.roles(appID: app.id) {
                lines.append("\(try await store.user(id: userID)?.email ?? userID) \(role.rawValue)")
            }
            roleLines[app.id] = lines.joined(separator: "\n")
        }
        let users = try await store.users()
        let names = Dictionary(users.map { ($0.id, $0.fullName) }, uniquingKeysWith: { first, _ in first })
        let appNames = Dictionary(apps.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })

        var userRows: [[String: Any]] = []
        var friendships: [[String: Any]] = []
        for user in users {
            let friends = try await store.friendIDs(of: user.id)
            for friend in friends where user.id < friend {
                friendships.append([
                    "first": user.id, "second": friend, "firstName": user.fullName, "secondName": names[friend] ?? friend,
                ])
            }
            userRows.append([
                "id": user.id, "name": user.fullName, "email": user.email, "friendCount": String(friends.count),
                "profile": Self.profile(user), "firstName": user.firstName, "middleName": user.middleName ?? "",
                "lastName": user.lastName, "birthday": user.birthday ?? "", "gender": user.gender ?? "", "link": user.link ?? "",
                "hometown": user.hometown?.name ?? "", "hometownID": user.hometown?.id ?? "",
                "location": user.location?.name ?? "", "locationID": user.location?.id ?? "",
                "gamingName": user.gamingName ?? "", "pickable": user.pickable,
            ])
        }
        let grants: [[String: Any]] = try await store.grants().map { grant in
            [
                "appID": grant.appID, "userID": grant.userID, "appName": appNames[grant.appID] ?? grant.appID,
                "userName": names[grant.userID] ?? grant.userID, "installed": grant.installed,
                "state": grant.installed ? "installed" : "uninstalled",
                "granted": grant.granted.map(\.name).sorted().map {
                    ["name": $0, "revocable": $0 != Permission.publicProfile.name] as [String: Any]
                },
                "declined": grant.declined.map(\.name).sorted(),
            ]
        }
        var context: [String: Any] = [
            "title": "Console: limited-login provider", "csrf": csrf,
            "apps": apps.map { app -> [String: Any] in
                [
                    "id": app.id, "name": app.name, "secret": app.secret, "business": app.businessID ?? "", "gaming": app.isGaming,
                    "redirectURIs": app.redirectURIs, "redirectURIText": app.redirectURIs.joined(separator: "\n"),
                    "suffixURIs": app.urlSchemeSuffixes.map { "fb\(app.id)\($0)://authorize/" },
                    "suffixText": app.urlSchemeSuffixes.joined(separator: "\n"), "requiresProof": app.requiresAppSecretProof,
                    "deauthorizeURL": app.deauthorizeCallbackURL ?? "", "dataDeletionURL": app.dataDeletionCallbackURL ?? "",
                    "isDevelopment": app.mode == .development, "rolesText": roleLines[app.id] ?? "",
                ]
            },
            "users": userRows, "friendships": friendships, "grants": grants,
            "keys": try await keys(), "loginCapacity": String(RecentLogins.capacity),
            "logins": services.recentLogins.all.map { login -> [String: Any] in
                var row: [String: Any] = [
                    "time": AdminOperations.iso8601(login.time), "appID": login.appID, "appName": login.appName,
                    "userID": login.userID, "userName": login.userName, "mode": login.mode,
                    "granted": login.granted.joined(separator: ", "),
                ]
                if !login.declined.isEmpty { row["declined"] = login.declined.joined(separator: ", ") }
                if let claims = login.claims { row["claims"] = JSONSerializer.prettyPrinted(.object(claims)) }
                return row
            },
            "clockNow": AdminOperations.iso8601(services.clock.now()), "clockOffset": String(services.clock.offset),
            "retryDelays": services.configuration.callbackRetryDelays.map { delay -> String in
                let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
                return milliseconds < 1000
                    ? "\(milliseconds) ms" : milliseconds < 60_000 ? "\(milliseconds / 1000) s" : "\(milliseconds / 60_000) min"
            }.joined(separator: ", "),
            "deliveries": try await store.deliveries(limit: 50).map { delivery -> [String: Any] in
                var row: [String: Any] = [
                    "id": delivery.id, "appID": delivery.appID, "kind": delivery.kind == .deauthorize ? "Deauthorize" : "Data deletion",
                    "userID": delivery.userID, "url": delivery.url, "status": delivery.status.rawValue, "attempts": String(delivery.attempts),
                    "time": AdminOperations.iso8601(delivery.createdAt),
                ]
                if let error = delivery.lastError { row["lastError"] = error }
                if let code = delivery.confirmationCode { row["confirmation"] = code + (delivery.statusURL.map { " (" + $0 + ")" } ?? "") }
                return row
            },
        ]
        // Only present keys open their sections (an empty string would too).
        if let notice { context["notice"] = notice }
        if let errorMessage { context["errorMessage"] = errorMessage }
        context["defects"] = TokenDefect.allCases.map { ["name": $0.rawValue, "summary": $0.summary] }
        if let minted, let idToken = minted["id_token"]?.stringValue {
            var shown: [String: Any] = ["idToken": idToken]
            if let claims = minted["claims"] { shown["claims"] = JSONSerializer.prettyPrinted(claims) }
            if let accessToken = minted["access_token"]?.stringValue { shown["accessToken"] = accessToken }
            context["minted"] = shown
        }
        let scenarios = services.scenarios.all
        context["hasScenarios"] = !scenarios.isEmpty
        context["scenarios"] = scenarios.map { JSONSerializer.prettyPrinted($0.json) }.joined(separator: "\n")
        return Responses.html(try services.pages.render(.console, context), status: status)
    }

    /// The signing keys as the admin API lists them, with readable times.
    private func keys() async throws -> [[String: Any]] {
        try await operations.keys().map { key in
            [
                "kid": key.record.keyID, "state": key.state, "created": AdminOperations.iso8601(key.record.createdAt),
                "signsFrom": AdminOperations.iso8601(key.record.signsFrom), "unpublished": key.unpublishedAt.map(AdminOperations.iso8601) ?? "",
            ]
        }
    }

    /// The profile fields a test user has, in a line.
    private static func profile(_ user: TestUserRecord) -> String {
        var parts: [String] = []
        if let birthday = user.birthday { parts.append("born \(birthday)") }
        if let gender = user.gender { parts.append(gender) }
        if let hometown = user.hometown { parts.append("from \(hometown.name)") }
        if let location = user.location { parts.append("lives in \(location.name)") }
        parts.append(user.pickable ? "pickable" : "password only")
        return parts.joined(separator: ", ")
    }
}
