import LimitedLoginCore
import LimitedLoginJOSE

/// Each section's rows and forms, as the templates take them. Every list row carries `search`: the text
/// a search looks in (``ConsoleSearch``).
extension ConsolePage {
    func apps(kept: ConsoleKeptForm?) async throws -> [[String: Any]] {
        let store = services.store
        var rows: [[String: Any]] = []
        for app in try await store.apps() where AdminCaller.current.mayTouch(app: app.id) {
            // The roles as the edit form takes them: `<email> <role>` per line.
            var roleLines: [String] = []
            for (userID, role) in try await store.roles(appID: app.id) {
                roleLines.append("\(try await store.user(id: userID)?.email ?? userID) \(role.rawValue)")
            }
            var row: [String: Any] = [
                "id": app.id, "name": app.name, "secret": app.secret, "business": app.businessID ?? "", "gaming": app.isGaming,
                "redirectURIs": app.redirectURIs, "redirectURIText": app.redirectURIs.joined(separator: "\n"),
                "suffixURIs": app.urlSchemeSuffixes.map { "fb\(app.id)\($0)://authorize/" },
                "suffixText": app.urlSchemeSuffixes.joined(separator: "\n"), "requiresProof": app.requiresAppSecretProof,
                "deauthorizeURL": app.deauthorizeCallbackURL ?? "", "dataDeletionURL": app.dataDeletionCallbackURL ?? "",
                "isDevelopment": app.mode == .development, "rolesText": roleLines.joined(separator: "\n"),
                "search": "\(app.name) \(app.id) \(app.businessID ?? "")",
            ]
            // A refused edit of this app: its form again, open, with what was typed.
            if let kept, kept.action == "edit-app", kept.values["app_id"] == app.id {
                let typed = kept.values
                row["open"] = true
                for (field, key) in [
                    ("name", "name"), ("redirect_uris", "redirectURIText"), ("url_scheme_suffixes", "suffixText"), ("roles", "rolesText"),
                    ("deauthorize_callback_url", "deauthorizeURL"), ("data_deletion_callback_url", "dataDeletionURL"),
                ] {
                    if let value = typed[field] { row[key] = value }
                }
                row["gaming"] = typed["gaming"] == "1"
                row["requiresProof"] = typed["require_appsecret_proof"] == "1"
                row["isDevelopment"] = typed["mode"] == "development"
            }
            rows.append(row)
        }
        return rows
    }

    func users(kept: ConsoleKeptForm?) async throws -> [[String: Any]] {
        let store = services.store
        var rows: [[String: Any]] = []
        for user in try await visibleUsers() {
            var row: [String: Any] = [
                "id": user.id, "name": user.fullName, "email": user.email, "friendCount": String(try await store.friendIDs(of: user.id).count),
                "profile": Self.profile(user), "firstName": user.firstName, "middleName": user.middleName ?? "",
                "lastName": user.lastName, "birthday": user.birthday ?? "", "gender": user.gender ?? "", "link": user.link ?? "",
                "hometown": user.hometown?.name ?? "", "hometownID": user.hometown?.id ?? "",
                "location": user.location?.name ?? "", "locationID": user.location?.id ?? "",
                "gamingName": user.gamingName ?? "", "pickable": user.pickable,
                "search": "\(user.fullName) \(user.email) \(user.id)",
            ]
            if let kept, kept.action == "edit-user", kept.values["user_id"] == user.id {
                let typed = kept.values
                row["open"] = true
                for (field, key) in [
                    ("first_name", "firstName"), ("middle_name", "middleName"), ("last_name", "lastName"), ("email", "email"),
                    ("birthday", "birthday"), ("gender", "gender"), ("link", "link"), ("hometown", "hometown"), ("location", "location"),
                    ("gaming_name", "gamingName"),
                ] {
                    row[key] = typed[field] ?? ""
                }
                row["pickable"] = typed["pickable"] == "1"
            }
            rows.append(row)
        }
        return rows
    }

    func friendships() async throws -> [[String: Any]] {
        let users = try await services.store.users()
        let names = Dictionary(users.map { ($0.id, $0.fullName) }, uniquingKeysWith: { first, _ in first })
        var rows: [[String: Any]] = []
        for user in users {
            for friend in try await services.store.friendIDs(of: user.id) where user.id < friend {
                let friendName = names[friend] ?? friend
                rows.append([
                    "first": user.id, "second": friend, "firstName": user.fullName, "secondName": friendName,
                    "search": "\(user.fullName) \(friendName) \(user.id) \(friend)",
                ])
            }
        }
        return rows
    }

    /// The test users as a select's options; `selectedFirst`/`second` mark the options a refused form chose.
    func userOptions(selectedFirst: String? = nil, second: String? = nil) async throws -> [[String: Any]] {
        try await visibleUsers().map { user in
            [
                "id": user.id, "name": user.fullName, "email": user.email, "firstSelected": user.id == selectedFirst,
                "secondSelected": user.id == second, "selected": user.id == selectedFirst,
            ]
        }
    }

    func appOptions(selected: String?) async throws -> [[String: Any]] {
        try await services.store.apps().filter { AdminCaller.current.mayTouch(app: $0.id) }.map {
            ["id": $0.id, "name": $0.name, "selected": $0.id == selected]
        }
    }

    /// The test users the caller may see (``AdminCaller/current``): all of them, or a scoped credential's apps' ones;
    /// by name, as people look for them (then by email).
    private func visibleUsers() async throws -> [TestUserRecord] {
        var users = try await services.store.users()
        if case .credential = AdminCaller.current {
            let apps = try await services.store.appsOfTestUsers()
            users = users.filter { AdminCaller.current.maySee(userOfApps: apps[$0.id] ?? []) }
        }
        return users.sorted { ($0.fullName.lowercased(), $0.email) < ($1.fullName.lowercased(), $1.email) }
    }

    func grants() async throws -> [[String: Any]] {
        let store = services.store
        let names = Dictionary(try await store.users().map { ($0.id, $0.fullName) }, uniquingKeysWith: { first, _ in first })
        let appNames = Dictionary(try await store.apps().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return try await store.grants().filter { AdminCaller.current.mayTouch(app: $0.appID) }.map { grant in
            let appName = appNames[grant.appID] ?? grant.appID
            let userName = names[grant.userID] ?? grant.userID
            return [
                "appID": grant.appID, "userID": grant.userID, "appName": appName, "userName": userName, "installed": grant.installed,
                "state": grant.installed ? "installed" : "uninstalled",
                "granted": grant.granted.map(\.name).sorted().map {
                    ["name": $0, "revocable": $0 != Permission.publicProfile.name] as [String: Any]
                },
                "declined": grant.declined.map(\.name).sorted(),
                "search": "\(appName) \(grant.appID) \(userName) \(grant.userID) \(grant.granted.map(\.name).sorted().joined(separator: " "))",
            ]
        }
    }

    /// The signing keys as the admin API lists them, with readable times.
    func keys() async throws -> [[String: Any]] {
        try await operations.keys().map { key in
            [
                "kid": key.record.keyID, "state": key.state, "created": AdminOperations.iso8601(key.record.createdAt),
                "signsFrom": AdminOperations.iso8601(key.record.signsFrom), "unpublished": key.unpublishedAt.map(AdminOperations.iso8601) ?? "",
                "search": "\(key.record.keyID) \(key.state)",
            ]
        }
    }

    func harness(_ context: inout [String: Any], kept: ConsoleKeptForm?) async throws {
        let now = services.clock.now()
        context["clockNow"] = AdminOperations.iso8601(now)
        context["clockOffset"] = String(services.clock.offset)
        context["clockInput"] = ConsoleClockInput.format(now)
        let scenarios = services.scenarios.all
        context["hasScenarios"] = !scenarios.isEmpty
        context["scenarios"] = scenarios.map { ["id": String($0.id), "summary": String(decoding: JSONSerializer.serialize($0.json), as: UTF8.self)] }
        context["appOptions"] = try await appOptions(selected: kept?.action == "queue-scenario" ? kept?.values["app_id"] : nil)
    }

    func tokens(_ context: inout [String: Any], kept: ConsoleKeptForm?, view: ConsoleTokenView?) async throws {
        let minting = kept?.action == "mint-token" ? kept : nil
        context["appOptions"] = try await appOptions(selected: minting?.values["app_id"])
        context["userOptions"] = try await userOptions(selectedFirst: minting?.values["user"])
        context["defects"] = TokenDefect.allCases.map {
            ["name": $0.rawValue, "summary": $0.summary, "selected": minting?.values["defect"] == $0.rawValue] as [String: Any]
        }
        if let view { context["inspected"] = view.context(discoveryURL: services.urls.discoveryURL) }
    }

    func logins() -> [[String: Any]] {
        services.recentLogins.all.map { login -> [String: Any] in
            var row: [String: Any] = [
                "time": AdminOperations.iso8601(login.time), "appID": login.appID, "appName": login.appName,
                "userID": login.userID, "userName": login.userName, "mode": login.mode,
                "granted": login.granted.joined(separator: ", "),
                "search": "\(login.appName) \(login.appID) \(login.userName) \(login.userID) \(login.mode)",
            ]
            if !login.declined.isEmpty { row["declined"] = login.declined.joined(separator: ", ") }
            if let claims = login.claims { row["claims"] = JSONSerializer.prettyPrinted(.object(claims)) }
            return row
        }
    }

    /// The admin log's newest entries (a scoped credential's own only, ``AdminOperations/adminLog(limit:)``).
    func adminLog() async throws -> [[String: Any]] {
        try await operations.adminLog(limit: ConsolePage.adminLogShown).map { entry -> [String: Any] in
            [
                "time": AdminOperations.iso8601(entry.at / 1_000_000), "credential": entry.credential, "operation": entry.operation,
                "target": entry.target, "node": entry.node, "search": "\(entry.credential) \(entry.operation) \(entry.target) \(entry.node)",
            ]
        }
    }

    func deliveries() async throws -> [[String: Any]] {
        try await services.store.deliveries(limit: 50).map { delivery -> [String: Any] in
            let kind = delivery.kind == .deauthorize ? "Deauthorize" : "Data deletion"
            var row: [String: Any] = [
                "id": delivery.id, "appID": delivery.appID, "kind": kind, "userID": delivery.userID, "url": delivery.url,
                "status": delivery.status.rawValue, "attempts": String(delivery.attempts), "time": AdminOperations.iso8601(delivery.createdAt),
                "search": "\(delivery.appID) \(kind) \(delivery.userID) \(delivery.url) \(delivery.status.rawValue)",
            ]
            if let error = delivery.lastError { row["lastError"] = error }
            if let code = delivery.confirmationCode { row["confirmation"] = code + (delivery.statusURL.map { " (" + $0 + ")" } ?? "") }
            return row
        }
    }

    /// The callback retry schedule in words (`2 s, 10 s, 1 min, 5 min`).
    func retryDelays() -> String {
        services.configuration.callbackRetryDelays.map { delay -> String in
            let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
            return milliseconds < 1000
                ? "\(milliseconds) ms" : milliseconds < 60_000 ? "\(milliseconds / 1000) s" : "\(milliseconds / 60_000) min"
        }.joined(separator: ", ")
    }

    /// The profile fields a test user has, in a line.
    static func profile(_ user: TestUserRecord) -> String {
        var parts: [String] = []
        if let birthday = user.birthday { parts.append("born \(birthday)") }
        if let gender = user.gender { parts.append(gender) }
        if let hometown = user.hometown { parts.append("from \(hometown.name)") }
        if let location = user.location { parts.append("lives in \(location.name)") }
        parts.append(user.pickable ? "pickable" : "password only")
        return parts.joined(separator: ", ")
    }
}
