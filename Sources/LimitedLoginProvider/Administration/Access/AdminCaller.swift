/// Who is calling the admin API: the organisation's admin token, or a named credential scoped to some apps
/// (docs/SECURITY.md, "Scoped admin credentials"). ``AdminGuardMiddleware`` sets ``current`` for the length of
/// each request, and the console for each page and form of a session; the operations read it to keep a scoped
/// credential to its apps (lists filtered, other apps refused, a user of none of its apps not found).
enum AdminCaller: Sendable, Equatable {
    case organisation
    case credential(name: String, apps: Set<String>)

    @TaskLocal static var current: AdminCaller = .organisation

    /// The name the admin log records.
    var logName: String {
        switch self {
        case .organisation: "organisation"
        case .credential(let name, _): name
        }
    }

    /// Whether the caller may touch this app.
    func mayTouch(app: String) -> Bool {
        switch self {
        case .organisation: true
        case .credential(_, let apps): apps.contains(app)
        }
    }

    /// Whether the caller may see a test user of these apps: one of them is the caller's.
    func maySee(userOfApps userApps: [String]) -> Bool {
        switch self {
        case .organisation: true
        case .credential(_, let apps): userApps.contains(where: apps.contains)
        }
    }

    /// Whether the caller may change or delete a test user of these apps: every one of them is the caller's
    /// (a user another team's app shares stays that team's too).
    func mayChange(userOfApps userApps: [String]) -> Bool {
        switch self {
        case .organisation: true
        case .credential(_, let apps): !userApps.isEmpty && userApps.allSatisfy(apps.contains)
        }
    }

    /// The refusal for a scoped credential reaching outside its apps: what it may touch.
    func outOfScope(_ what: String) -> AdminError {
        switch self {
        case .organisation: AdminError(.forbidden, what)
        case .credential(let name, let apps):
            AdminError(
                .forbidden,
                "\(what) The credential \(name) may touch only app\(apps.count == 1 ? "" : "s") \(apps.sorted().joined(separator: ", ")) and their test users."
            )
        }
    }
}
