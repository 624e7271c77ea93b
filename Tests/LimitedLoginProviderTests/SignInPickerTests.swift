import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #23 items 2 and 7: a password protects its user (only pickable users can be picked), and the
/// picker shows a page of users with a search, whatever the size of the directory.
@Suite("Sign-in: who can be picked, and the picker's size")
struct SignInPickerTests {
    static let dave = "100004"

    /// Dave has a password and was not marked pickable.
    static func addDave(_ provider: LimitedLoginProvider) async throws {
        try await FixtureLoader(store: provider.store).create(
            ProviderFixtures.User(
                id: dave, firstName: "Dave", lastName: "Stone", email: "dave@example.com", password: "dave-pass"
            ))
    }

    /// The user IDs the sign-in page offers to pick, in order.
    static func pickable(on page: Page) -> [String] {
        HTMLForm.forms(in: page.body).first { $0.id == "user-picker" }?.buttons.filter { $0.name == "user_id" }.map(\.value) ?? []
    }

    @Test("a user made with a password is not offered, and posting their ID is refused: only their password signs them in")
    func passwordProtects() async throws {
        try await withProvider { client, provider in
            try await Self.addDave(provider)
            #expect(try await provider.store.user(id: Self.dave)?.pickable == false)
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            #expect(Self.pickable(on: page) == [TestFixtures.alice, TestFixtures.bob, TestFixtures.carol])

            let picked = try await browser.signIn(as: Self.dave, on: page)
            #expect(picked.status == .forbidden)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: picked.body) == DialogController.notPickable)
            #expect(browser.cookies["ll_session"] == nil)
            let unknown = try await browser.signIn(as: "999999", on: picked)
            #expect(unknown.status == .forbidden)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: unknown.body) == DialogController.notOffered)

            let signedIn = try await browser.signIn(email: "dave@example.com", password: "dave-pass", on: unknown)
            #expect(signedIn.status == .seeOther)
            #expect(browser.cookies["ll_session"] != nil)
        }
    }

    @Test(
        "another app's sign-in page offers none of this app's test users, refuses their IDs, offers the people with a role on it, and a user added there is its own"
    )
    func pickerOffersTheAppsOwn() async throws {
        try await withProvider { client, provider in
            let teamB = "3000000000000003"
            try await provider.store.createApp(
                AppRecord(id: teamB, secret: "team-b-secret-0123456789", name: "Other team", redirectURIs: [TestFixtures.registeredRedirect]))
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath(appID: teamB))
            #expect(page.status == .ok)
            #expect(Self.pickable(on: page) == [])
            let picked = try await browser.signIn(as: TestFixtures.alice, on: page)
            #expect(picked.status == .forbidden)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: picked.body) == DialogController.notOffered)
            #expect(browser.cookies["ll_session"] == nil)

            try await provider.store.setRole(appID: teamB, userID: TestFixtures.bob, role: .developer)
            let withRole = try await browser.get(dialogPath(appID: teamB))
            #expect(Self.pickable(on: withRole) == [TestFixtures.bob])
            let signedIn = try await browser.signIn(as: TestFixtures.bob, on: withRole)
            #expect(signedIn.status == .seeOther)

            // Added on B's page: B's test user alone, not offered on A's.
            let fresh = DialogBrowser(client: client)
            let signInPage = try await fresh.get(dialogPath(appID: teamB))
            var form = FormParameters()
            form.append("csrf_token", try #require(signInPage.hiddenInput("csrf_token")))
            form.append("request", try #require(signInPage.hiddenInput("request")))
            form.append("new_user_name", "Erin Added")
            form.append("new_user_email", "erin.added@example.com")
            #expect(try await fresh.post(DialogController.signInPath, form: form).status == .seeOther)
            let erin = try #require(try await provider.store.user(idOrEmail: "erin.added@example.com"))
            #expect(try await provider.store.appsOfTestUser(erin.id) == [teamB])
            let onA = try await DialogBrowser(client: client).get(dialogPath())
            #expect(!Self.pickable(on: onA).contains(erin.id))
            #expect(Self.pickable(on: onA) == [TestFixtures.alice, TestFixtures.bob, TestFixtures.carol])
        }
    }

    @Test("a user without a password is pickable and cannot sign in with any password; one with a password is pickable when asked")
    func pickableFlag() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            func create(_ json: String) async throws -> JSONObject {
                let response = try await client.execute(
                    uri: "/_admin/users", method: .post,
                    headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/json"],
                    body: ByteBuffer(string: json)
                )
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue)
            }
            let erin = try await create(#"{"id":"200001","first_name":"Erin","last_name":"Free","email":"erin@example.com"}"#)
            #expect(erin["pickable"] == true)
            let fay = try await create(#"{"id":"200002","first_name":"Fay","last_name":"Kept","email":"fay@example.com","password":"fay-pass"}"#)
            #expect(fay["pickable"] == false)
            let gus = try await create(
                #"{"id":"200003","first_name":"Gus","last_name":"Open","email":"gus@example.com","password":"gus-pass","pickable":true}"#)
            #expect(gus["pickable"] == true)
            let nobody = try await client.execute(
                uri: "/_admin/users", method: .post,
                headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"first_name":"No","last_name":"Way","email":"no@example.com","pickable":false}"#)
            )
            #expect(nobody.status == .badRequest)
            #expect(
                String(buffer: nobody.body)
                    == #"{"error":{"message":"User no@example.com has no password and is not pickable, so nobody could sign in as them."}}"#)

            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            #expect(Self.pickable(on: page) == [TestFixtures.alice, TestFixtures.bob, TestFixtures.carol, "200001", "200003"])
            let noPassword = try await browser.signIn(email: "erin@example.com", password: "", on: page)
            #expect(noPassword.status == .unauthorized)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: noPassword.body) == DialogController.incorrectPassword)
            let guessed = try await browser.signIn(email: "erin@example.com", password: "password", on: noPassword)
            #expect(guessed.status == .unauthorized)
            let refused = try await browser.signIn(as: "200002", on: guessed)
            #expect(refused.status == .forbidden)
            let gusPicked = try await browser.signIn(as: "200003", on: refused)
            #expect(gusPicked.status == .seeOther)
            let consent = try await browser.get(try #require(gusPicked.location))
            #expect(consent.body.contains("Continue as Gus"))
        }
    }

    @Test("with the picker turned off the page has no picker or search, and a posted user ID is refused")
    func pickerOff() async throws {
        var configuration = TestFixtures.configuration()
        configuration.userPicker = false
        try await withProvider(configuration) { client, _ in
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            #expect(page.status == .ok)
            let formIDs = HTMLForm.forms(in: page.body).map(\.id)
            #expect(formIDs == ["password-form"])
            #expect(!page.body.contains("Log in as"))
            let picked = try await browser.signIn(as: TestFixtures.alice, on: page)
            #expect(picked.status == .forbidden)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: picked.body) == DialogController.pickerOff)
            #expect(browser.cookies["ll_session"] == nil)
            // "Add a test user" posted all the same: refused, and the page says why.
            var add = FormParameters()
            add.append("csrf_token", try #require(picked.hiddenInput("csrf_token")))
            add.append("request", try #require(picked.hiddenInput("request")))
            add.append("new_user_name", "New Person")
            let added = try await browser.post(DialogController.signInPath, form: add)
            #expect(added.status == .forbidden)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: added.body) == DialogController.pickerOff, "\(added.body.prefix(600))")
            #expect(browser.cookies["ll_session"] == nil)
            let searched = try await browser.get(
                DialogController.signInPath + "?request=" + FormParameters.encode(try #require(page.hiddenInput("request"))) + "&q=alice"
            )
            #expect(HTMLForm.forms(in: searched.body).map(\.id) == ["password-form"])
            let password = try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: added)
            #expect(password.status == .seeOther)
        }
    }

    @Test("752 pickable users: the page lists 20 and stays small; the search finds the others by name, email or ID")
    func largeDirectory() async throws {
        try await withProvider { client, provider in
            for index in 0..<752 {
                let number = String(format: "%03d", index)
                try await provider.store.createUser(
                    TestUserRecord(
                        id: "3\(number)", firstName: "Test", lastName: "Person\(number)", email: "person\(number)@example.com", pickable: true
                    ), passwordHash: nil)
                try await provider.store.addTestUser("3\(number)", toApps: [TestFixtures.appID])
            }
            try await Self.addDave(provider)
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            #expect(page.status == .ok)
            let listed = Self.pickable(on: page)
            #expect(listed.count == DialogController.pickerSize)
            #expect(listed.prefix(3) == [TestFixtures.alice, TestFixtures.bob, TestFixtures.carol])
            #expect(page.body.contains("id=\"more-users\""))
            #expect(page.body.utf8.count < 16 * 1024, "the page was \(page.body.utf8.count) bytes")

            let request = FormParameters.encode(try #require(page.hiddenInput("request")))
            func search(_ text: String) async throws -> Page {
                try await browser.get(DialogController.signInPath + "?request=" + request + "&q=" + FormParameters.encode(text))
            }
            let byName = try await search("person701")
            #expect(Self.pickable(on: byName) == ["3701"])
            #expect(byName.body.contains("value=\"person701\""), "the search is kept in its field")
            let byFullName = try await search("Test Person702")
            #expect(Self.pickable(on: byFullName) == ["3702"])
            let byEmail = try await search("PERSON703@example.com")
            #expect(Self.pickable(on: byEmail) == ["3703"])
            let byID = try await search("3704")
            #expect(Self.pickable(on: byID) == ["3704"])
            let wide = try await search("person7")
            #expect(Self.pickable(on: wide).count == 20 && wide.body.contains("id=\"more-users\""))
            let wildcard = try await search("%")
            #expect(Self.pickable(on: wildcard).isEmpty)
            #expect(wildcard.body.contains("id=\"user-search-empty\""))
            let notPickable = try await search("dave")
            #expect(Self.pickable(on: notPickable).isEmpty, "only pickable users are offered")

            let picked = try await browser.signIn(as: "3701", on: byName)
            #expect(picked.status == .seeOther)
            let consent = try await browser.get(try #require(picked.location))
            #expect(consent.body.contains("Logged in as <strong id=\"user-name\">Test Person701</strong>"))
        }
    }

    @Test("the search answers a bad request with the error page, and a signed-in browser goes back to the dialog")
    func searchEdges() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let noRequest = try await browser.get(DialogController.signInPath + "?q=alice")
            #expect(noRequest.status == .badRequest)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: noRequest.body) == "The request has no client_id (the app ID).")
            let doubled = try await browser.get(DialogController.signInPath + "?q=a&q=b")
            #expect(doubled.status == .badRequest)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: doubled.body)?.hasPrefix("The search cannot be read:") == true)

            let page = try await browser.get(dialogPath())
            let request = try #require(page.hiddenInput("request"))
            let long = try await browser.get(
                DialogController.signInPath + "?request=" + FormParameters.encode(request) + "&q=" + String(repeating: "x", count: 500)
            )
            #expect(long.status == .ok)
            #expect(long.body.contains("value=\"" + String(repeating: "x", count: DialogController.maximumSearchLength) + "\""))
            _ = try await browser.signIn(as: TestFixtures.alice, on: page)
            let signedIn = try await browser.get(DialogController.signInPath + "?request=" + FormParameters.encode(request) + "&q=bob")
            #expect(signedIn.status == .found)
            #expect(signedIn.location == "/dialog/oauth?" + request)
        }
    }

    @Test("'Add a test user' is limited per address: past the limit, 429 with Retry-After on the form, and nobody is made (issue #56)")
    func addingIsLimited() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.addedUsersPerHour = 2
        try await withProvider(configuration) { client, provider in
            func add(_ name: String, _ email: String) async throws -> Page {
                let browser = DialogBrowser(client: client)
                let page = try await browser.get(dialogPath())
                var form = FormParameters()
                form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
                form.append("request", try #require(page.hiddenInput("request")))
                form.append("new_user_name", name)
                form.append("new_user_email", email)
                return try await browser.post(DialogController.signInPath, form: form)
            }
            #expect(try await add("First Added", "first.added@example.com").status == .seeOther)
            #expect(try await add("Second Added", "second.added@example.com").status == .seeOther)
            let third = try await add("Third Added", "third.added@example.com")
            #expect(third.status == .tooManyRequests)
            let retryAfter = try #require(third.headers[.retryAfter].flatMap { Int($0) })
            #expect((3500...3600).contains(retryAfter), "\(retryAfter)")
            #expect(third.body.contains("Too many test users were added from this address. Try again in 60 minutes, or pick one."))
            #expect(third.body.contains("Third Added"), "what was typed is kept in the form")
            #expect(try await provider.store.user(idOrEmail: "third.added@example.com") == nil)
            #expect(try await provider.store.user(idOrEmail: "second.added@example.com") != nil)
        }
    }
}
