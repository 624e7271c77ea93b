import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #35: the dialog's pages as the real mobile dialog lays them out: email and password first, the
/// test users as rows sorted by name, each error beside the form it concerns, and "Try again" where a
/// page would otherwise end the login.
@Suite("Dialog pages: order, inline errors, Try again")
struct DialogPagesTests {
    @Test("email and password come first; the test users follow as rows sorted by name, each with an initial")
    func layout() async throws {
        try await withProvider { client, provider in
            try await FixtureLoader(store: provider.store).create(
                ProviderFixtures.User(id: "100009", firstName: "aaron", lastName: "zed", email: "aaron@example.com"))
            let page = try await DialogBrowser(client: client).get(dialogPath())
            let password = try #require(page.body.range(of: #"id="password-form""#))
            let picker = try #require(page.body.range(of: #"id="user-picker""#))
            let add = try #require(page.body.range(of: #"id="add-user-form""#))
            #expect(password.lowerBound < picker.lowerBound && picker.lowerBound < add.lowerBound)
            // Folded until opened (issue #55: open, it made the page 1,590 px tall on a desktop).
            #expect(
                page.body.contains(#"<details id="add-user">"#) && page.body.contains(#"<summary id="add-user-heading">Add a test user</summary>"#))
            #expect(SignInPickerTests.pickable(on: page) == ["100009", TestFixtures.alice, TestFixtures.bob, TestFixtures.carol])
            #expect(
                page.body.contains(
                    #"aria-hidden="true">A</span><span class="user-text"><span class="user-name"><span class="visually-hidden">Log in as </span>aaron zed"#
                ))
            #expect(page.body.contains(#"<span class="app-icon" aria-hidden="true">T</span><span id="app-name">Test App</span>"#))
        }
    }

    @Test("a wrong password's error sits in the password form and marks its fields; a refused new user's in the add form, with what was typed")
    func inlineErrors() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            let wrong = try await browser.signIn(email: "alice@example.com", password: "nope", on: page)
            #expect(wrong.status == .unauthorized)
            let form = try #require(Self.element("password-form", in: wrong.body))
            #expect(form.contains(#"<p class="field-error" id="error-message" role="alert">\#(DialogController.incorrectPassword)</p>"#))
            #expect(form.contains(#"aria-invalid="true" aria-describedby="error-message""#))
            #expect(
                form.contains(
                    #"id="pass" name="pass" autocomplete="current-password" required aria-invalid="true" aria-describedby="error-message" autofocus>"#
                ))
            #expect(wrong.body.components(separatedBy: "autofocus").count == 2, "one field takes the focus")
            #expect(!(Self.element("add-user-form", in: wrong.body)?.contains("error-message") ?? true))

            let taken = try await SignInAddUserTests.add(browser, on: wrong, name: "Al \"Dup\"", email: "alice@example.com")
            #expect(taken.status == .conflict)
            let addForm = try #require(Self.element("add-user-form", in: taken.body))
            #expect(addForm.contains(#"id="error-message""#) && addForm.contains("exists already"))
            #expect(taken.body.contains(#"<details id="add-user" open>"#), "a refused form stays open, its error in view")
            #expect(!wrong.body.contains(#"<details id="add-user" open>"#))
            #expect(
                addForm.contains(#"id="new-user-name""#) && addForm.contains("autofocus")
                    && !(Self.element("password-form", in: taken.body)?.contains("autofocus") ?? true))
            #expect(addForm.contains(#"value="Al &quot;Dup&quot;""#) && addForm.contains(#"value="alice@example.com""#))
            #expect(!(Self.element("password-form", in: taken.body)?.contains("error-message") ?? true))
        }
    }

    @Test("a form sent twice, or with a broken token, offers Try again: the same dialog request, which opens")
    func tryAgain() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let path = dialogPath(state: "s-35")
            let page = try await browser.get(path)
            #expect(try await browser.signIn(as: TestFixtures.alice, on: page).status == .seeOther)
            let replayed = try await browser.signIn(as: TestFixtures.alice, on: page)
            #expect(replayed.status == .forbidden && replayed.title == DialogController.formReplayed.title)
            let query = try #require(page.hiddenInput("request"))
            #expect(replayed.body.contains(#"<a href="/dialog/oauth?\#(HTMLEscaping.escape(query))" id="try-again""#), "\(replayed.body)")
            let again = try await DialogBrowser(client: client).get("/dialog/oauth?" + query)
            #expect(again.status == .ok && again.body.contains(#"id="password-form""#), "the same request opens afresh")

            var form = FormParameters()
            form.append("csrf_token", "broken")
            form.append("request", query)
            form.append("user_id", TestFixtures.alice)
            let broken = try await browser.post(DialogController.signInPath, form: form)
            #expect(broken.status == .forbidden && broken.body.contains(#"id="try-again""#))
            // A request that does not parse has nothing to try again.
            let invalid = try await browser.get("/dialog/oauth?client_id=999")
            #expect(!invalid.body.contains(#"id="try-again""#))
        }
    }

    @Test("the demo dialog's cancel page offers Try again, the same demo request for the same app")
    func demoTryAgain() async throws {
        try await withProvider { client, provider in
            var form = FormParameters()
            form.append("error", "access_denied")
            form.append("error_reason", "user_denied")
            form.append("state", DemoCallbackController.statePrefix + TestFixtures.appID)
            let browser = DialogBrowser(client: client)
            let cancelled = try await browser.send(
                DemoCallbackController.path, method: .post, body: form.encoded, contentType: "application/x-www-form-urlencoded")
            #expect(cancelled.title == "Login not completed")
            let dialog = provider.urls.limitedDialogURL(appID: TestFixtures.appID)
            #expect(dialog.contains("state=demo-\(TestFixtures.appID)"))
            #expect(cancelled.body.contains(#"<a href="\#(HTMLEscaping.escape(dialog))" id="try-again""#))

            for state in ["demo-999", "demo-", "demo-1<x", "other"] {
                var other = FormParameters()
                other.append("error", "access_denied")
                other.append("state", state)
                let page = try await browser.send(
                    DemoCallbackController.path, method: .post, body: other.encoded, contentType: "application/x-www-form-urlencoded")
                #expect(!page.body.contains(#"id="try-again""#), "\(state)")
            }
        }
    }

    @Test(
        "any dialog request answered to the demo page offers Try again: a cancel or a queued error carries the request back in the POST, never to an app's own redirect URI (#55)"
    )
    func tryAgainForAnyRequest() async throws {
        var configuration = TestFixtures.configuration(publicBaseURL: "http://127.0.0.1:8080")
        configuration.adminToken = KeyRotationAndAdminTests.adminToken
        try await withProvider(configuration) { client, provider in
            let demo = provider.urls.baseURL + DemoCallbackController.path
            let path = dialogPath(redirectURI: demo, state: "my-own-state", extra: [("response_mode", "form_post")])
            let browser = DialogBrowser(client: client)
            let signIn = try await browser.get(path)
            let signedIn = try await browser.signIn(as: TestFixtures.alice, on: signIn)
            let consent = try await browser.get(try #require(signedIn.location))
            #expect(consent.body.contains(#"id="consent-form""#))
            let cancelled = try await browser.consent(on: consent, action: "cancel")
            let fields = HTMLScraper.inputs(in: cancelled.body).filter { $0.type == "hidden" }
            #expect(fields.contains { $0.name == "state" && $0.value == "my-own-state" })
            #expect(fields.contains { $0.name == DialogResponder.retryField })
            var posted = FormParameters()
            for field in fields { posted.append(field.name, field.value) }
            let shown = try await browser.post(DemoCallbackController.path, form: posted)
            #expect(shown.title == "Login not completed")
            let request = try FormParameters(encoded: String(path.split(separator: "?", maxSplits: 1)[1]))
            let retry = "/dialog/oauth?" + request.encoded
            #expect(shown.body.contains(#"<a href="\#(HTMLEscaping.escape(retry))" id="try-again""#), "\(shown.body)")
            #expect(!shown.body.contains(DialogResponder.retryField), "the app receives no such field")
            // The link opens the same request again.
            #expect(try await browser.get(retry).body.contains(#"id="consent-form""#))

            // A queued error answered to the demo page carries it too.
            let queued = try await admin(
                client, "/_admin/scenarios", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "outcome": "error", "message": "Down"}"#)
            #expect(queued.status == .created)
            let errored = try await browser.get(path)
            #expect(HTMLScraper.inputs(in: errored.body).contains { $0.name == DialogResponder.retryField && $0.type == "hidden" })

            // To an app's own redirect URI a cancel carries nothing but the standard fields.
            let own = try await browser.get(dialogPath(extra: [("response_mode", "form_post")]))
            let ownCancel = try await browser.consent(on: own, action: "cancel")
            #expect(ownCancel.body.contains("access_denied") && !ownCancel.body.contains(DialogResponder.retryField))

            // A request naming no app the provider holds is not offered again.
            var forged = FormParameters()
            forged.append("error", "access_denied")
            forged.append(DialogResponder.retryField, "client_id=999&redirect_uri=x")
            #expect(!(try await browser.post(DemoCallbackController.path, form: forged)).body.contains(#"id="try-again""#))
        }
    }

    /// The text of the element with this ID up to its closing tag of the same name (no nesting of that tag).
    static func element(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
        let tagStart = html[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
        let name = html[html.index(after: tagStart)...].prefix { $0.isLetter }
        guard let end = html[start.upperBound...].range(of: "</\(name)>") else { return nil }
        return String(html[tagStart..<end.upperBound])
    }
}
