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

    static let teamB = "3000000000000003"
    static let teamBToken = "\(teamB)%7Cteam-b-secret-0123456789"

    @Test(
        "apps own their test users: another app's token lists none of them, and cannot change, delete or befriend them; nothing changes (issue #59)"
    )
    func otherAppsTokenIsolated() async throws {
        try await withProvider { client, provider in
            try await provider.store.createApp(AppRecord(id: Self.teamB, secret: "team-b-secret-0123456789", name: "Other team"))
            let listed = try await graph(client, "/v21.0/\(Self.teamB)/accounts/test-users?access_token=\(Self.teamBToken)")
            #expect(listed.status == .ok && listed.object["data"] == .array([]), "\(listed.object)")

            // Alice is app A's test user (and an admin of nothing here): her ID in A and in B are both out of B's reach.
            let inA = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let inB = try await provider.store.appScopedID(appID: Self.teamB, userID: TestFixtures.alice)
            let before = try await provider.store.passwordHash(userID: TestFixtures.alice)
            for id in [inA, inB] {
                let changed = try await call(client, "/v21.0/\(id)", .post, form: "password=taken-over&access_token=\(Self.teamBToken)")
                #expect(changed.status == .badRequest && changed.error?["code"] == 100 && changed.error?["error_subcode"] == 33, "\(changed.object)")
                let deleted = try await call(client, "/v21.0/\(id)", .delete, form: "access_token=\(Self.teamBToken)")
                #expect(deleted.error?["code"] == 100 && deleted.error?["error_subcode"] == 33)
                #expect(
                    deleted.error?["message"]?.stringValue?.hasPrefix("Unsupported delete request. Object with ID '\(id)' does not exist") == true)
            }
            #expect(try await provider.store.user(id: TestFixtures.alice) != nil, "not deleted")
            #expect(try await provider.store.passwordHash(userID: TestFixtures.alice) == before, "the password is hers still")
            let removed = try await call(
                client, "/v21.0/\(Self.teamB)/accounts/test-users?uid=\(inB)", .delete, form: "access_token=\(Self.teamBToken)")
            #expect(removed.error?["error_subcode"] == 33)

            // B's own test user is B's alone: A's token cannot reach it either.
            let made = try await call(client, "/v21.0/\(Self.teamB)/accounts/test-users", .post, form: "access_token=\(Self.teamBToken)")
            let madeID = try #require(made.object["id"]?.stringValue)
            let owner = try #require(try await provider.store.owner(ofAppScopedID: madeID))
            #expect(try await provider.store.appsOfTestUser(owner.userID) == [Self.teamB])
            let madeInA = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: owner.userID)
            let fromA = try await call(client, "/v21.0/\(madeInA)", .delete, form: "access_token=\(Self.appToken)")
            #expect(fromA.error?["error_subcode"] == 33)
            let listA = try await graph(client, "/v21.0/\(TestFixtures.appID)/accounts/test-users?access_token=\(Self.appToken)")
            #expect(!(listA.object["data"]?.arrayValue ?? []).contains { $0.objectValue?["id"]?.stringValue == madeInA })
        }
    }

    @Test("a test user is added to another app with the owner app's token, taken off it again, and is never taken off its last app")
    func addAndRemove() async throws {
        try await withProvider { client, provider in
            try await provider.store.createApp(AppRecord(id: Self.teamB, secret: "team-b-secret-0123456789", name: "Other team"))
            let path = "/v21.0/\(Self.teamB)/accounts/test-users"
            let inA = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.carol)

            let noOwner = try await call(client, path, .post, form: "uid=\(inA)&access_token=\(Self.teamBToken)")
            #expect(noOwner.error?["code"] == 100)
            #expect(noOwner.error?["message"]?.stringValue?.contains("owner_access_token") == true)
            let wrongOwner = try await call(
                client, path, .post, form: "uid=\(inA)&owner_access_token=\(TestFixtures.appID)%7Cnot-the-secret&access_token=\(Self.teamBToken)")
            #expect(wrongOwner.status == .unauthorized && wrongOwner.error?["code"] == 190)
            // B cannot add A's user by naming itself the owner.
            let selfOwned = try await call(
                client, path, .post, form: "uid=\(inA)&owner_access_token=\(Self.teamBToken)&access_token=\(Self.teamBToken)")
            #expect(selfOwned.error?["error_subcode"] == 33)
            #expect(try await provider.store.appsOfTestUser(TestFixtures.carol) == [TestFixtures.appID, TestFixtures.otherAppID])

            let added = try await call(
                client, path, .post,
                form: "uid=\(inA)&owner_access_token=\(Self.appToken)&installed=true&permissions=email&access_token=\(Self.teamBToken)")
            #expect(added.status == .ok && added.object["success"] == true, "\(added.object)")
            let inB = try await provider.store.appScopedID(appID: Self.teamB, userID: TestFixtures.carol)
            #expect(added.object["id"] == .string(inB))
            let token = try #require(added.object["access_token"]?.stringValue)
            #expect(try await graph(client, "/v21.0/me?access_token=\(token)").object["id"] == .string(inB))
            let listed = try await graph(client, "\(path)?access_token=\(Self.teamBToken)")
            #expect((listed.object["data"]?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue } == [inB])
            let again = try await call(client, path, .post, form: "uid=\(inA)&owner_access_token=\(Self.appToken)&access_token=\(Self.teamBToken)")
            #expect(again.error?["message"] == .string("(#100) The test user \(inA) is already a test user of app \(Self.teamB)."))

            // B may not delete a user A shares with it: it takes the user off itself instead.
            let deleted = try await call(client, "/v21.0/\(inB)", .delete, form: "access_token=\(Self.teamBToken)")
            #expect(deleted.status == .badRequest && deleted.error?["code"] == 2903, "\(deleted.object)")
            #expect(try await provider.store.user(id: TestFixtures.carol) != nil, "not deleted")

            let removed = try await call(client, "\(path)?uid=\(inB)", .delete, form: "access_token=\(Self.teamBToken)")
            #expect(removed.object == ["success": true])
            #expect(try await provider.store.appsOfTestUser(TestFixtures.carol) == [TestFixtures.appID, TestFixtures.otherAppID])
            #expect(try await graph(client, "\(path)?access_token=\(Self.teamBToken)").object["data"] == .array([]))

            // A user of one app alone is deleted, not taken off it.
            let made = try await call(client, path, .post, form: "access_token=\(Self.teamBToken)")
            let madeID = try #require(made.object["id"]?.stringValue)
            let last = try await call(client, "\(path)?uid=\(madeID)", .delete, form: "access_token=\(Self.teamBToken)")
            #expect(
                last.error?["message"]
                    == .string("(#100) The test user \(madeID) belongs to this app alone: delete them with DELETE /{test-user-id} instead."))
            let madeOwner = try #require(try await provider.store.owner(ofAppScopedID: madeID))
            #expect(try await provider.store.user(id: madeOwner.userID) != nil)
        }
    }
}
