import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// The Graph API's test-user calls (issue #33): create, list, change, delete test users with the app's token,
/// and friend connections with the people's own tokens; each refusal in the real error shape.
@Suite("Graph API: test users")
struct GraphTestUsersTests {
    static let appToken = "\(TestFixtures.appID)%7C\(TestFixtures.appSecret)"

    /// A Graph call with a form body, as the real API's clients send POST parameters.
    func call(_ client: any TestClientProtocol, _ path: String, _ method: HTTPRequest.Method, form: String = "") async throws -> GraphReply {
        let response = try await client.execute(
            uri: path, method: method, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: form))
        let value = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8))
        return GraphReply(
            status: response.status, headers: response.headers, object: try #require(value.objectValue, "\(String(buffer: response.body))"))
    }

    @Test("a test user made installed with permissions can call the Graph API with the token returned, and sign in with the password")
    func createInstalled() async throws {
        try await withProvider { client, provider in
            let made = try await call(
                client, "/v21.0/\(TestFixtures.appID)/accounts/test-users", .post,
                form: "installed=true&permissions=email,user_friends&name=Dana%20Tester&access_token=\(Self.appToken)")
            #expect(made.status == .ok, "\(made.object)")
            let id = try #require(made.object["id"]?.stringValue)
            let token = try #require(made.object["access_token"]?.stringValue)
            let email = try #require(made.object["email"]?.stringValue)
            let password = try #require(made.object["password"]?.stringValue)
            #expect(email.hasPrefix("danatester_") && email.hasSuffix("@tfbnw.net"), "\(email)")
            #expect(made.object["login_url"] == .string("http://provider.test/"))

            let me = try await graph(client, "/v21.0/me?fields=id,name,email&access_token=\(token)")
            #expect(me.object["id"] == .string(id) && me.object["name"] == "Dana Tester" && me.object["email"] == .string(email))
            let permissions = try await graph(client, "/v21.0/me/permissions?access_token=\(token)")
            let granted = (permissions.object["data"]?.arrayValue ?? []).compactMap { $0.objectValue?["permission"]?.stringValue }
            #expect(Set(granted) == ["public_profile", "email", "user_friends"])
            let owner = try #require(try await provider.store.owner(ofAppScopedID: id))
            #expect(owner.appID == TestFixtures.appID)

            // The password signs in on the dialog's page.
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(
                dialogPath(appID: TestFixtures.appID, redirectURI: TestFixtures.registeredRedirect, scope: "public_profile", limited: true))
            let signedIn = try await browser.signIn(email: email, password: password, on: page)
            #expect(signedIn.status == .seeOther, "\(signedIn.body.prefix(300))")
        }
    }

    @Test("the list names every test user with the app's IDs, and a token for those who have the app installed")
    func list() async throws {
        try await withProvider { client, provider in
            let outsider = try await call(
                client, "/v21.0/\(TestFixtures.appID)/accounts/test-users", .post, form: "installed=false&access_token=\(Self.appToken)")
            #expect(outsider.object["access_token"] == nil, "not installed: no token")
            let insider = try await call(client, "/v21.0/\(TestFixtures.appID)/accounts/test-users", .post, form: "access_token=\(Self.appToken)")
            let listed = try await graph(client, "/v21.0/\(TestFixtures.appID)/accounts/test-users?access_token=\(Self.appToken)")
            #expect(listed.status == .ok)
            let entries = (listed.object["data"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(entries.count == (try await provider.store.users()).count)
            let byID = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry["id"]?.stringValue.map { ($0, entry) } })
            let outsiderID = try #require(outsider.object["id"]?.stringValue)
            let insiderID = try #require(insider.object["id"]?.stringValue)
            #expect(byID[outsiderID] != nil && byID[outsiderID]?["access_token"] == nil)
            let token = try #require(byID[insiderID]?["access_token"]?.stringValue)
            #expect(try await graph(client, "/v21.0/me?access_token=\(token)").object["id"] == insider.object["id"])
        }
    }

    @Test("a test user's name and password are changed, friends are made with their own tokens, and the user is deleted")
    func changeBefriendDelete() async throws {
        try await withProvider { client, provider in
            let path = "/v21.0/\(TestFixtures.appID)/accounts/test-users"
            let first = try await call(client, path, .post, form: "permissions=user_friends&access_token=\(Self.appToken)")
            let second = try await call(client, path, .post, form: "permissions=user_friends&access_token=\(Self.appToken)")
            let (firstID, secondID) = (try #require(first.object["id"]?.stringValue), try #require(second.object["id"]?.stringValue))
            let (firstToken, secondToken) = (
                try #require(first.object["access_token"]?.stringValue), try #require(second.object["access_token"]?.stringValue)
            )

            let renamed = try await call(
                client, "/v21.0/\(firstID)", .post, form: "name=Erin%20Q%20Example&password=new-pass&access_token=\(Self.appToken)")
            #expect(renamed.object == ["success": true])
            let owner = try #require(try await provider.store.owner(ofAppScopedID: firstID))
            let stored = try #require(try await provider.store.user(id: owner.userID))
            #expect(stored.firstName == "Erin" && stored.lastName == "Q Example")

            #expect(
                try await call(client, "/v21.0/\(firstID)/friends/\(secondID)", .post, form: "access_token=\(firstToken)").object == ["success": true]
            )
            #expect(
                try await call(client, "/v21.0/\(secondID)/friends/\(firstID)", .post, form: "access_token=\(secondToken)").object == [
                    "success": true
                ])
            let friends = try await graph(client, "/v21.0/me/friends?access_token=\(firstToken)")
            #expect(friends.object["data"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [secondID])

            #expect(try await call(client, "/v21.0/\(secondID)", .delete, form: "access_token=\(Self.appToken)").object == ["success": true])
            let gone = try await graph(client, "/v21.0/\(secondID)?access_token=\(Self.appToken)")
            #expect(gone.error?["code"] == 100 && gone.error?["error_subcode"] == 33)
            let again = try await call(client, "/v21.0/\(secondID)", .delete, form: "access_token=\(Self.appToken)")
            #expect(again.status == .badRequest && again.error?["code"] == 100 && again.error?["error_subcode"] == 33)
            #expect(
                again.error?["message"]?.stringValue?.hasPrefix("Unsupported delete request. Object with ID '\(secondID)' does not exist") == true)
        }
    }

    @Test(
        "refused: a person's token where the app's is needed, another app's users, an unknown permission, a bad flag, a friend request made with the app's token, a wrong secret"
    )
    func refusals() async throws {
        try await withProvider { client, _ in
            let person = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let path = "/v21.0/\(TestFixtures.appID)/accounts/test-users"
            let withPersonToken = try await graph(client, "\(path)?access_token=\(person.access)")
            #expect(withPersonToken.status == .badRequest && withPersonToken.error?["code"] == 15)
            #expect(withPersonToken.error?["message"] == "(#15) This method must be called with an app access_token.")

            let otherApp = try await graph(client, "/v21.0/999999/accounts/test-users?access_token=\(Self.appToken)")
            #expect(otherApp.error?["code"] == 100 && otherApp.error?["error_subcode"] == 33)

            let badPermission = try await call(client, path, .post, form: "permissions=email,bogus&access_token=\(Self.appToken)")
            #expect(badPermission.error?["code"] == 100 && badPermission.error?["message"] == "(#100) Invalid permission: bogus.")
            let badFlag = try await call(client, path, .post, form: "installed=maybe&access_token=\(Self.appToken)")
            #expect(badFlag.error?["message"] == "(#100) installed must be a boolean, not \"maybe\".")

            let made = try await call(client, path, .post, form: "access_token=\(Self.appToken)")
            let id = try #require(made.object["id"]?.stringValue)
            let friendByApp = try await call(client, "/v21.0/\(id)/friends/\(id)", .post, form: "access_token=\(Self.appToken)")
            #expect(friendByApp.error?["code"] == 200)
            let madeToken = try #require(made.object["access_token"]?.stringValue)
            let selfFriend = try await call(client, "/v21.0/\(id)/friends/\(id)", .post, form: "access_token=\(madeToken)")
            #expect(selfFriend.error?["message"] == "(#100) A test user cannot be their own friend.")
            let nothingToChange = try await call(client, "/v21.0/\(id)", .post, form: "access_token=\(Self.appToken)")
            #expect(nothingToChange.error?["message"] == "(#100) Send name or password to change a test user.")

            let wrongSecret = try await graph(client, "\(path)?access_token=\(TestFixtures.appID)%7Cnot-the-secret")
            #expect(wrongSecret.status == .unauthorized && wrongSecret.error?["code"] == 190)
        }
    }
}
