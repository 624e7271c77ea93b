import Mustache
import Synchronization

/// The provider's HTML pages, as Mustache templates compiled into the binary (so `serve` works from any
/// directory, with no resource files to find).
enum PageTemplates {}

/// Why a page could not be rendered.
struct PageRenderingError: Error, CustomStringConvertible {
    let page: String
    var description: String { "the \(page) page failed to render" }
}

/// Renders the dialog's pages.
///
/// Every string in a page's context is HTML-escaped here, scalar by scalar, and the templates insert
/// values unescaped (`{{{…}}}`). Mustache's own escaping works on Characters, so a quote followed by a
/// combining mark (`"\u{301}`) is one Character that is not a quote and would pass through unescaped,
/// letting a value break out of an attribute.
struct PageRenderer: Sendable {
    enum Page: String, CaseIterable, Sendable {
        case signIn = "signin"
        case consent
        case error
        case formPost = "form_post"
        case home
        case demoCallback = "demo_callback"
        case consoleSignIn = "console_signin"
        case consoleOverview = "console_overview"
        case consoleApps = "console_apps"
        case consoleUsers = "console_users"
        case consoleFriends = "console_friends"
        case consoleGrants = "console_grants"
        case consoleKeys = "console_keys"
        case consoleHarness = "console_harness"
        case consoleTokens = "console_tokens"
        case consoleLogins = "console_logins"
        case consoleDeliveries = "console_deliveries"
        case consoleAdminLog = "console_admin_log"
        case consoleConfirm = "console_confirm"

        /// The page's template text.
        var template: String {
            switch self {
            case .signIn: PageTemplates.signIn
            case .consent: PageTemplates.consent
            case .error: PageTemplates.error
            case .formPost: PageTemplates.formPost
            case .home: PageTemplates.home
            case .demoCallback: PageTemplates.demoCallback
            case .consoleSignIn: PageTemplates.consoleSignIn
            case .consoleOverview: PageTemplates.consoleOverview
            case .consoleApps: PageTemplates.consoleApps
            case .consoleUsers: PageTemplates.consoleUsers
            case .consoleFriends: PageTemplates.consoleFriends
            case .consoleGrants: PageTemplates.consoleGrants
            case .consoleKeys: PageTemplates.consoleKeys
            case .consoleHarness: PageTemplates.consoleHarness
            case .consoleTokens: PageTemplates.consoleTokens
            case .consoleLogins: PageTemplates.consoleLogins
            case .consoleDeliveries: PageTemplates.consoleDeliveries
            case .consoleAdminLog: PageTemplates.consoleAdminLog
            case .consoleConfirm: PageTemplates.consoleConfirm
            }
        }
    }

    /// Each page's template is parsed on its first rendering, not at start: parsing all of them was a
    /// sixth of the CPU of a start (docs/PERFORMANCE.md, "Start"), and most runs show a few pages at most.
    private let library = LazyTemplateLibrary()

    init() {}

    func render(_ page: Page, _ context: [String: Any]) throws(PageRenderingError) -> String {
        var context = context
        context["stylesheetPath"] = Stylesheet.path
        context["scriptPath"] = PageScript.path
        guard let templates = try? library.templates(for: page), let html = templates.render(Self.escaped(context), withTemplate: page.rawValue)
        else {
            throw PageRenderingError(page: page.rawValue)
        }
        return html
    }

    /// The context with every string HTML-escaped, at any depth.
    static func escaped(_ value: Any) -> Any {
        switch value {
        case let string as String: return HTMLEscaping.escape(string)
        case let dictionary as [String: Any]: return dictionary.mapValues { escaped($0) }
        case let dictionary as [String: String]: return dictionary.mapValues { HTMLEscaping.escape($0) }
        case let array as [[String: Any]]: return array.map { $0.mapValues { escaped($0) } }
        case let array as [[String: String]]: return array.map { $0.mapValues { HTMLEscaping.escape($0) } }
        case let array as [Any]: return array.map { escaped($0) }
        default: return value
        }
    }
}

/// The pages' Mustache library, each page added (with the partials pages include) the first time it is asked for.
private final class LazyTemplateLibrary: Sendable {
    private struct State {
        var library = MustacheLibrary()
        var parsed: Set<PageRenderer.Page> = []
        var consoleTopParsed = false
    }

    private let state = Mutex(State())

    /// A library that holds `page`'s template.
    func templates(for page: PageRenderer.Page) throws -> MustacheLibrary {
        try state.withLock { state throws -> MustacheLibrary in
            if !state.parsed.contains(page) {
                if state.parsed.isEmpty { try state.library.register(PageTemplates.head, named: "head") }
                // The console's top, with the first console page: a run that shows only the dialog never parses it.
                if !state.consoleTopParsed, page.rawValue.hasPrefix("console_"), page != .consoleSignIn {
                    try state.library.register(PageTemplates.consoleTop, named: "console_top")
                    state.consoleTopParsed = true
                }
                try state.library.register(page.template, named: page.rawValue)
                state.parsed.insert(page)
            }
            return state.library
        }
    }
}

/// HTML escaping by Unicode scalar (also valid in XML: the audit's JUnit report uses it).
package enum HTMLEscaping {
    package static func escape(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".unicodeScalars)
            case "<": output.append(contentsOf: "&lt;".unicodeScalars)
            case ">": output.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": output.append(contentsOf: "&quot;".unicodeScalars)
            case "'": output.append(contentsOf: "&#39;".unicodeScalars)
            case "`": output.append(contentsOf: "&#96;".unicodeScalars)
            case "=": output.append(contentsOf: "&#61;".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }
}
