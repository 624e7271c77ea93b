/// The console's pages: an overview, and each part of the provider a tester changes on a page of its
/// own (`/_console/{section}`), each list with a search (`?q=`).
enum ConsoleSection: String, CaseIterable, Sendable {
    case overview
    case apps
    case users
    case friends
    case grants
    case keys
    case harness
    case tokens
    case logins
    case deliveries
    case log

    /// The page's address.
    var path: String { self == .overview ? "/_console" : "/_console/" + rawValue }

    /// The page's heading, and its name in the console's navigation.
    var title: String {
        switch self {
        case .overview: "Overview"
        case .apps: "Apps"
        case .users: "Test users"
        case .friends: "Friendships"
        case .grants: "Grants"
        case .keys: "Signing keys"
        case .harness: "Clock, scenarios and state"
        case .tokens: "Tokens"
        case .logins: "Recent logins"
        case .deliveries: "Callback deliveries"
        case .log: "Admin log"
        }
    }

    /// The template that lays the page out.
    var page: PageRenderer.Page {
        switch self {
        case .overview: .consoleOverview
        case .apps: .consoleApps
        case .users: .consoleUsers
        case .friends: .consoleFriends
        case .grants: .consoleGrants
        case .keys: .consoleKeys
        case .harness: .consoleHarness
        case .tokens: .consoleTokens
        case .logins: .consoleLogins
        case .deliveries: .consoleDeliveries
        case .log: .consoleAdminLog
        }
    }

    /// The section named in a path (`apps`), or nil.
    init?(pathComponent: String) {
        guard let section = ConsoleSection(rawValue: pathComponent), section != .overview else { return nil }
        self = section
    }
}

extension ConsoleSection {
    /// The sections a scoped credential sees: its apps, their test users and grants, tokens and its own log; the
    /// organisation sees every one.
    func isOpen(to caller: AdminCaller) -> Bool {
        switch caller {
        case .organisation: true
        case .credential: [.overview, .apps, .users, .grants, .tokens, .log].contains(self)
        }
    }
}
