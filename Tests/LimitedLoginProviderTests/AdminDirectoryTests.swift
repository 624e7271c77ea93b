import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

private func call(
    _ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, token: String? = KeyRotationAndAdminTests.adminToken,
    json: String? = nil
) async throws -> (HTTPResponse.Status, JSONObject) {
    var headers: HTTPFields = [:]
    if let token { headers[.authorization] = "Bearer \(token)" }
    if json != nil { headers[.contentType] = "application/json" }
    let response = try await client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    let object = try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue)
    return (response.status, object)
}

private func message(_ object: JSONObject) -> String? { object["error"]?.objectValue?["message"]?.stringValue }

@Suite("Admin API: apps, users, friendships, reset")
struct AdminDirectoryTests {
    @Test("apps: create, refuse duplicates and bad bodies, log in to it, move it to another business, delete it")
    func apps() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            let created = try await call(
                client, "/_admin/apps", method: .post, json: #"{"id":"5555","name":"Admin App","secret":"s5","business_id":"77"}"#)
            #expect(created.0 == .created)
            #expect(created.1["id"] == "5555" && created.1["business_id"] == "77")
            let duplicate = try await call(client, "/_admin/apps", method: .post, json: #"{"id":"5555","name":"Again"}"#)
            #expect(duplicate.0 == .conflict && message(duplicate.1) == "An app with ID 5555 already exists.")
            let missing = try await call(client, "/_admin/apps", method: .post, json: #"{"id":"6666"}"#)
            #expect(missing.0 == .badRequest && message(missing.1) == "The body does not fit: missing \"name\".")
            let doubled = try await call(client, "/_admin/apps", method: .post, json: #"{"id":"6666","name":"A","name":"B"}"#)
            #expect(doubled.0 == .badRequest && message(doubled.1)?.hasPrefix("The body is not valid JSON:") == true)
            let letters = try await call(client, "/_admin/apps", method: .post, json: #"{"id":"abc","name":"A"}"#)
            #expect(message(letters.1) == "App ID \"abc\" must be digits.")
            let listed = try await call(client, "/_admin/apps")
            #expect(listed.1["apps"]?.arrayValue?.count == 3)

            // A new app has no test users: Alice is made one of its through the admin API (her apps, replaced).
            let listedUsers = try await call(client, "/_admin/users")
            let aliceBefore = listedUsers.1["users"]?.arrayValue?.first { $0.objectValue?["id"] == .string(TestFixtures.alice) }
            #expect(aliceBefore?.objectValue?["apps"] == .array([.string(TestFixtures.appID), .string(TestFixtures.otherAppID)]))
            let unknownApp = try await call(client, "/_admin/users/\(TestFixtures.alice)", method: .post, json: #"{"apps":["5555","7777"]}"#)
            #expect(unknownApp.0 == .badRequest)
            #expect(message(unknownApp.1) == "The app 7777 does not exist: a test user belongs to existing apps (give their IDs).")
            #expect(try await provider.store.appsOfTestUser(TestFixtures.alice) == [TestFixtures.appID, TestFixtures.otherAppID], "unchanged")
            let joined = try await call(
                client, "/_admin/users/\(TestFixtures.alice)", method: .post,
                json: #"{"apps":["1111111111","2222222222","5555"]}"#)
            #expect(joined.0 == .ok)
            #expect(joined.1["apps"] == .array(["1111111111", "2222222222", "5555"]))
            // One user at a time: PUT and DELETE /_admin/apps/{app}/test-users/{user}.
            #expect(try await call(client, "/_admin/apps/5555/test-users/bob@example.com", method: .put).0 == .ok)
            #expect(
                try await call(client, "/_admin/apps/5555/test-users").1["test_users"]
                    == .array([.string(TestFixtures.alice), .string(TestFixtures.bob)]))
            #expect(try await call(client, "/_admin/apps/5555/test-users/bob@example.com", method: .delete).0 == .ok)
            let notOne = try await call(client, "/_admin/apps/5555/test-users/bob@example.com", method: .delete)
            #expect(notOne.0 == .notFound && message(notOne.1) == "bob@example.com is not a test user of app 5555.")
            let noApp = try await call(client, "/_admin/apps/7777/test-users/bob@example.com", method: .put)
            #expect(noApp.0 == .notFound && message(noApp.1) == "No app with ID 7777.")
            #expect(try await provider.store.appsOfTestUser(TestFixtures.bob) == [TestFixtures.appID, TestFixtures.otherAppID])

            let page = try await DialogBrowser(client: client).logIn(
                dialogPath(appID: "5555", redirectURI: "http://127.0.0.1:9/cb", limited: false, responseType: "token"), as: TestFixtures.alice
            )
            #expect(try page.redirectParameters().single("access_token") != nil)
            let asid = try await provider.store.appScopedID(appID: "5555", userID: TestFixtures.alice)
            func tokenForBusiness() async throws -> String? {
                let response = try await client.execute(uri: "/v21.0/\(asid)?fields=token_for_business&access_token=5555%7Cs5", method: .get)
                return try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue?["token_for_business"]?.stringValue
            }
            let before = try #require(try await tokenForBusiness())
            let moved = try await call(client, "/_admin/apps/5555/business", method: .post, json: #"{"business_id":"88"}"#)
            #expect(moved.0 == .ok && moved.1["business_id"] == "88")
            let after = try #require(try await tokenForBusiness())
            #expect(before != after, "token_for_business changes when the app moves")
            // An empty business ID is no business (as the console's empty field is), not a business named "".
            let emptied = try await call(client, "/_admin/apps/5555/business", method: .post, json: #"{"business_id":""}"#)
            #expect(emptied.0 == .ok && emptied.1["business_id"] == nil, "\(emptied.1)")
            let none = try await client.execute(uri: "/v21.0/\(asid)?fields=token_for_business&access_token=5555%7Cs5", method: .get)
            #expect(String(buffer: none.body).contains("(#100) The app 5555 is not associated with a business."), "\(String(buffer: none.body))")

            let deleted = try await call(client, "/_admin/apps/5555", method: .delete)
            #expect(deleted.1.dictionary == ["success": true])
            let gone = try await call(client, "/_admin/apps/5555", method: .delete)
            #expect(gone.0 == .notFound && message(gone.1) == "No app with ID 5555.")
            let dialog = try await DialogBrowser(client: client).get(dialogPath(appID: "5555", redirectURI: "http://127.0.0.1:9/cb"))
            #expect(dialog.status == .notFound)
        }
    }

    @Test("users and friendships: create with friends, log in, unfriend, delete; reset seeds the demo data again, or empties the store")
    func usersAndFriends() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            let created = try await call(
                client, "/_admin/users", method: .post,
                json: """
                    {"id":"200001","first_name":"Erin","last_name":"New","email":"erin@example.com","password":"pw","pickable":true,"friends":["\(TestFixtures.alice)"]}
                    """)
            #expect(created.0 == .created)
            #expect(created.1["friends"] == .array([.string(TestFixtures.alice)]))
            let duplicate = try await call(
                client, "/_admin/users", method: .post, json: #"{"first_name":"E","last_name":"N","email":"ERIN@example.com","password":"pw"}"#)
            #expect(duplicate.0 == .conflict)
            let unknownFriend = try await call(
                client, "/_admin/users", method: .post,
                json: #"{"first_name":"F","last_name":"G","email":"f@example.com","password":"pw","friends":["nobody"]}"#)
            #expect(message(unknownFriend.1) == "The friend nobody is not a test user (give an ID or an email).")
            // An ID the console's links and forms could not carry as it is (a query's & and =, quotes, spaces).
            for id in ["241982108343574&", "a&b=<x>\\\" y", "", String(repeating: "7", count: 201)] {
                let badID = try await call(
                    client, "/_admin/users", method: .post,
                    json: #"{"id":"\#(id)","first_name":"M","last_name":"M","email":"m@example.com","pickable":true}"#)
                #expect(badID.0 == .badRequest, "\(id)")
                #expect(message(badID.1)?.contains("a user ID is 1 to 200 letters, digits, _, -, . and @") == true, "\(badID.1)")
            }

            // Erin and Alice install with user_friends: each sees the other.
            for user in ["200001", TestFixtures.alice] {
                _ = try await DialogBrowser(client: client).logIn(dialogPath(scope: "public_profile,user_friends"), as: user)
            }
            let erinASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: "200001")
            #expect(try await provider.store.visibleFriendASIDs(userID: TestFixtures.alice, appID: TestFixtures.appID).contains(erinASID))
            let unfriended = try await call(
                client, "/_admin/friendships", method: .delete, json: #"{"user_id":"200001","friend_id":"\#(TestFixtures.alice)"}"#)
            #expect(unfriended.0 == .ok)
            #expect(try await !provider.store.visibleFriendASIDs(userID: TestFixtures.alice, appID: TestFixtures.appID).contains(erinASID))
            let refriended = try await call(
                client, "/_admin/friendships", method: .post, json: #"{"user_id":"200001","friend_id":"\#(TestFixtures.alice)"}"#)
            #expect(refriended.0 == .ok)
            let selfFriend = try await call(client, "/_admin/friendships", method: .post, json: #"{"user_id":"200001","friend_id":"200001"}"#)
            #expect(message(selfFriend.1) == "A test user cannot be their own friend.")

            #expect(try await call(client, "/_admin/users/200001", method: .delete).0 == .ok)
            #expect(try await provider.store.visibleFriendASIDs(userID: TestFixtures.alice, appID: TestFixtures.appID) == [])
            #expect(try await call(client, "/_admin/users/200001", method: .delete).0 == .notFound)

            // A reset seeds the demo data again (the first-start state); {"empty": true} leaves nothing.
            let reseeded = try await call(client, "/_admin/reset", method: .post)
            #expect(reseeded.0 == .ok && reseeded.1["seeded_demo_data"] == true)
            #expect(try await call(client, "/_admin/apps").1["apps"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } == ["Demo App"])
            #expect(try await call(client, "/_admin/users").1["users"]?.arrayValue?.count == 3)
            let emptied = try await call(client, "/_admin/reset", method: .post, json: #"{"empty":true}"#)
            #expect(emptied.0 == .ok && emptied.1["seeded_demo_data"] == false)
            #expect(try await call(client, "/_admin/apps").1["apps"] == .array([]))
            #expect(try await call(client, "/_admin/users").1["users"] == .array([]))
            let badEmpty = try await call(client, "/_admin/reset", method: .post, json: #"{"empty":"yes"}"#)
            #expect(badEmpty.0 == .badRequest && message(badEmpty.1) == "\"empty\" must be true or false.")
            #expect(try await keyIDsPublished(client) == 1, "keys survive a reset")
        }
    }

    @Test("every directory call without or with a wrong admin token is refused and changes nothing")
    func guarded() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            let calls: [(String, HTTPRequest.Method, String?)] = [
                ("/_admin/apps", .get, nil), ("/_admin/apps", .post, #"{"id":"7","name":"X"}"#), ("/_admin/apps/\(TestFixtures.appID)", .delete, nil),
                ("/_admin/apps/\(TestFixtures.appID)/business", .post, #"{"business_id":null}"#), ("/_admin/users", .get, nil),
                ("/_admin/users", .post, #"{"first_name":"A","last_name":"B","email":"x@example.com","password":"p"}"#),
                ("/_admin/users/\(TestFixtures.alice)", .delete, nil),
                ("/_admin/friendships", .post, #"{"user_id":"\#(TestFixtures.alice)","friend_id":"\#(TestFixtures.bob)"}"#),
                ("/_admin/friendships", .delete, #"{"user_id":"\#(TestFixtures.alice)","friend_id":"\#(TestFixtures.bob)"}"#),
                ("/_admin/reset", .post, nil),
            ]
            for (path, method, json) in calls {
                let none = try await call(client, path, method: method, token: nil, json: json)
                #expect(none.0 == .unauthorized, "\(method) \(path)")
                let wrong = try await call(client, path, method: method, token: "wrong", json: json)
                #expect(wrong.0 == .forbidden, "\(method) \(path)")
            }
            #expect(try await provider.store.apps().count == 2)
            #expect(try await provider.store.users().count == 3)
            #expect(try await provider.store.friendIDs(of: TestFixtures.alice) == [TestFixtures.bob, TestFixtures.carol])
            #expect(try await provider.store.app(id: TestFixtures.appID)?.businessID == "77")
        }
    }
}

private func keyIDsPublished(_ client: any TestClientProtocol) async throws -> Int {
    let response = try await client.execute(uri: "/.well-known/oauth/openid/jwks", method: .get)
    return try JSONWebKeySet(parsing: Array(String(buffer: response.body).utf8)).keyIDs.count
}
