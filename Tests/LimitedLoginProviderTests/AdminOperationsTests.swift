import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// The admin operations called directly, as the `/_admin` routes and the console call them: typed requests
/// in, typed answers out, on a real store (SQLite), with no HTTP in between.
@Suite("Admin operations, called directly")
struct AdminOperationsTests {
    /// An edit read as `POST /_admin/users/{id}` reads its body.
    static func changes(_ body: JSONObject) throws(AdminError) -> TestUserChanges {
        try AdminJSONBody.decode(TestUserChanges.self, accepting: nil, bytes: JSONSerializer.serialize(.object(body)))
    }

    /// Runs `body` with the operations of a fresh provider, on its clock, as the organisation.
    func withOperations<Value: Sendable>(_ body: @Sendable (AdminOperations) async throws -> Value) async throws -> Value {
        try await withProvider(harnessConfiguration()) { _, provider in
            try await ProviderTime.$clock.withValue(provider.services.clock) { try await body(AdminOperations(services: provider.services)) }
        }
    }

    func mintRequest(_ body: JSONObject) throws(AdminError) -> MintRequest {
        try MintRequest(body, now: ProviderTime.now(), idTokenLifetime: TokenLifetimes().idToken)
    }

    @Test("Minting takes a typed request and answers the token, its claims and the grant")
    func mintsATypedRequest() async throws {
        try await withOperations { operations in
            let request = try mintRequest([
                "app_id": .string(TestFixtures.appID), "user": "alice@example.com", "permissions": ["email"], "raw_nonce": "raw-1",
            ])
            #expect(request.tracking == .limited && request.permissions == [.publicProfile, .email])
            let minted = try await operations.mintToken(request)
            #expect(minted.accessToken == nil && minted.defect == nil)
            #expect(minted.grantedScopes == ["email", "public_profile"])
            #expect(minted.idToken.claims["nonce"] == .string(Nonce.sha256Hex(ofRaw: "raw-1")))
            #expect(minted.idToken.claims["email"] == "alice@example.com")
            #expect(minted.idToken.token.split(separator: ".").count == 3)
            // The grant was recorded as a consent records it.
            let grants = try await operations.grants(user: "alice@example.com")
            #expect(grants.contains { $0.appID == TestFixtures.appID && $0.granted.contains(.email) })

            let classic = try await operations.mintToken(
                try mintRequest(["app_id": .string(TestFixtures.appID), "user": .string(TestFixtures.bob), "tracking": "enabled"]))
            #expect(classic.accessToken?.token.isEmpty == false)
            // The answer of POST /_admin/tokens, as the route encodes it: the access token's fields, and the
            // claims' times written as whole numbers (as the token itself has them).
            let encoded = try JSONEncoder().encode(classic)
            let answer = try StrictJSONParser().parse(Array(encoded)).objectValue ?? [:]
            #expect(answer["access_token"] == .string(classic.accessToken?.token ?? "-"))
            #expect(answer["expires_in"] == .number(Double(classic.accessToken?.expiresIn ?? -1)))
            #expect(answer["claims"]?.objectValue?["sub"] == classic.idToken.claims["sub"])
            let iat = try #require(classic.idToken.claims["iat"]?.numberValue)
            let text = String(decoding: encoded, as: UTF8.self)
            #expect(text.contains("\"iat\":\(Int64(iat)),") || text.contains("\"iat\":\(Int64(iat))}"))
        }
    }

    @Test("A minting request's faults are refused before anything is looked up, each naming its key")
    func mintRequestFaults() throws {
        let app: JSONValue = .string(TestFixtures.appID)
        let cases: [(JSONObject, String)] = [
            (["app_id": app, "user": "alice@example.com", "colour": "red"], "Unknown key \"colour\""),
            (["user": "alice@example.com"], "Give \"app_id\"."),
            (["app_id": app], "Give \"user\": a test user's ID or email"),
            (["app_id": app, "user": "a", "subject": "b"], "Give \"user\" or \"subject\", not both."),
            (["app_id": app, "subject": "has space"], "\"subject\" must be 1 to 64 letters"),
            (["app_id": app, "user": "a", "tracking": "sometimes"], "\"tracking\" must be \"limited\" or \"enabled\"."),
            (["app_id": app, "subject": "s-1", "tracking": "enabled"], "A \"subject\" without a stored user gets an ID token only"),
            (["app_id": app, "user": "a", "defect": "bent"], "Unknown defect \"bent\""),
            (["app_id": app, "user": "a", "permissions": [1]], "\"permissions\" must be a list of permission names."),
            (["app_id": app, "user": "a", "nonce": "n", "raw_nonce": "r"], "Give \"nonce\" or \"raw_nonce\", not both."),
            (["app_id": app, "user": "a", "ignore_development_mode": "yes"], "\"ignore_development_mode\" must be true or false."),
        ]
        for (body, message) in cases {
            let error = #expect(throws: AdminError.self) { try mintRequest(body) }
            #expect(error?.status == .badRequest)
            #expect(error?.message.hasPrefix(message) == true, "\(body): \(error?.message ?? "no error")")
        }
    }

    @Test("Minting for an unknown app or user answers 404; a scoped caller cannot mint for another team's app")
    func mintLookups() async throws {
        try await withOperations { operations in
            let noApp = await #expect(throws: AdminError.self) {
                try await operations.mintToken(try mintRequest(["app_id": "999", "user": "alice@example.com"]))
            }
            #expect(noApp == .notFound("No app with ID 999."))
            let noUser = await #expect(throws: AdminError.self) {
                try await operations.mintToken(try mintRequest(["app_id": .string(TestFixtures.appID), "user": "nobody@example.com"]))
            }
            #expect(noUser == .notFound("No test user nobody@example.com (give an ID or an email)."))
            let scoped = await #expect(throws: AdminError.self) {
                try await AdminCaller.$current.withValue(.credential(name: "team-b", apps: [TestFixtures.otherAppID])) {
                    try await operations.mintToken(try mintRequest(["app_id": .string(TestFixtures.appID), "user": "alice@example.com"]))
                }
            }
            #expect(scoped?.status == .forbidden && scoped?.message.contains("App \(TestFixtures.appID) is not this credential's.") == true)
        }
    }

    @Test("An edit replaces the named fields, removes the nulled ones and keeps the rest, the password among them")
    func editsTheNamedFields() async throws {
        try await withOperations { operations in
            let before = try #require(try await operations.store.userWithPasswordHash(email: "alice@example.com"))
            let edited = try await operations.editUser(
                "alice@example.com", changes: try Self.changes(["last_name": "Jones", "middle_name": nil, "gaming_name": "AJ"]))
            #expect(edited.record.lastName == "Jones" && edited.record.middleName == nil && edited.record.gamingName == "AJ")
            #expect(edited.record.firstName == "Alice" && edited.record.birthday == "04/22/1990" && edited.record.hometown?.name == "Paris")
            let after = try #require(try await operations.store.userWithPasswordHash(email: "alice@example.com"))
            #expect(after.1 == before.1)
            #expect(PasswordHasher.verify("alice-pass", againstUserHash: after.1))

            _ = try await operations.editUser(TestFixtures.alice, changes: try Self.changes(["password": "new-pass-1"]))
            let changed = try #require(try await operations.store.userWithPasswordHash(email: "alice@example.com"))
            #expect(
                PasswordHasher.verify("new-pass-1", againstUserHash: changed.1) && !PasswordHasher.verify("alice-pass", againstUserHash: changed.1))

            _ = try await operations.editUser(TestFixtures.alice, changes: try Self.changes(["password": nil]))
            #expect(try await operations.store.userWithPasswordHash(email: "alice@example.com")?.1 == nil)

            let apps = try await operations.editUser(
                TestFixtures.bob, changes: try Self.changes(["apps": .array([.string(TestFixtures.otherAppID)])]))
            #expect(apps.apps == [TestFixtures.otherAppID])
        }
    }

    @Test("A reset empties the store, or seeds the demo data again; the clock's and the reset's bodies are refused naming the key")
    func resetsAndReadsTheirBodies() async throws {
        try await withOperations { operations in
            _ = try await operations.createUser(ProviderFixtures.User(firstName: "Zed", lastName: "Added", email: "zed@example.com"))
            #expect(try await operations.resetState(empty: true) == false)
            let (users, apps) = (try await operations.users(), try await operations.apps())
            #expect(users.isEmpty && apps.isEmpty)
            #expect(try await operations.resetState(empty: false) == true)
            let seeded = try await operations.users().map(\.record.email)
            #expect(seeded.contains("alice@example.com") && !seeded.contains("zed@example.com"))
        }
        let clock = try AdminJSONBody.decode(
            ClockMoveRequest.self, accepting: ClockMoveRequest.keys, bytes: Array(#"{"advance":60,"force":true}"#.utf8))
        #expect(clock.move == .advance(seconds: 60) && clock.force)
        let misspelt = #expect(throws: AdminError.self) {
            try AdminJSONBody.decode(ClockMoveRequest.self, accepting: ClockMoveRequest.keys, bytes: Array(#"{"advanse":60}"#.utf8))
        }
        #expect(misspelt?.message.hasPrefix("Unknown key \"advanse\"; the accepted keys are: advance, force, reset, set.") == true)
        let empty = try AdminJSONBody.decode(ResetRequest.self, accepting: ResetRequest.keys, bytes: Array("{}".utf8))
        #expect(empty.empty == false)
        let notFlag = #expect(throws: AdminError.self) {
            try AdminJSONBody.decode(ResetRequest.self, accepting: ResetRequest.keys, bytes: Array(#"{"empty":"yes"}"#.utf8))
        }
        #expect(notFlag == .badRequest("\"empty\" must be true or false."))
    }

    @Test("An edit's faults: nothing named, a field that cannot change, a required field removed, a wrong type")
    func editFaults() throws {
        let cases: [(JSONObject, String)] = [
            ([:], "Send the fields to change: first_name, middle_name, last_name, email, password"),
            (["id": "1"], "\"id\" cannot be changed here; the fields are first_name,"),
            (["friends": []], "\"friends\" cannot be changed here;"),
            (["first_name": nil], "The body does not fit: missing \"first_name\"."),
            (["email": 5], "The body does not fit: wrong type at email."),
            (["hometown": ["id": "1", "name": 2]], "The body does not fit: wrong type at hometown.name."),
        ]
        for (changes, message) in cases {
            let error = #expect(throws: AdminError.self) { try Self.changes(changes) }
            #expect(error?.status == .badRequest)
            #expect(error?.message.hasPrefix(message) == true, "\(changes): \(error?.message ?? "no error")")
        }
        // The console's and the Graph API's edits, made in code, are refused the same way.
        let blank = ProviderFixtures.User(firstName: "", lastName: "", email: "")
        let none = #expect(throws: AdminError.self) { try TestUserChanges(setting: [], to: blank) }
        #expect(none?.message.hasPrefix("Send the fields to change: first_name, middle_name") == true)
        let id = #expect(throws: AdminError.self) { try TestUserChanges(setting: [.id], to: blank) }
        #expect(id?.message.hasPrefix("\"id\" cannot be changed here; the fields are first_name,") == true)
        let array = #expect(throws: AdminError.self) {
            try AdminJSONBody.decode(TestUserChanges.self, accepting: nil, bytes: Array("[1]".utf8))
        }
        #expect(array == .badRequest("The body must be a JSON object."))
    }

    @Test("An edit is checked as a new user is; an unknown user is 404")
    func editChecks() async throws {
        try await withOperations { operations in
            let taken = await #expect(throws: AdminError.self) {
                try await operations.editUser(TestFixtures.alice, changes: try Self.changes(["email": "bob@example.com"]))
            }
            #expect(taken == .conflict("Another test user has the email bob@example.com."))
            let missing = await #expect(throws: AdminError.self) {
                try await operations.editUser("nobody@example.com", changes: try Self.changes(["gender": "male"]))
            }
            #expect(missing == .notFound("No test user with ID or email nobody@example.com."))
            let noApp = await #expect(throws: AdminError.self) {
                try await operations.editUser(TestFixtures.bob, changes: try Self.changes(["apps": ["999"]]))
            }
            #expect(noApp?.message.hasPrefix("The app 999 does not exist") == true)
        }
    }

    @Test("A scenario is queued from a typed request, for one user when it names one")
    func queuesAScenario() async throws {
        try await withOperations { operations in
            let scenario = try await operations.queueScenario(
                try ScenarioRequest(["app_id": .string(TestFixtures.appID), "user": "bob@example.com", "outcome": "cancel"]))
            #expect(scenario.appID == TestFixtures.appID && scenario.userID == TestFixtures.bob)
            #expect(operations.scenarios().map(\.id) == [scenario.id])
            let unknown = #expect(throws: AdminError.self) { try ScenarioRequest(["app_id": .string(TestFixtures.appID), "outcome": "explode"]) }
            #expect(unknown?.status == .badRequest)
            let notString = #expect(throws: AdminError.self) {
                try ScenarioRequest(["app_id": .string(TestFixtures.appID), "user": 5, "outcome": "cancel"])
            }
            #expect(notString == .badRequest("\"user\" must be a test user's ID or email."))
            let noUser = await #expect(throws: AdminError.self) {
                try await operations.queueScenario(
                    try ScenarioRequest(["app_id": .string(TestFixtures.appID), "user": "nobody@example.com", "outcome": "cancel"]))
            }
            #expect(noUser == .notFound("No test user nobody@example.com (give an ID or an email)."))
        }
    }

    @Test("The clock's state is typed; a move answers the new state and going back before issued tokens needs force")
    func movesTheClock() async throws {
        try await withOperations { operations in
            let start = operations.clockState()
            let moved = try await operations.moveClock(.advance(seconds: 3600))
            #expect(moved.offset == start.offset + 3600 && moved.now >= start.now + 3600)
            _ = try await operations.mintToken(try mintRequest(["app_id": .string(TestFixtures.appID), "user": "alice@example.com"]))
            let back = await #expect(throws: AdminError.self) { try await operations.moveClock(.set(to: start.now - 86400)) }
            #expect(back?.status == .conflict)
            let forced = try await operations.moveClock(.set(to: start.now - 86400), force: true)
            #expect(forced.now <= start.now - 86400 + 5 && forced.latestIssuedAt != nil)
            #expect(try await operations.moveClock(.reset).offset == 0)
        }
    }
}
