import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

private func admin(_ client: any TestClientProtocol, _ path: String, json: String) async throws -> (HTTPResponse.Status, JSONObject) {
    let response = try await client.execute(
        uri: path, method: .post,
        headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/json"],
        body: ByteBuffer(string: json)
    )
    return (response.status, try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue))
}

@Suite("Provider: gaming apps, Messenger pages, explicit age ranges")
struct GamingAppsAndMessengerTests {
    @Test(
        "a gaming app made through the admin API: gaming_profile and gaming_user_picture give the avatar name, first name and picture; graph_domain=gaming"
    )
    func gamingApp() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            let created = try await admin(client, "/_admin/apps", json: #"{"id":"7777","name":"Game","gaming":true}"#)
            #expect(created.0 == .created)
            #expect(created.1["gaming"] == true)
            let user = try await admin(
                client, "/_admin/users",
                json: #"""
                    {"id":"300001","first_name":"Dana","last_name":"Player","email":"dana@example.com","pickable":true,
                     "gaming_name":"DanaTheBrave","age_range":{"min":18,"max":20}}
                    """#)
            #expect(user.0 == .created)
            #expect(user.1["gaming_name"] == "DanaTheBrave")
            #expect(user.1["age_range"] == .object(["min": 18, "max": 20]))

            let page = try await DialogBrowser(client: client).logIn(
                dialogPath(appID: "7777", redirectURI: "http://127.0.0.1:9/cb", scope: "openid,gaming_profile,gaming_user_picture,user_age_range"),
                as: "300001"
            )
            let answer = try page.redirectParameters()
            #expect(try answer.single("graph_domain") == "gaming")
            let token = try #require(try answer.single("id_token"))
            let claims = try await verifyIDToken(token, provider: provider, appID: "7777").claims
            #expect(claims.name == "DanaTheBrave")
            #expect(claims.givenName == "Dana")
            #expect(claims.familyName == nil, "public_profile was not asked for")
            #expect(claims.picture?.contains(claims.sub) == true)
            #expect(claims.userAgeRange == UserAgeRange(min: 18, max: 20), "the explicit range, with no birthday")

            // A classic login's token refreshed (fb_extend_sso_token) keeps graph_domain=gaming.
            let classic = try await DialogBrowser(client: client).logIn(
                dialogPath(
                    appID: "7777", redirectURI: "http://127.0.0.1:9/cb", scope: "gaming_profile", limited: false, responseType: "token,graph_domain"),
                as: "300001")
            #expect(try classic.redirectParameters().single("graph_domain") == "gaming")
            let accessToken = try #require(try classic.redirectParameters().single("access_token"))
            let refreshed = try await client.execute(
                uri: "/v21.0/oauth/access_token?grant_type=fb_extend_sso_token&access_token=\(accessToken)", method: .get)
            #expect(refreshed.status == .ok, "\(String(buffer: refreshed.body))")
            let extended = try #require(try StrictJSONParser().parse(Array(String(buffer: refreshed.body).utf8)).objectValue)
            #expect(extended["graph_domain"] == "gaming")

            // The same person in an ordinary app: graph_domain=facebook.
            let ordinary = try await DialogBrowser(client: client).logIn(
                dialogPath(redirectURI: "http://127.0.0.1:9/cb", scope: "openid,public_profile"), as: "300001"
            )
            #expect(try ordinary.redirectParameters().single("graph_domain") == "facebook")
        }
    }

    @Test("user_messenger_contact records the request's messenger_page_id in the grant; export and import keep it and the gaming flag")
    func messengerPage() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, provider in
            _ = try await DialogBrowser(client: client).logIn(
                dialogPath(scope: "openid,public_profile,user_messenger_contact", extra: [("messenger_page_id", "424242")]),
                as: TestFixtures.alice
            )
            let grant = try #require(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice))
            #expect(grant.granted.contains(.userMessengerContact))
            #expect(grant.messengerPageID == "424242")

            // Unticked: no page is kept.
            _ = try await DialogBrowser(client: client).logIn(
                dialogPath(
                    scope: "openid,public_profile,user_messenger_contact", extra: [("messenger_page_id", "515151"), ("auth_type", "rerequest")]),
                as: TestFixtures.alice, ticking: []
            )
            #expect(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice)?.messengerPageID == nil)

            _ = try await DialogBrowser(client: client).logIn(
                dialogPath(
                    scope: "openid,public_profile,user_messenger_contact", extra: [("messenger_page_id", "616161"), ("auth_type", "rerequest")]),
                as: TestFixtures.alice
            )
            try await provider.store.createApp(AppRecord(id: "8888", secret: "s", name: "Game", isGaming: true))
            let exported = try await StateExport(store: provider.store, clock: provider.clock, scenarios: provider.services.scenarios).fixtures(
                includingKeys: false)
            #expect(exported.grants?.first { $0.userID == TestFixtures.alice && $0.appID == TestFixtures.appID }?.messengerPageID == "616161")
            #expect(exported.apps.first { $0.id == "8888" }?.gaming == true)

            let fresh = try await LimitedLoginProvider.prepare(TestFixtures.configuration(), logger: TestFixtures.quietLogger)
            try await StateImport(store: fresh.store).load(ProviderFixtures(apps: [], users: [], grants: exported.grants))
            #expect(try await fresh.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice)?.messengerPageID == "616161")
            try await FixtureLoader(store: fresh.store).load(ProviderFixtures(apps: [.init(id: "9999", name: "G", gaming: true)], users: []))
            #expect(try await fresh.store.app(id: "9999")?.isGaming == true)
            await fresh.store.close()
        }
    }
}

@Suite("Provider: fixtures with an age range")
struct AgeRangeFixtureTests {
    @Test("an age range with min above max, or no bound, is refused by the admin API")
    func badAgeRange() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, _ in
            for range in [#"{"min":21,"max":18}"#, "{}"] {
                let answer = try await admin(
                    client, "/_admin/users",
                    json: #"""
                        {"first_name":"Fay","last_name":"Range","email":"fay@example.com","pickable":true,"age_range":\#(range)}
                        """#)
                #expect(answer.0 == .badRequest)
                #expect(
                    answer.1["error"]?.objectValue?["message"]?.stringValue
                        == "User fay@example.com has an age range without a bound, with a negative one, or with min above max.")
            }
        }
    }
}
