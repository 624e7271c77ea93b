import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// A console page: the navigation, the last action's notice or error, and one section of what the store
/// and the admin API say now, laid out for people (``ConsoleSection``).
struct ConsolePage: Sendable {
    let services: ProviderServices
    let operations: AdminOperations

    /// What a page shows besides the provider's state.
    struct Shown {
        var notice: String?
        var errorMessage: String?
        /// The list's search (`?q=`); empty or nil shows everything.
        var search: String?
        /// A refused form, shown again with what was typed.
        var kept: ConsoleKeptForm?
        /// A token to show decoded and verified (a minting's answer, or one pasted in).
        var token: ConsoleTokenView?
    }

    func render(_ section: ConsoleSection, csrf: String, _ shown: Shown = Shown(), status: HTTPResponse.Status = .ok) async throws -> Response {
        var context = frame(section, csrf: csrf, shown)
        let search = shown.search?.trimmingCharacters(in: .whitespaces) ?? ""
        var rows: (key: String, all: [[String: Any]])?
        switch section {
        case .overview: try await overview(&context)
        case .apps: rows = ("apps", try await apps(kept: shown.kept))
        case .users: rows = ("users", try await users(kept: shown.kept))
        case .friends:
            rows = ("friendships", try await friendships())
            context["userOptions"] = try await userOptions(selectedFirst: shown.kept?.values["user_id"], second: shown.kept?.values["friend_id"])
        case .grants: rows = ("grants", try await grants())
        case .keys:
            rows = ("keys", try await keys())
            context["publishDelay"] = shown.kept?.values["publish_delay"] ?? String(RotationDefaults.publishDelay)
        case .harness: try await harness(&context, kept: shown.kept)
        case .tokens: try await tokens(&context, kept: shown.kept, view: shown.token)
        case .logins:
            rows = ("logins", logins())
            context["loginCapacity"] = String(RecentLogins.capacity)
        case .deliveries:
            rows = ("deliveries", try await deliveries())
            context["retryDelays"] = retryDelays()
        case .log:
            rows = ("entries", try await adminLog())
            context["logShown"] = String(Self.adminLogShown)
            context["logKept"] = String(AdminWriteLog.kept)
        }
        if let rows {
            let matching = ConsoleSearch.filter(rows.all, by: search)
            context[rows.key] = matching
            context["searchable"] = true
            context["filterTarget"] = Self.listIDs[section] ?? ""
            context["searchWhat"] = section.title.lowercased()
            if !search.isEmpty { context["matchCount"] = "\(matching.count) of \(rows.all.count)" }
        }
        if let kept = shown.kept { context[kept.contextKey] = kept.values }
        return Responses.html(try services.pages.render(section.page, context), status: status, policy: Responses.consolePolicy)
    }

    /// How many of the admin log's newest entries its section shows.
    static let adminLogShown = 200

    /// The element whose rows a section's search filters as one types.
    private static let listIDs: [ConsoleSection: String] = [
        .apps: "apps-list", .users: "users-list", .friends: "friendships", .grants: "grants-list", .keys: "keys-list",
        .logins: "logins-list", .deliveries: "deliveries-list", .log: "admin-log-list",
    ]

    /// What every console page has: the title, the navigation, the CSRF token, the notice or error.
    func frame(_ section: ConsoleSection, csrf: String, _ shown: Shown) -> [String: Any] {
        var context: [String: Any] = [
            "title": "Console: \(section.title)", "heading": section.title, "csrf": csrf, "sectionPath": section.path,
            "nav": ConsoleSection.allCases.filter { $0.isOpen(to: AdminCaller.current) }.map {
                ["path": $0.path, "label": $0.title, "current": $0 == section] as [String: Any]
            },
        ]
        // Only present keys open their sections (an empty string would too).
        if let notice = shown.notice { context["notice"] = notice }
        if let errorMessage = shown.errorMessage { context["errorMessage"] = errorMessage }
        if let search = shown.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty { context["search"] = search }
        return context
    }

    // MARK: - Overview

    private func overview(_ context: inout [String: Any]) async throws {
        if case .credential(let name, _) = AdminCaller.current {
            try await scopedOverview(&context, name: name)
            return
        }
        let store = services.store
        let users = try await store.users()
        var friendships = 0
        for user in users { friendships += try await store.friendIDs(of: user.id).filter { user.id < $0 }.count }
        let keys = try await operations.keys()
        let deliveries = try await store.deliveries(limit: 50)
        let failed = deliveries.filter { $0.status == .failed }.count
        let cards: [(ConsoleSection, String, String)] = [
            (.apps, String(try await store.apps().count), "apps this provider logs in to"),
            (.users, String(users.count), "\(users.filter(\.pickable).count) offered on the sign-in page"),
            (.friends, String(friendships), "pairs of test users who are friends"),
            (.grants, String(try await store.grants().count), "people who logged in to an app"),
            (.keys, String(keys.count), keys.first { $0.state == "active" }.map { "signing with \($0.record.keyID)" } ?? "no key signs now"),
            (.harness, String(services.scenarios.all.count), "scenarios queued; the clock is \(services.clock.offset) s from the system's"),
            (.tokens, "", "mint a token, or decode and verify one"),
            (.logins, String(services.recentLogins.all.count), "recent logins on this node"),
            (.deliveries, String(deliveries.count), failed == 0 ? "callback posts, none failed" : "callback posts, \(failed) failed"),
        ]
        fill(&context, cards: cards)
    }

    /// A scoped credential's overview: its apps, their test users and grants, counted through the operations
    /// that keep it to them.
    private func scopedOverview(_ context: inout [String: Any], name: String) async throws {
        let cards: [(ConsoleSection, String, String)] = [
            (.apps, String(try await operations.apps().count), "apps the credential \(name) manages"),
            (.users, String(try await operations.users().count), "test users of those apps"),
            (.grants, String(try await operations.grants(user: nil).count), "people who logged in to them"),
            (.tokens, "", "mint a token, or decode and verify one"),
        ]
        fill(&context, cards: cards)
    }

    /// The overview's cards (section, count, summary) and the provider's addresses beside them.
    private func fill(_ context: inout [String: Any], cards: [(ConsoleSection, String, String)]) {
        context["cards"] = cards.map { section, count, summary in
            ["id": section.rawValue, "path": section.path, "label": section.title, "count": count, "summary": summary]
        }
        context["clockNow"] = AdminOperations.iso8601(services.clock.now())
        context["issuer"] = services.urls.issuer
        context["discoveryURL"] = services.urls.discoveryURL
        context["jwksURL"] = services.urls.jwksURL
    }
}
