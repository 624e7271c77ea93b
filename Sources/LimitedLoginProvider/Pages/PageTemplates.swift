import Mustache

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
        case console
        case consoleSignIn = "console_signin"
    }

    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        try library.register(PageTemplates.head, named: "head")
        try library.register(PageTemplates.signIn, named: Page.signIn.rawValue)
        try library.register(PageTemplates.consent, named: Page.consent.rawValue)
        try library.register(PageTemplates.error, named: Page.error.rawValue)
        try library.register(PageTemplates.formPost, named: Page.formPost.rawValue)
        try library.register(PageTemplates.home, named: Page.home.rawValue)
        try library.register(PageTemplates.demoCallback, named: Page.demoCallback.rawValue)
        try library.register(PageTemplates.console, named: Page.console.rawValue)
        try library.register(PageTemplates.consoleSignIn, named: Page.consoleSignIn.rawValue)
        self.library = library
    }

    func render(_ page: Page, _ context: [String: Any]) throws(PageRenderingError) -> String {
        var context = context
        context["stylesheetPath"] = Stylesheet.path
        guard let html = library.render(Self.escaped(context), withTemplate: page.rawValue) else {
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
