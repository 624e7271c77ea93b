import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #20: the console at /_console (sign-in with the admin token, session cookie, CSRF-checked forms,
/// each form one admin API call) and the admin routes it added (grants, app edits, recent logins).
@Suite("Console and its admin routes")
struct ConsoleTests {
    /// Signs a browser in to the console; returns its first page, the overview.
    static func signIn(_ browser: DialogBrowser) async throws -> Page {
        var form = FormParameters()
        form.append("admin_token", KeyRotationAndAdminTests.adminToken)
        let signedIn = try await browser.post("/_console/signin", form: form)
        #expect(signedIn.status == .seeOther)
        let cookie = try #require(browser.setCookieHeaders.last { $0.hasPrefix("ll_console=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/_console"), "\(cookie)")
        let page = try await browser.get("/_console")
        #expect(page.status == .ok && page.body.contains(#"id="console-overview""#), "\(page.body.prefix(300))")
        return page
    }

    static func act(_ browser: DialogBrowser, _ action: String, csrf: String?, _ fields: [(String, String)] = []) async throws -> Page {
        var form = FormParameters()
        if let csrf { form.append("csrf", csrf) }
        for (name, value) in fields { form.append(name, value) }
        return try await browser.post("/_console/actions/\(action)", form: form)
    }

    @Test("without a console session the console shows its sign-in, and actions are refused with 401")
    func refusesWithoutSession() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let page = try await browser.get("/_console")
            #expect(page.status == .ok && page.body.contains(#"id="console-signin""#) && !page.body.contains("apps-table"))
            let action = try await Self.act(browser, "delete-app", csrf: "x", [("app_id", TestFixtures.appID)])
            #expect(action.status == .unauthorized && action.body.contains("Sign in to the console first"))
            #expect(try await provider.store.app(id: TestFixtures.appID) != nil, "nothing changed")

            // A wrong admin token, and a console cookie that was not made here, are both refused.
            var form = FormParameters()
            form.append("admin_token", "admin-wrong")
            let wrong = try await browser.post("/_console/signin", form: form)
            #expect(wrong.status == .unauthorized && wrong.body.contains("not this provider&#39;s admin token"))
            let forged = DialogBrowser(client: client)
            _ = try await forged.send("/_console", method: .get, body: nil)
            let planted = try await client.execute(
                uri: "/_console", method: .get, headers: [.cookie: "ll_console=" + Base64URL.encode(Array(repeating: 7, count: 58))]
            )
            #expect(String(buffer: planted.body).contains(#"id="console-signin""#))
        }
    }

    @Test("a form with a missing or foreign CSRF token is refused (403) and changes nothing")
    func refusesForgedForms() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let page = try await Self.signIn(browser)
            let csrf = try #require(page.hiddenInput("csrf"))

            let missing = try await Self.act(browser, "delete-app", csrf: nil, [("app_id", TestFixtures.appID)])
            #expect(missing.status == .forbidden && missing.body.contains("did not come from this console session"))
            // Another session's token (a second console sign-in) is not this session's.
            let other = DialogBrowser(client: client)
            let otherCSRF = try #require(try await Self.signIn(other).hiddenInput("csrf"))
            #expect(otherCSRF != csrf)
            let foreign = try await Self.act(browser, "delete-app", csrf: otherCSRF, [("app_id", TestFixtures.appID)])
            #expect(foreign.status == .forbidden)
            let altered = try await Self.act(
                browser, "delete-app", csrf: String(csrf.dropLast()) + (csrf.hasSuffix("A") ? "B" : "A"), [("app_id", TestFixtures.appID)])
            #expect(altered.status == .forbidden)
            #expect(try await provider.store.app(id: TestFixtures.appID) != nil, "nothing changed")

            // The right token works; signing out ends the session.
            let deleted = try await Self.act(browser, "delete-app", csrf: csrf, [("app_id", TestFixtures.appID)])
            #expect(deleted.status == .seeOther && deleted.location == "/_console/apps?done=delete-app")
            #expect(try await provider.store.app(id: TestFixtures.appID) == nil)
            let out = try await Self.act(browser, "x", csrf: nil)
            #expect(out.status == .forbidden)
            var form = FormParameters()
            form.append("csrf", csrf)
            let signedOut = try await browser.post("/_console/signout", form: form)
            #expect(signedOut.status == .seeOther)
            #expect(browser.setCookieHeaders.last?.hasPrefix("ll_console=;") == true)
        }
    }

    @Test("console actions are the admin API's: same validation messages, and the change is visible through /_admin")
    func actionsAreAdminCalls() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let csrf = try #require(try await Self.signIn(browser).hiddenInput("csrf"))

            let bad = try await Self.act(browser, "create-app", csrf: csrf, [("name", "Bad"), ("id", "abc")])
            #expect(bad.status == .badRequest)
            #expect(bad.body.contains("App ID &quot;abc&quot; must be digits."), "\(bad.body)")
            let created = try await Self.act(
                browser, "create-app", csrf: csrf,
                [("name", "Console App"), ("id", "5550001"), ("redirect_uris", "https://c.example/cb\nhttps://c.example/cb2")])
            #expect(created.status == .seeOther)
            let apps = try await admin(client, "/_admin/apps")
            let app = try #require(apps.object["apps"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == "5550001" })
            #expect(app["redirect_uris"]?.arrayValue?.count == 2)
            let secret = try #require(app["secret"]?.stringValue)

            let edited = try await Self.act(
                browser, "edit-app", csrf: csrf,
                [("app_id", "5550001"), ("name", "Renamed"), ("redirect_uris", "https://c.example/only"), ("new_secret", "1")])
            #expect(edited.status == .seeOther)
            let after = try #require(
                try await admin(client, "/_admin/apps").object["apps"]?.arrayValue?.compactMap(\.objectValue).first {
                    $0["id"]?.stringValue == "5550001"
                })
            #expect(after["name"]?.stringValue == "Renamed")
            #expect(after["redirect_uris"]?.arrayValue?.compactMap(\.stringValue) == ["https://c.example/only"])
            #expect(after["secret"]?.stringValue != secret)
            let gaming = try await Self.act(browser, "edit-app", csrf: csrf, [("app_id", "5550001"), ("gaming_shown", "1"), ("gaming", "1")])
            #expect(gaming.status == .seeOther)
            #expect(try await provider.store.app(id: "5550001")?.isGaming == true)
            let notGaming = try await Self.act(browser, "edit-app", csrf: csrf, [("app_id", "5550001"), ("gaming_shown", "1")])
            #expect(notGaming.status == .seeOther)
            #expect(try await provider.store.app(id: "5550001")?.isGaming == false, "an unticked box turns it off")
            let badURI = try await Self.act(browser, "edit-app", csrf: csrf, [("app_id", "5550001"), ("redirect_uris", "javascript:alert(1)")])
            #expect(badURI.status == .badRequest)

            let generated = try await Self.act(browser, "generate-user", csrf: csrf)
            #expect(generated.status == .seeOther)
            let users = try #require(try await admin(client, "/_admin/users").object["users"]?.arrayValue)
            #expect(users.count == 4, "three fixture users and the generated one")
            let user = try await Self.act(
                browser, "create-user", csrf: csrf,
                [
                    ("first_name", "Zoe"), ("last_name", "Console"), ("email", "zoe@example.com"), ("birthday", "01/02/1990"),
                    ("gender", "female"), ("hometown", "Lisbon"), ("location", "Porto"), ("link", "https://example.com/zoe"), ("pickable", "1"),
                ])
            #expect(user.status == .seeOther)
            let zoe = try #require(
                try await admin(client, "/_admin/users").object["users"]?.arrayValue?.compactMap(\.objectValue).first {
                    $0["email"]?.stringValue == "zoe@example.com"
                })
            #expect(zoe["hometown"]?.objectValue?["name"]?.stringValue == "Lisbon" && zoe["birthday"]?.stringValue == "01/02/1990")
            let duplicate = try await Self.act(
                browser, "create-user", csrf: csrf, [("first_name", "Zoe"), ("last_name", "Again"), ("email", "zoe@example.com"), ("pickable", "1")])
            #expect(duplicate.status == .conflict && duplicate.body.contains("already exists"), "\(duplicate.status) \(duplicate.body)")

            let zoeID = try #require(zoe["id"]?.stringValue)
            let edited2 = try await Self.act(
                browser, "edit-user", csrf: csrf,
                [
                    ("user_id", zoeID), ("first_name", "Zoë"), ("last_name", "Console"), ("email", "zoe@example.com"),
                    ("birthday", "01/02/1991"), ("hometown", "Lisbon"), ("hometown_id", zoe["hometown"]?.objectValue?["id"]?.stringValue ?? ""),
                    ("pickable", "1"),
                ])
            #expect(edited2.status == .seeOther, "\(edited2.body.prefix(400))")
            let zoeAfter = try #require(try await provider.store.user(id: zoeID))
            #expect(zoeAfter.firstName == "Zoë" && zoeAfter.birthday == "01/02/1991" && zoeAfter.gender == nil && zoeAfter.location == nil)
            #expect(zoeAfter.hometown?.id == zoe["hometown"]?.objectValue?["id"]?.stringValue, "the hometown keeps its ID")
            let badEdit = try await Self.act(
                browser, "edit-user", csrf: csrf,
                [
                    ("user_id", zoeID), ("first_name", "Zoë"), ("last_name", "Console"), ("email", "alice@example.com"), ("pickable", "1"),
                ])
            #expect(badEdit.status == .conflict && badEdit.body.contains("Another test user has the email alice@example.com."))
            let friends = try await Self.act(browser, "add-friends", csrf: csrf, [("user_id", "zoe@example.com"), ("friend_id", TestFixtures.alice)])
            #expect(friends.status == .seeOther)
            let page = try await browser.get("/_console/friends?done=add-friends")
            #expect(!page.body.contains(#"id="error-message""#))
            #expect(page.body.contains("They are friends now."))
            #expect(page.body.contains("Zoë Console") && page.body.contains(#"id="friendships""#))

            let clock = try await Self.act(browser, "advance-clock", csrf: csrf, [("seconds", "3600")])
            #expect(clock.status == .seeOther)
            #expect(try await admin(client, "/_admin/clock").object["offset"] == .number(3600))
            let unknown = try await Self.act(browser, "drop-tables", csrf: csrf)
            #expect(unknown.status == .badRequest && unknown.body.contains("no action called drop-tables"))
        }
    }

    @Test("POST /_admin/users/{id} changes the given fields, keeps the password unless one is given, and refuses what a new user would be refused")
    func editUserThroughTheAdminAPI() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let path = "/_admin/users/\(TestFixtures.alice)"
            let changed = try await admin(client, path, method: .post, json: #"{"gender":"non-binary","age_range":{"min":21},"middle_name":null}"#)
            #expect(changed.status == .ok && changed.object["gender"]?.stringValue == "non-binary")
            let alice = try #require(try await provider.store.user(id: TestFixtures.alice))
            #expect(alice.ageRange?.min == 21 && alice.firstName == "Alice")
            let kept = try #require(try await provider.store.userWithPasswordHash(email: alice.email)?.1)
            #expect(PasswordHasher.verify("alice-pass", againstUserHash: kept), "the password is kept")
            _ = try await admin(client, path, method: .post, json: #"{"password":"new-pass"}"#)
            let renewed = try #require(try await provider.store.userWithPasswordHash(email: alice.email)?.1)
            #expect(PasswordHasher.verify("new-pass", againstUserHash: renewed) && !PasswordHasher.verify("alice-pass", againstUserHash: renewed))

            let unknown = try await admin(client, path, method: .post, json: #"{"id":"1"}"#)
            #expect(unknown.status == .badRequest && unknown.message?.hasPrefix("\"id\" cannot be changed here") == true)
            let badBirthday = try await admin(client, path, method: .post, json: #"{"birthday":"1990-01-01"}"#)
            #expect(badBirthday.status == .badRequest && badBirthday.message?.contains("use MM/DD/YYYY") == true)
            let noName = try await admin(client, path, method: .post, json: #"{"first_name":null}"#)
            #expect(noName.status == .badRequest && noName.message?.contains("first_name") == true, "\(noName.message ?? "")")
            let empty = try await admin(client, path, method: .post, json: "{}")
            #expect(empty.status == .badRequest && empty.message?.hasPrefix("Send the fields to change") == true)
            let nobody = try await admin(client, "/_admin/users/999", method: .post, json: #"{"gender":"x"}"#)
            #expect(nobody.status == .notFound)
        }
    }

    @Test("grants: listed, one permission revoked (the next login asks again), uninstall, data access expired")
    func grants() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let person = DialogBrowser(client: client)
            let first = try await person.logIn(dialogPath(scope: "openid,public_profile,email,user_friends"), as: TestFixtures.alice)
            #expect(first.status == .seeOther)
            let listed = try await admin(client, "/_admin/grants?user_id=\(TestFixtures.alice)")
            let grant = try #require(listed.object["grants"]?.arrayValue?.first?.objectValue)
            #expect(
                grant["granted"]?.arrayValue?.compactMap(\.stringValue)
                    == ["email", "openid", "public_profile", "user_friends"].filter { $0 != "openid" })
            #expect(try await admin(client, "/_admin/grants?user_id=nobody@example.com").status == .notFound)

            let browser = DialogBrowser(client: client)
            let csrf = try #require(try await ConsoleTests.signIn(browser).hiddenInput("csrf"))
            let publicProfile = try await Self.act(
                browser, "revoke-permission", csrf: csrf,
                [("app_id", TestFixtures.appID), ("user_id", TestFixtures.alice), ("permission", "public_profile")])
            #expect(publicProfile.status == .badRequest && publicProfile.body.contains("public_profile cannot be revoked alone"))
            let revoked = try await Self.act(
                browser, "revoke-permission", csrf: csrf, [("app_id", TestFixtures.appID), ("user_id", TestFixtures.alice), ("permission", "email")])
            #expect(revoked.status == .seeOther)
            let again = try await Self.act(
                browser, "revoke-permission", csrf: csrf, [("app_id", TestFixtures.appID), ("user_id", TestFixtures.alice), ("permission", "email")])
            #expect(again.status == .notFound && again.body.contains("has not granted email"))
            let stored = try #require(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice))
            #expect(!stored.granted.contains(.email) && !stored.declined.contains(.email) && stored.granted.contains(.userFriends))

            // The next login that asks for email shows the consent page again; one that does not, does not.
            let without = try await person.get(dialogPath(scope: "openid,public_profile,user_friends"))
            #expect(without.status == .found, "nothing new to decide: answered at once")
            let asking = try await person.get(dialogPath(scope: "openid,public_profile,email"))
            #expect(asking.status == .ok && asking.body.contains(#"id="consent-form""#))

            let expired = try await admin(client, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)/expire-data-access", method: .post)
            #expect(expired.status == .ok && expired.object["success"]?.boolValue == true)
            let uninstalled = try await Self.act(browser, "uninstall", csrf: csrf, [("app_id", TestFixtures.appID), ("user_id", TestFixtures.alice)])
            #expect(uninstalled.status == .seeOther)
            #expect(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice)?.installed == false)
            let twice = try await admin(client, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)", method: .delete)
            #expect(twice.status == .notFound && twice.message?.contains("has not installed") == true)
            let fresh = try await person.get(dialogPath())
            #expect(fresh.body.contains(#"id="consent-form""#), "after the uninstall, consent is asked afresh")
        }
    }

    @Test("recent logins list each login with its decoded claims and never a token")
    func recentLogins() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let person = DialogBrowser(client: client)
            let done = try await person.logIn(dialogPath(), as: TestFixtures.bob)
            let token = try #require(try done.redirectParameters().single("id_token"))
            let logins = try await admin(client, "/_admin/logins")
            let login = try #require(logins.object["logins"]?.arrayValue?.first?.objectValue)
            #expect(login["user_id"]?.stringValue == TestFixtures.bob && login["mode"]?.stringValue == "limited")
            #expect(login["id_token_claims"]?.objectValue?["nonce"]?.stringValue == "nonce-123")
            #expect(login["returned"]?.arrayValue?.compactMap(\.stringValue) == ["id_token", "user_token_nonce"])

            let browser = DialogBrowser(client: client)
            _ = try await ConsoleTests.signIn(browser)
            let page = try await browser.get("/_console/logins")
            #expect(page.body.contains(#"class="login""#) && page.body.contains("nonce-123"))
            #expect(page.body.contains("The last 50 logins this node completed"), "the page says how many it keeps")
            let signature = String(token.split(separator: ".")[2])
            #expect(!page.body.contains(signature) && !page.body.contains(token), "the console shows claims, not the token")
            #expect(!String(describing: logins.object).contains(signature))

            // A reset forgets them with everything else.
            #expect(try await admin(client, "/_admin/reset", method: .post).status == .ok)
            #expect(try await admin(client, "/_admin/logins").object["logins"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("the pages link one stylesheet, served with a content hash in its path and a year's cache")
    func stylesheet() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let home = try await client.execute(uri: "/", method: .get)
            let html = String(buffer: home.body)
            #expect(html.contains(#"<link rel="stylesheet" href="\#(Stylesheet.path)">"#))
            #expect(!html.contains("<style"), "no inline styles")
            #expect(Stylesheet.path.range(of: #"^/assets/site-[0-9a-f]{16}\.css$"#, options: .regularExpression) != nil)
            let css = try await client.execute(uri: Stylesheet.path, method: .get)
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(css.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(String(buffer: css.body) == Stylesheet.css)
            #expect(html.contains(#"href="/_console""#), "the home page links the console")
        }
    }
}

/// Issue #20: "Add a test user" on the sign-in page.
@Suite("Dialog: adding a test user on the sign-in page")
struct SignInAddUserTests {
    static func add(_ browser: DialogBrowser, on page: Page, name: String, email: String?) async throws -> Page {
        var form = FormParameters()
        form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
        form.append("request", try #require(page.hiddenInput("request")))
        form.append("new_user_name", name)
        if let email { form.append("new_user_email", email) }
        return try await browser.post(DialogController.signInPath, form: form)
    }

    @Test("a name and an email make a pickable user with a made-up profile, signed in at once")
    func addsAndSignsIn() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let signIn = try await browser.get(dialogPath(scope: "openid,public_profile,email,user_birthday"))
            #expect(signIn.body.contains(#"id="add-user-form""#))
            let added = try await Self.add(browser, on: signIn, name: "Nia Tester", email: "nia@example.com")
            #expect(added.status == .seeOther, "\(added.body.prefix(300))")
            let consent = try await browser.get(try #require(added.location))
            #expect(HTMLForm.text(ofElementWithID: "user-name", in: consent.body) == "Nia Tester")
            let done = try await browser.consent(on: consent)
            let verified = try await verifyIDToken(try #require(try done.redirectParameters().single("id_token")), provider: provider)
            #expect(verified.claims.email == "nia@example.com" && verified.claims.givenName == "Nia" && verified.claims.familyName == "Tester")
            #expect(verified.claims.userBirthday?.isEmpty == false, "a made-up birthday")
            let stored = try #require(try await provider.store.user(idOrEmail: "nia@example.com"))
            #expect(stored.pickable)
        }
    }

    @Test("an email that exists, an empty name, and a provider without the picker are refused with their reasons")
    func refusals() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            let taken = try await Self.add(browser, on: page, name: "Alice Again", email: "alice@example.com")
            #expect(taken.status == .conflict && taken.body.contains("exists already"))
            let page2 = try await browser.get(dialogPath())
            let empty = try await Self.add(browser, on: page2, name: "   ", email: nil)
            #expect(empty.status == .badRequest && empty.body.contains("Give the new test user"))
        }
        var configuration = TestFixtures.configuration()
        configuration.userPicker = false
        try await withProvider(configuration) { client, provider in
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            #expect(!page.body.contains(#"id="add-user-form""#))
            let refused = try await Self.add(browser, on: page, name: "Sneaky Person", email: "sneaky@example.com")
            #expect(refused.status == .forbidden)
            #expect(try await provider.store.user(idOrEmail: "sneaky@example.com") == nil)
        }
    }
}
