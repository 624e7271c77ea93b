import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #35: the console as a page per section, with a search on each list, a question before a change
/// that cannot be undone, refused forms shown again as typed, and the harness in it (the clock set to a
/// date, scenarios queued and removed, the state exported and imported, a token decoded and verified).
@Suite("Console: sections, search, confirmation, kept forms, the harness")
struct ConsoleSectionsTests {
    /// Signs in; returns the browser and its form token.
    static func signedIn(_ client: any TestClientProtocol) async throws -> (DialogBrowser, String) {
        let browser = DialogBrowser(client: client)
        let csrf = try #require(try await ConsoleTests.signIn(browser).hiddenInput("csrf"))
        return (browser, csrf)
    }

    @Test("each section is a page of its own, the current one marked in the navigation; an unknown section is 404")
    func sections() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, _) = try await Self.signedIn(client)
            let expected: [(ConsoleSection, String)] = [
                (.overview, #"id="console-overview""#), (.apps, #"id="apps-table""#), (.users, #"id="users-table""#),
                (.friends, #"id="add-friends-form""#), (.grants, #"id="grants-table""#), (.keys, #"id="keys-table""#),
                (.harness, #"id="set-clock-form""#), (.tokens, #"id="mint-form""#), (.logins, #"id="logins-table""#),
                (.deliveries, #"id="deliveries-table""#), (.log, #"id="admin-log-table""#),
            ]
            #expect(expected.count == ConsoleSection.allCases.count)
            for (section, marker) in expected {
                let page = try await browser.get(section.path)
                #expect(page.status == .ok && page.body.contains(marker), "\(section): \(page.body.prefix(200))")
                #expect(page.body.contains(#"<a href="\#(section.path)" aria-current="page">\#(section.title)</a>"#), "\(section)")
                #expect(page.title == "Console: \(section.title)")
                for other in expected.map(\.0) where other != section {
                    #expect(page.body.contains(#"<a href="\#(other.path)">"#), "\(section) links \(other)")
                }
            }
            #expect(try await browser.get("/_console/nothing").status == .notFound)
            #expect(try await browser.get("/_console/overview").status == .notFound, "the overview is /_console")
            // Without a session every section shows the sign-in, naming nothing.
            let stranger = try await DialogBrowser(client: client).get("/_console/users")
            #expect(stranger.body.contains(#"id="console-signin""#) && !stranger.body.contains("alice@example.com"))
        }
    }

    @Test("users are listed by name, not by ID, in the users table and in the mint form's choice (issue #55)")
    func usersByName() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            // The lowest ID, the last name in order.
            let made = try await admin(
                client, "/_admin/users", method: .post,
                json: #"{"id": "100000", "first_name": "Zoe", "last_name": "Adams", "email": "zoe@example.com"}"#)
            #expect(made.status == .created)
            let (browser, _) = try await Self.signedIn(client)
            func order(_ page: String, of markers: [String]) -> [String] {
                markers.compactMap { marker in page.range(of: marker).map { (marker, $0.lowerBound) } }.sorted { $0.1 < $1.1 }.map(\.0)
            }
            let emails = ["alice@example.com", "bob@example.com", "carol@example.com", "zoe@example.com"]
            let users = try await browser.get("/_console/users")
            #expect(order(users.body, of: emails.map { #"data-user-email="\#($0)""# }) == emails.map { #"data-user-email="\#($0)""# })
            let tokens = try await browser.get("/_console/tokens")
            let options = emails.map { "(\($0))</option>" }
            #expect(order(tokens.body, of: options) == options)
            // The first one, the default choice, is the first by name.
            #expect(tokens.body.contains(#"<select id="mint-user" name="user"><option value="\#(TestFixtures.alice)""#))
        }
    }

    @Test("a list's search shows the matching rows only, and says how many of how many")
    func search() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, _) = try await Self.signedIn(client)
            let all = try await browser.get("/_console/users")
            #expect(all.body.contains(#"data-user-email="alice@example.com""#) && all.body.contains(#"data-user-email="bob@example.com""#))
            let bob = try await browser.get("/_console/users?q=BOB")
            #expect(bob.body.contains(#"data-user-email="bob@example.com""#) && !bob.body.contains(#"data-user-email="alice@example.com""#))
            #expect(HTMLForm.text(ofElementWithID: "search-summary", in: bob.body)?.hasPrefix("1 of ") == true, "\(bob.body.prefix(0))")
            #expect(bob.body.contains(#"value="BOB""#), "the search stays in its field")
            // As the search form sends it: a space is `+`.
            let fullName = try await browser.get("/_console/users?q=bob+jones")
            #expect(fullName.body.contains(#"data-user-email="bob@example.com""#) && fullName.body.contains(#"value="bob jones""#))
            let none = try await browser.get("/_console/apps?q=%3Cscript%3E")
            #expect(none.body.contains(#"id="no-apps""#) && none.body.contains("&lt;script&gt;") && !none.body.contains("<script>"))
            let byID = try await browser.get("/_console/apps?q=\(TestFixtures.appID)")
            #expect(byID.body.contains(#"data-app-id="\#(TestFixtures.appID)""#))
        }
    }

    @Test("a delete asks first: its link leads to a question carrying the form, and only posting that form deletes")
    func confirmation() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let (browser, csrf) = try await Self.signedIn(client)
            let apps = try await browser.get("/_console/apps")
            let link = "/_console/confirm/delete-app?app_id=\(TestFixtures.appID)"
            #expect(apps.body.contains(#"href="\#(link)""#))
            #expect(!apps.body.contains(#"action="/_console/actions/delete-app""#), "no one-click delete on the list")
            let question = try await browser.get(link)
            #expect(question.status == .ok)
            #expect(HTMLForm.text(ofElementWithID: "confirm-question", in: question.body) == "Delete the app Test App (\(TestFixtures.appID))?")
            let form = try #require(HTMLForm.forms(in: question.body).first { $0.id == "confirm-form" })
            #expect(form.action == "/_console/actions/delete-app")
            #expect(question.body.contains(#"<input type="hidden" name="app_id" value="\#(TestFixtures.appID)">"#))
            #expect(
                question.body.contains(#"id="confirm-cancel""#)
                    && question.body.contains(#"href="/_console/apps" class="button" id="confirm-cancel""#))
            #expect(try await provider.store.app(id: TestFixtures.appID) != nil, "asking changes nothing")

            let deleted = try await ConsoleTests.act(browser, "delete-app", csrf: csrf, [("app_id", TestFixtures.appID)])
            #expect(deleted.status == .seeOther && deleted.location == "/_console/apps?done=delete-app")
            #expect(try await provider.store.app(id: TestFixtures.appID) == nil)

            let gone = try await browser.get(link)
            #expect(gone.status == .notFound && gone.body.contains("No app with ID \(TestFixtures.appID)."))
            let user = try await browser.get("/_console/confirm/delete-user?user_id=\(TestFixtures.bob)")
            #expect(HTMLForm.text(ofElementWithID: "confirm-question", in: user.body) == "Delete the test user Bob Jones (bob@example.com)?")
            let friends = try await browser.get("/_console/confirm/remove-friends?user_id=\(TestFixtures.alice)&friend_id=404")
            #expect(friends.status == .notFound && friends.body.contains("names a test user that does not exist"))
            let other = try await browser.get("/_console/confirm/rotate-key")
            #expect(other.status == .notFound && other.body.contains("The console asks nothing before rotate-key."))
        }
    }

    @Test("a refused form comes back open, with what was typed (never a password)")
    func keptForms() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, csrf) = try await Self.signedIn(client)
            let app = try await ConsoleTests.act(
                browser, "create-app", csrf: csrf,
                [("name", "Kept \"Name\""), ("id", "abc"), ("redirect_uris", "https://kept.example/cb"), ("mode", "development")])
            #expect(app.status == .badRequest && app.body.contains("App ID &quot;abc&quot; must be digits."))
            #expect(app.body.contains(#"<details id="create-app" open>"#))
            #expect(app.body.contains(#"name="name" value="Kept &quot;Name&quot;" required"#))
            #expect(app.body.contains(#"name="redirect_uris" rows="2">https://kept.example/cb</textarea>"#))
            #expect(app.body.contains(#"<option value="development" selected>"#))

            let user = try await ConsoleTests.act(
                browser, "create-user", csrf: csrf,
                [
                    ("first_name", "Kim"), ("last_name", "Kept"), ("email", "kim@example.com"), ("password", "secret-pass"),
                    ("birthday", "31/31/1990"),
                ])
            #expect(user.status == .badRequest && user.body.contains("use MM/DD/YYYY"), "\(user.body.prefix(300))")
            #expect(user.body.contains(#"name="first_name" value="Kim""#) && user.body.contains(#"value="31/31/1990""#))
            #expect(!user.body.contains("secret-pass"), "a password is never sent back")

            // A refused edit opens that row's form with the typed values, the stored ones untouched.
            let edit = try await ConsoleTests.act(
                browser, "edit-user", csrf: csrf,
                [("user_id", TestFixtures.bob), ("first_name", "Robert"), ("last_name", "Jones"), ("email", "alice@example.com")])
            #expect(edit.status == .conflict)
            #expect(edit.body.contains(#"id="u-first-\#(TestFixtures.bob)" name="first_name" value="Robert""#))
            #expect(edit.body.contains(#"<details open><summary>Edit Bob Jones</summary>"#))
        }
    }

    /// The provider's time now, in seconds; it runs on from where it was set, so a check allows the
    /// seconds a busy machine takes between the setting and the reading.
    static func clockNow(_ client: any TestClientProtocol) async throws -> Int64 {
        Int64(try #require(try await admin(client, "/_admin/clock").object["now"]?.numberValue))
    }

    @Test("the clock set to a date (UTC); text that is no date is refused; before issued tokens only when forced")
    func clockToDate() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, csrf) = try await Self.signedIn(client)
            let set = try await ConsoleTests.act(browser, "set-clock", csrf: csrf, [("time", "2031-02-03T04:05:06")])
            #expect(set.status == .seeOther && set.location == "/_console/harness?done=set-clock")
            #expect((1_927_857_906..<1_927_857_966).contains(try await Self.clockNow(client)))
            let page = try await browser.get("/_console/harness?done=set-clock")
            #expect(
                page.body.contains("The clock was set.")
                    && page.body.contains(#"type="datetime-local" id="clock-time" name="time" step="1" value="2031-02-03T04:0"#))

            let bad = try await ConsoleTests.act(browser, "set-clock", csrf: csrf, [("time", "tomorrow")])
            #expect(bad.status == .badRequest && bad.body.contains("Give the date and time to set the clock to (UTC)"))
            #expect(bad.body.contains(#"value="tomorrow""#), "kept")

            // A token issued at the set time, then the clock set before it: refused, unless forced.
            #expect(
                try await admin(client, "/_admin/tokens", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "user": "alice@example.com"}"#)
                    .status == .created)
            let back = try await ConsoleTests.act(browser, "set-clock", csrf: csrf, [("time", "2030-01-01T00:00")])
            #expect(back.status == .conflict, "\(back.body.prefix(300))")
            let forced = try await ConsoleTests.act(browser, "set-clock", csrf: csrf, [("time", "2030-01-01T00:00"), ("force", "1")])
            #expect(forced.status == .seeOther)
            #expect((1_893_456_000..<1_893_456_060).contains(try await Self.clockNow(client)))
        }
    }

    @Test("scenarios queued and removed one by one in the console and through DELETE /_admin/scenarios/{id}")
    func scenarios() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, csrf) = try await Self.signedIn(client)
            let queued = try await ConsoleTests.act(
                browser, "queue-scenario", csrf: csrf,
                [("app_id", TestFixtures.appID), ("user", "bob@example.com"), ("outcome", "error"), ("code", "2"), ("message", "Down")])
            #expect(queued.status == .seeOther, "\(queued.body.prefix(300))")
            let listed = try #require(try await admin(client, "/_admin/scenarios").object["scenarios"]?.arrayValue)
            #expect(listed.count == 1)
            let scenario = try #require(listed.first?.objectValue)
            #expect(scenario["user_id"]?.stringValue == TestFixtures.bob && scenario["code"] == .number(2))
            let id = try #require(scenario["id"]?.numberValue.map { Int($0) })
            let page = try await browser.get("/_console/harness")
            #expect(page.body.contains(#"data-scenario-id="\#(id)""#))

            let badClaims = try await ConsoleTests.act(
                browser, "queue-scenario", csrf: csrf, [("app_id", TestFixtures.appID), ("outcome", "claims"), ("claims", "[1]")])
            #expect(badClaims.status == .badRequest && badClaims.body.contains("The claims must be a JSON object"))
            #expect(badClaims.body.contains(#"<details id="queue-scenario" open>"#))
            let unknownUser = try await ConsoleTests.act(
                browser, "queue-scenario", csrf: csrf, [("app_id", TestFixtures.appID), ("user", "nobody@example.com")])
            #expect(unknownUser.status == .notFound && unknownUser.body.contains("No test user nobody@example.com"))

            let removed = try await ConsoleTests.act(browser, "remove-scenario", csrf: csrf, [("scenario_id", String(id))])
            #expect(removed.status == .seeOther)
            #expect(try await admin(client, "/_admin/scenarios").object["scenarios"]?.arrayValue?.isEmpty == true)
            let again = try await ConsoleTests.act(browser, "remove-scenario", csrf: csrf, [("scenario_id", String(id))])
            #expect(again.status == .notFound && again.body.contains("No queued scenario \(id)"))

            // The admin API's own removal.
            let created = try await admin(
                client, "/_admin/scenarios", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "outcome": "cancel"}"#)
            let other = try #require(created.object["id"]?.numberValue.map { Int($0) })
            #expect(try await admin(client, "/_admin/scenarios/\(other)", method: .delete).status == .ok)
            let missing = try await admin(client, "/_admin/scenarios/\(other)", method: .delete)
            #expect(missing.status == .notFound && missing.message?.contains("No queued scenario \(other)") == true)
            let notNumber = try await admin(client, "/_admin/scenarios/abc", method: .delete)
            #expect(notNumber.status == .badRequest && notNumber.message?.contains("positive whole number") == true)
        }
    }

    @Test("the state exported as a download; a document imported in the console and through POST /_admin/import; a broken one refused")
    func exportAndImport() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let stranger = try await DialogBrowser(client: client).get("/_console/export")
            #expect(stranger.status == .unauthorized && !stranger.body.contains("\"apps\""))
            let (browser, csrf) = try await Self.signedIn(client)
            let export = try await browser.get("/_console/export")
            #expect(export.status == .ok && export.headers[.contentDisposition] == #"attachment; filename="limited-login-state.json""#)
            let document = try #require(try StrictJSONParser(maximumSize: 1 << 20).parse(Array(export.body.utf8)).objectValue)
            #expect(document["apps"]?.arrayValue?.isEmpty == false && document["signing_keys"] == nil)
            let withKeys = try await browser.get("/_console/export?include_keys=true")
            #expect(withKeys.body.contains("\"signing_keys\"") && withKeys.body.contains("PRIVATE KEY"))

            let imported = try await ConsoleTests.act(
                browser, "import-state", csrf: csrf,
                [
                    (
                        "document",
                        #"{"apps": [{"id": "7770009", "name": "Imported App"}], "users": [{"first_name": "Ivy", "last_name": "Import", "email": "ivy@example.com"}]}"#
                    )
                ])
            #expect(imported.status == .seeOther, "\(imported.body.prefix(300))")
            #expect(try await provider.store.app(id: "7770009")?.name == "Imported App")
            #expect(try await provider.store.user(idOrEmail: "ivy@example.com") != nil)

            let broken = try await ConsoleTests.act(browser, "import-state", csrf: csrf, [("document", #"{"apps": [{"id": "x1"}]}"#)])
            #expect(broken.status == .badRequest && broken.body.contains("The document cannot be imported"), "\(broken.body.prefix(400))")
            #expect(broken.body.contains(#"<details id="import-state" open>"#) && broken.body.contains("x1"), "kept to mend")
            let notJSON = try await ConsoleTests.act(browser, "import-state", csrf: csrf, [("document", "apps: 1")])
            #expect(notJSON.status == .badRequest && notJSON.body.contains("not valid JSON"))

            let api = try await admin(client, "/_admin/import", method: .post, json: #"{"apps": [{"id": "7770010", "name": "API Import"}]}"#)
            #expect(api.status == .ok && api.object["apps_added"] == .number(1))
            #expect(try await provider.store.app(id: "7770010") != nil)
            let twice = try await admin(client, "/_admin/import", method: .post, json: #"{"apps": [{"id": "7770010", "name": "API Import"}]}"#)
            #expect(twice.object["apps_added"] == .number(0), "what exists stays")
            let unknownKey = try await admin(client, "/_admin/import", method: .post, json: #"{"appz": []}"#)
            #expect(unknownKey.status == .badRequest && unknownKey.message?.contains("appz") == true)
        }
    }

    @Test("a token shown decoded with the verifier's verdict: a minted one valid, a defective one refused with why, a pasted one")
    func tokenView() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, csrf) = try await Self.signedIn(client)
            let minted = try await ConsoleTests.act(
                browser, "mint-token", csrf: csrf, [("app_id", TestFixtures.appID), ("user", TestFixtures.alice), ("nonce", "n-35")])
            #expect(minted.status == .ok)
            let verdict = try #require(HTMLForm.text(ofElementWithID: "token-verdict", in: minted.body))
            #expect(verdict.hasPrefix("Valid for app \(TestFixtures.appID): signed by this provider's key "), "\(verdict)")
            #expect(HTMLForm.text(ofElementWithID: "token-claims", in: minted.body)?.contains("n-35") == true)
            #expect(HTMLForm.text(ofElementWithID: "token-header", in: minted.body)?.contains("RS256") == true)
            #expect(minted.body.contains(#"data-copy="token-text""#))
            #expect(minted.body.contains(#"name="nonce" value="n-35""#), "the form keeps its values for the next minting")
            let token = try #require(ConsoleMintingTests.textarea("token-text", in: minted.body))

            let expired = try await ConsoleTests.act(
                browser, "mint-token", csrf: csrf, [("app_id", TestFixtures.appID), ("user", TestFixtures.alice), ("defect", "expired")])
            let refused = try #require(HTMLForm.text(ofElementWithID: "token-verdict", in: expired.body))
            #expect(refused.hasPrefix("Refused for app \(TestFixtures.appID): the token expired at "), "\(refused)")
            #expect(expired.body.contains(#"<option value="expired" selected>"#))

            let pasted = try await ConsoleTests.act(browser, "inspect-token", csrf: csrf, [("token", token), ("app_id", "999")])
            #expect(pasted.status == .ok)
            #expect(HTMLForm.text(ofElementWithID: "token-verdict", in: pasted.body)?.hasPrefix("Refused for app 999: ") == true)
            let byAudience = try await ConsoleTests.act(browser, "inspect-token", csrf: csrf, [("token", "  " + token + "\n")])
            #expect(HTMLForm.text(ofElementWithID: "token-verdict", in: byAudience.body)?.hasPrefix("Valid for app \(TestFixtures.appID)") == true)
            let garbage = try await ConsoleTests.act(browser, "inspect-token", csrf: csrf, [("token", "not.a-token")])
            #expect(garbage.status == .ok && garbage.body.contains("not a compact JWS: it has 2 parts, not 3"))
            let empty = try await ConsoleTests.act(browser, "inspect-token", csrf: csrf, [("token", " ")])
            #expect(empty.status == .badRequest && empty.body.contains("Paste an ID token to decode."))
            let forged = try await ConsoleTests.act(browser, "inspect-token", csrf: nil, [("token", token)])
            #expect(forged.status == .forbidden)
        }
    }

    @Test("every page carries a strict Content-Security-Policy (no inline script or style); the console's forms post to itself only")
    func contentSecurityPolicy() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, _) = try await Self.signedIn(client)
            let console = try await browser.get("/_console/users")
            let dialog = try await DialogBrowser(client: client).get(dialogPath())
            let home = try await DialogBrowser(client: client).get("/")
            for (name, page) in [("console", console), ("dialog", dialog), ("home", home)] {
                let policy = try #require(page.headers[HTTPField.Name("Content-Security-Policy")!], "\(name)")
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("style-src 'self'"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(name): \(policy)")
                #expect(!page.body.contains("<script>") && !page.body.contains(" style=") && !page.body.contains(" onclick="), "\(name)")
            }
            #expect(console.headers[HTTPField.Name("Content-Security-Policy")!]?.hasSuffix("form-action 'self'") == true)
            let script = try await client.execute(uri: PageScript.path, method: .get)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(String(buffer: script.body) == PageScript.source)
            #expect(dialog.body.contains(#"<script src="\#(PageScript.path)" defer></script>"#))
        }
    }
}
