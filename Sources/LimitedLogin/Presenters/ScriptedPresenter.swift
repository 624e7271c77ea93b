import Foundation
import LimitedLoginCore
import LimitedLoginVerifier
import NIOHTTP1
import Synchronization

/// A presenter for tests that plays the person: it follows the real dialog pages over HTTP, keeps the
/// provider's cookies between logins like a browser, and submits the real forms as ``person`` says.
/// The dialog's answer is the redirect to ``redirectURI`` (by default `fb{appID}://authorize/`, which a
/// provider always accepts), read from its `Location` without going there.
public final class ScriptedPresenter: AuthorizationPresenter {
    private struct State {
        var person: ScriptedPerson
        var cookies: [String: String] = [:]
        var pageTitles: [String] = []
    }

    private let state: Mutex<State>
    /// The redirect URI to ask for; nil means `fb{appID}://authorize/`.
    public let redirectURI: String?

    public init(person: ScriptedPerson, redirectURI: String? = nil) {
        self.state = Mutex(State(person: person))
        self.redirectURI = redirectURI
    }

    /// What the person does from now on.
    public var person: ScriptedPerson {
        get { state.withLock { $0.person } }
        set { state.withLock { $0.person = newValue } }
    }

    /// The titles of every dialog page shown so far, in order.
    public var pageTitles: [String] { state.withLock { $0.pageTitles } }

    /// Forgets the provider's cookies (signs the browser out).
    public func clearCookies() { state.withLock { $0.cookies = [:] } }

    public func begin(appID: String) async throws(LoginError) -> any AuthorizationAttempt {
        ScriptedAttempt(presenter: self, redirectURI: redirectURI ?? "fb\(appID)://authorize/")
    }

    fileprivate func fetch(_ url: URL, method: HTTPMethod, form: [(name: String, value: String)]?) async throws(LoginError) -> SDKHTTPClient.Answer {
        var headers: [(String, String)] = []
        let cookieHeader = state.withLock { state in
            state.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if !cookieHeader.isEmpty { headers.append(("Cookie", cookieHeader)) }
        var body: String?
        if let form {
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = FormParameters(pairs: form).encoded
        }
        let answer: SDKHTTPClient.Answer
        do { answer = try await SDKHTTPClient.send(url, method: method, headers: headers, body: body) } catch {
            throw .dialogUnreachable(origin: DialogPreflight.origin(of: url), reason: TransportFailure.reason(error))
        }
        let title = HTMLForm.title(in: answer.text)
        state.withLock { state in
            for header in answer.headers["Set-Cookie"] {
                let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2 else { continue }
                let name = String(pair[0]).trimmingWhitespace
                if pair[1].isEmpty || header.lowercased().contains("max-age=0") {
                    state.cookies[name] = nil
                } else {
                    state.cookies[name] = String(pair[1])
                }
            }
            if let title, answer.status < 300 || answer.status >= 400 { state.pageTitles.append(title) }
        }
        return answer
    }
}

private struct ScriptedAttempt: AuthorizationAttempt {
    let presenter: ScriptedPresenter
    let redirectURI: String

    static let maximumSteps = 12

    func present(_ url: URL) async throws(LoginError) -> URL {
        var next: (url: URL, method: HTTPMethod, form: [(name: String, value: String)]?) = (url, .GET, nil)
        var searched = false
        for _ in 0..<Self.maximumSteps {
            let answer = try await presenter.fetch(next.url, method: next.method, form: next.form)
            if (300..<400).contains(answer.status) {
                guard let location = answer.headers.first(name: "Location") else {
                    throw .presentationFailed("the dialog answered \(answer.status) without a Location")
                }
                if location.hasPrefix(redirectURI) {
                    guard let callback = URL(string: location) else { throw .malformedCallback("the redirect \(location) is not a URL") }
                    return callback
                }
                guard let target = URL(string: location, relativeTo: next.url)?.absoluteURL else {
                    throw .presentationFailed("the dialog redirected to \(location), which is not a URL")
                }
                next = (target, .GET, nil)
                continue
            }
            next = try step(page: answer, at: next.url, searched: &searched)
        }
        throw .presentationFailed("the dialog did not finish within \(Self.maximumSteps) pages")
    }

    func abandon() async {}

    /// What the person does on a page: sign in, consent, or give up on an error page. `searched` is set
    /// once the person has used the sign-in page's search, so that a user it does not find fails the login.
    private func step(
        page answer: SDKHTTPClient.Answer, at url: URL, searched: inout Bool
    ) throws(LoginError) -> (URL, HTTPMethod, [(name: String, value: String)]?) {
        let html = answer.text
        let forms = HTMLForm.forms(in: html)
        let person = presenter.person
        func submit(
            _ form: HTMLForm, adding extra: [(name: String, value: String)]
        ) throws(LoginError) -> (URL, HTTPMethod, [(name: String, value: String)]?) {
            guard let target = URL(string: form.action, relativeTo: url)?.absoluteURL else {
                throw .presentationFailed("the form's action \(form.action) is not a URL")
            }
            return (target, .POST, form.baseValues + extra)
        }
        if answer.status >= 400 || !forms.contains(where: { $0.id == "consent-form" || $0.id == "password-form" }) {
            throw .dialogFailed(code: String(answer.status), message: DialogPreflight.errorMessage(of: answer))
        }
        if let consent = forms.first(where: { $0.id == "consent-form" }) {
            var form = consent
            form.fields.removeAll { $0.name == "permission" && person.untick.contains(Permission(name: $0.value)) }
            return try submit(form, adding: [("action", person.decision.rawValue)])
        }
        switch person.signIn {
        case .testUser(let id):
            return try pick(id, on: html, forms: forms, at: url, searched: &searched) { $0.id == id }
        case .pick(let who):
            let email = who.lowercased()
            return try pick(who, on: html, forms: forms, at: url, searched: &searched) { $0.id == who || $0.email?.lowercased() == email }
        case .credentials(let email, let password):
            guard var form = forms.first(where: { $0.id == "password-form" }) else {
                throw .presentationFailed("the sign-in page has no password form")
            }
            form.fields.removeAll { $0.name == "email" || $0.name == "pass" }
            return try submit(form, adding: [("email", email), ("pass", password), ("login", "1")])
        }
    }

    /// Picks the first listed test user that `matches`; when none is listed, searches the picker for
    /// `who` once and looks again.
    private func pick(
        _ who: String, on html: String, forms: [HTMLForm], at url: URL, searched: inout Bool,
        matches: (PickerEntry) -> Bool
    ) throws(LoginError) -> (URL, HTTPMethod, [(name: String, value: String)]?) {
        if let entry = PickerEntry.all(in: html).first(where: matches),
            let form = forms.first(where: { form in form.fields.contains { $0.name == "user_id" && $0.value == entry.id } })
        {
            guard let target = URL(string: form.action, relativeTo: url)?.absoluteURL else {
                throw .presentationFailed("the form's action \(form.action) is not a URL")
            }
            // The picker's buttons carry the user ID; a page with one form per user carries it hidden.
            let pickedByButton = form.buttons.contains { $0.name == "user_id" && $0.value == entry.id }
            return (target, .POST, form.baseValues + (pickedByButton ? [("user_id", entry.id)] : []))
        }
        guard !searched, let search = forms.first(where: { $0.id == "user-search" }) else {
            if searched {
                throw .presentationFailed(
                    "the sign-in page's search for \(who) lists no such test user to pick (is it pickable, and one of this app's test users or a person with a role on it?)"
                )
            }
            throw .presentationFailed(
                "the sign-in page offers no test user \(who) to pick, and no search (the provider may run with --no-user-picker: sign in with credentials)"
            )
        }
        searched = true
        var query = FormParameters()
        for (name, value) in search.baseValues { query.append(name, name == "q" ? who : value) }
        if !search.baseValues.contains(where: { $0.name == "q" }) { query.append("q", who) }
        guard let target = URL(string: search.action + "?" + query.encoded, relativeTo: url)?.absoluteURL else {
            throw .presentationFailed("the search form's action \(search.action) is not a URL")
        }
        return (target, .GET, nil)
    }
}

/// A test user the sign-in page offers to pick: a button's `data-user-id` and `data-user-email`.
struct PickerEntry: Sendable, Equatable {
    var id: String
    var email: String?

    /// Every pickable user on the page, in order.
    static func all(in html: String) -> [PickerEntry] {
        var entries: [PickerEntry] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<button") {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            let tag = rest[start.lowerBound...end]
            if let id = HTMLForm.attribute("data-user-id", in: tag) {
                entries.append(PickerEntry(id: id, email: HTMLForm.attribute("data-user-email", in: tag)))
            }
            rest = rest[rest.index(after: end)...]
        }
        return entries
    }
}
