import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

struct GraphReply {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let object: JSONObject

    var error: JSONObject? { object["error"]?.objectValue }
}

func graph(_ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]) async throws -> GraphReply
{
    let response = try await client.execute(uri: path, method: method, headers: headers)
    let value = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8))
    return GraphReply(status: response.status, headers: response.headers, object: try #require(value.objectValue, "\(String(buffer: response.body))"))
}

/// A classic login for `userID` with `scope`; returns the access token and the ID token.
func classicLogin(
    _ client: any TestClientProtocol, as userID: String, scope: String, appID: String = TestFixtures.appID,
    ticking: [String]? = nil
) async throws -> (access: String, id: String) {
    let redirect = appID == TestFixtures.appID ? TestFixtures.registeredRedirect : "http://127.0.0.1:7000/cb"
    let page = try await DialogBrowser(client: client).logIn(
        dialogPath(appID: appID, redirectURI: redirect, scope: scope, limited: false, responseType: "token,id_token"), as: userID, ticking: ticking
    )
    let parameters = try page.redirectParameters()
    return (try #require(try parameters.single("access_token")), try #require(try parameters.single("id_token")))
}

@Suite("Graph API subset")
struct GraphTests {
    @Test("me returns id and name by default, and only the fields the grant allows")
    func meFields() async throws {
        try await withProvider { client, provider in
            _ = try await classicLogin(client, as: TestFixtures.bob, scope: "public_profile,user_friends")
            let tokens = try await classicLogin(
                client, as: TestFixtures.alice, scope: "public_profile,email,user_birthday,user_friends", ticking: ["email", "user_friends"])
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let bobASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)

            let basic = try await graph(client, "/v21.0/me?access_token=\(tokens.access)")
            #expect(basic.status == .ok)
            #expect(basic.object.dictionary == ["id": .string(asid), "name": "Alice Q Smith"])

            let rich = try await graph(client, "/v21.0/me?fields=id,first_name,email,birthday,friends,picture&access_token=\(tokens.access)")
            #expect(rich.object["email"] == "alice@example.com")
            #expect(rich.object["first_name"] == "Alice")
            #expect(rich.object["birthday"] == nil, "user_birthday was declined: the field is left out")
            let friends = try #require(rich.object["friends"]?.objectValue)
            #expect(friends["data"] == .array([.object(["id": .string(bobASID), "name": "Bob Jones"])]))
            #expect(rich.object["picture"]?.objectValue?["data"]?.objectValue?["url"] == .string("http://provider.test/v21.0/\(asid)/picture"))

            let header = try await graph(client, "/v21.0/me", headers: [.authorization: "Bearer \(tokens.access)"])
            #expect(header.object["id"] == .string(asid), "the token may come in an Authorization header")

            let unknown = try await graph(client, "/v21.0/me?fields=id,favorite_color&access_token=\(tokens.access)")
            #expect(unknown.status == .badRequest)
            #expect(unknown.error?["message"] == "(#100) Tried accessing nonexisting field (favorite_color) on node type (User)")
            #expect(unknown.error?["code"] == 100 && unknown.error?["type"] == "OAuthException")

            // Field modifiers, as clients write them: picture sized by type, or by width and height.
            let large = try await graph(client, "/v21.0/me?fields=name,picture.type(large)&access_token=\(tokens.access)")
            let largeData = try #require(large.object["picture"]?.objectValue?["data"]?.objectValue, "\(large.object)")
            #expect(largeData["width"] == 200 && largeData["height"] == 200)
            #expect(largeData["url"] == .string("http://provider.test/v21.0/\(asid)/picture?type=large"))
            let sized = try await graph(client, "/v21.0/me?fields=picture.width(120).height(80)&access_token=\(tokens.access)")
            #expect(sized.object["picture"]?.objectValue?["data"]?.objectValue?["width"] == 120, "\(sized.object)")
            let refusals: [(String, String)] = [
                ("picture.type(huge)", "(#100) type must be one of small, normal, album, large, square; width and height positive numbers."),
                ("name.type(large)", "(#100) Only picture takes modifiers (type, width, height); name does not: name.type(large)"),
                ("picture.size(9)", "(#100) picture takes the modifiers type, width and height, not size: picture.size(9)"),
                (
                    "picture.type(large",
                    "(#100) Syntax error in the field picture.type(large: a modifier is written .name(value), as in picture.type(large)"
                ),
                ("friends%7Bname%7D", "(#100) Field expansion ({…}) is not supported by this provider: ask for friends alone (its default fields)."),
            ]
            for (fields, message) in refusals {
                let refused = try await graph(client, "/v21.0/me?fields=\(fields)&access_token=\(tokens.access)")
                #expect(refused.status == .badRequest && refused.error?["message"] == .string(message), "\(fields): \(refused.object)")
            }
        }
    }

    @Test("no token, an ID token, garbage, an expired token: code 190 with the exact message")
    func badTokens() async throws {
        try await withProvider { client, provider in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let limited = try await DialogBrowser(client: client).logIn(dialogPath(), as: TestFixtures.carol)
            let limitedIDToken = try #require(try limited.redirectParameters().single("id_token"))
            for (name, path) in [
                ("no token", "/v21.0/me"),
                ("an ID token", "/v21.0/me?access_token=\(limitedIDToken)"),
                ("a classic ID token", "/v21.0/me?access_token=\(tokens.id)"),
                ("garbage", "/v21.0/me?access_token=EAAnotatoken"),
            ] {
                let reply = try await graph(client, path)
                #expect(reply.status == .unauthorized, "\(name)")
                #expect(reply.error?["message"] == "Invalid OAuth access token - Cannot parse access token", "\(name)")
                #expect(reply.error?["code"] == 190, "\(name)")
                #expect(reply.error?["fbtrace_id"]?.stringValue?.isEmpty == false, "\(name)")
                #expect(reply.headers[.wwwAuthenticate]?.contains("invalid_token") == true, "\(name)")
            }
            let expired = "EAAexpired-token-for-the-test"
            try await provider.store.saveGrant(
                GrantRecord(
                    appID: TestFixtures.appID, userID: TestFixtures.alice, granted: [.publicProfile], declined: [], installed: true, updatedAt: 1))
            try await provider.store.saveAccessToken(
                expired,
                AccessTokenRecord(
                    appID: TestFixtures.appID, userID: TestFixtures.alice, issuedAt: 1, expiresAt: 2, dataAccessExpiresAt: 3
                ))
            let reply = try await graph(client, "/v21.0/me?access_token=\(expired)")
            #expect(reply.error?["message"] == "Error validating access token: Session has expired.")
            #expect(reply.error?["code"] == 190 && reply.error?["error_subcode"] == 463)
        }
    }

    @Test("me/permissions lists granted and declined; DELETE of one declines it; DELETE of all removes the app and kills its tokens")
    func permissions() async throws {
        try await withProvider { client, _ in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile,email,user_likes", ticking: ["user_likes"])
            let listed = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)")
            #expect(
                listed.object["data"]
                    == .array([
                        .object(["permission": "public_profile", "status": "granted"]),
                        .object(["permission": "user_likes", "status": "granted"]),
                        .object(["permission": "email", "status": "declined"]),
                    ]))
            let one = try await graph(client, "/v21.0/me/permissions/user_likes?access_token=\(tokens.access)", method: .delete)
            #expect(one.object.dictionary == ["success": true])
            let afterOne = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)")
            #expect(
                afterOne.object["data"]
                    == .array([
                        .object(["permission": "public_profile", "status": "granted"]),
                        .object(["permission": "email", "status": "declined"]),
                        .object(["permission": "user_likes", "status": "declined"]),
                    ]))
            let profile = try await graph(client, "/v21.0/me/permissions/public_profile?access_token=\(tokens.access)", method: .delete)
            #expect(profile.error?["message"] == "(#100) public_profile cannot be revoked alone; DELETE me/permissions removes the app.")
            let deleted = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)", method: .delete)
            #expect(deleted.object.dictionary == ["success": true])
            let after = try await graph(client, "/v21.0/me?access_token=\(tokens.access)")
            #expect(after.error?["code"] == 190 && after.error?["error_subcode"] == 458)
        }
    }

    @Test("another app's token cannot read a person of this app; a user token reads only its own person")
    func crossApp() async throws {
        try await withProvider { client, provider in
            let aliceHere = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let aliceThere = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile", appID: TestFixtures.otherAppID)
            _ = try await classicLogin(client, as: TestFixtures.bob, scope: "public_profile")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            let bobASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)

            let own = try await graph(client, "/v21.0/\(asid)?access_token=\(aliceHere.access)")
            #expect(own.object["id"] == .string(asid))
            let other = try await graph(client, "/v21.0/\(asid)?access_token=\(aliceThere.access)")
            #expect(other.error?["code"] == 100 && other.error?["error_subcode"] == 33)
            #expect(other.error?["type"] == "GraphMethodException", "a call's problem, not the token's: \(other.object)")

            // The app's own token and a person who uninstalled: the person cannot be read (100/33), the token is
            // still good (not 190, which tells a backend to drop its credential).
            let appToken = "\(TestFixtures.appID)%7C\(TestFixtures.appSecret)"
            #expect(try await graph(client, "/v21.0/\(bobASID)?access_token=\(appToken)").object["id"] == .string(bobASID))
            #expect(try await provider.store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.bob))
            let gone = try await graph(client, "/v21.0/\(bobASID)?access_token=\(appToken)")
            #expect(gone.status == .badRequest, "\(gone.object)")
            #expect(
                gone.error?["code"] == 100 && gone.error?["error_subcode"] == 33 && gone.error?["type"] == "GraphMethodException", "\(gone.object)")
            let someoneElse = try await graph(client, "/v21.0/\(bobASID)?access_token=\(aliceHere.access)")
            #expect(someoneElse.error?["message"] == "(#100) A user access token can read only its own person.")
        }
    }

    @Test("token_for_business: equal across two apps of one business, different for a third, refused without a business")
    func tokenForBusiness() async throws {
        try await withProvider { client, provider in
            try await provider.store.createApp(AppRecord(id: "3333333333", secret: "third-secret", name: "Sister App", businessID: "77"))
            try await provider.store.createApp(AppRecord(id: "4444444444", secret: "fourth-secret", name: "Rival App", businessID: "88"))
            try await provider.store.addTestUser(TestFixtures.alice, toApps: ["3333333333", "4444444444"])
            var tokens: [String: String] = [:]
            for (appID, secret) in [(TestFixtures.appID, TestFixtures.appSecret), ("3333333333", "third-secret"), ("4444444444", "fourth-secret")] {
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile", appID: appID)
                let credentials = try await graph(
                    client, "/v21.0/oauth/access_token?grant_type=client_credentials&client_id=\(appID)&client_secret=\(secret)")
                #expect(credentials.object["access_token"] == .string("\(appID)|\(secret)"))
                let asid = try await provider.store.appScopedID(appID: appID, userID: TestFixtures.alice)
                let reply = try await graph(client, "/v21.0/\(asid)?fields=token_for_business&access_token=\(appID)%7C\(secret)")
                #expect(reply.object["id"] == .string(asid))
                tokens[appID] = try #require(reply.object["token_for_business"]?.stringValue)
            }
            #expect(tokens[TestFixtures.appID] == tokens["3333333333"])
            #expect(tokens[TestFixtures.appID] != tokens["4444444444"])

            let noBusiness = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile", appID: TestFixtures.otherAppID)
            _ = noBusiness
            let otherApp = try #require(try await provider.store.app(id: TestFixtures.otherAppID))
            let asid = try await provider.store.appScopedID(appID: TestFixtures.otherAppID, userID: TestFixtures.alice)
            let refused = try await graph(client, "/v21.0/\(asid)?fields=token_for_business&access_token=\(otherApp.id)%7C\(otherApp.secret)")
            #expect(refused.error?["message"] == .string("(#100) The app \(TestFixtures.otherAppID) is not associated with a business."))

            let wrongSecret = try await graph(client, "/v21.0/me?access_token=\(TestFixtures.appID)%7Cwrong")
            #expect(wrongSecret.error?["code"] == 190)
            let appOnMe = try await graph(client, "/v21.0/me?access_token=\(TestFixtures.appID)%7C\(TestFixtures.appSecret)")
            #expect(appOnMe.error?["code"] == 2500)
        }
    }

    @Test("fb_extend_sso_token refreshes, fb_exchange_token needs the app secret; both give working tokens")
    func refreshAndExchange() async throws {
        try await withProvider { client, _ in
            let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let refreshed = try await graph(client, "/v21.0/oauth/access_token?grant_type=fb_extend_sso_token&access_token=\(tokens.access)")
            let fresh = try #require(refreshed.object["access_token"]?.stringValue)
            #expect(fresh != tokens.access)
            #expect(refreshed.object["graph_domain"] == "facebook")
            #expect(refreshed.object["expires_at"]?.numberValue != nil && refreshed.object["data_access_expiration_time"]?.numberValue != nil)
            #expect(try await graph(client, "/v21.0/me?access_token=\(fresh)").object["name"] == "Alice Q Smith")

            let wrong = try await graph(
                client,
                "/v21.0/oauth/access_token?grant_type=fb_exchange_token&client_id=\(TestFixtures.appID)&client_secret=nope&fb_exchange_token=\(tokens.access)"
            )
            #expect(wrong.error?["message"] == "Error validating client secret.")
            let exchanged = try await graph(
                client,
                "/v21.0/oauth/access_token?grant_type=fb_exchange_token&client_id=\(TestFixtures.appID)&client_secret=\(TestFixtures.appSecret)&fb_exchange_token=\(tokens.access)"
            )
            let longLived = try #require(exchanged.object["access_token"]?.stringValue)
            #expect(exchanged.object["expires_in"] == .number(Double(TokenLifetimes.defaultAccessToken)))
            #expect(try await graph(client, "/v21.0/me?access_token=\(longLived)").status == .ok)

            let unknownGrant = try await graph(client, "/v21.0/oauth/access_token?grant_type=password")
            #expect(unknownGrant.error?["message"] == "Unsupported grant_type password.")
        }
    }

    /// Issue #33 item 4: iOS's UIImage and Unity's texture loader cannot decode SVG.
    @Test("the picture is a PNG sized like the real endpoint's (type, width/height), with the initials in white; SVG when asked")
    func picture() async throws {
        try await withProvider { client, provider in
            _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            for (query, side) in [("", 50), ("?type=normal", 100), ("?type=large", 200), ("?width=120&height=80", 120), ("?width=5000", 512)] {
                let response = try await client.execute(uri: "/v21.0/\(asid)/picture\(query)", method: .get)
                #expect(response.status == .ok, "\(query)")
                #expect(response.headers[.contentType] == "image/png", "\(query)")
                let bytes = Array(response.body.readableBytesView)
                #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "the PNG signature")
                let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
                let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
                #expect(width == side && height == side, "\(query): \(width)×\(height)")
                // IHDR's CRC covers its type and data.
                let crc = bytes[29..<33].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                #expect(crc == PNGImage.crc32(Array(bytes[12..<29])))
            }
            let large = AvatarPicture(user: try #require(try await provider.store.user(id: TestFixtures.alice))).png(side: 200)
            #expect(large.count > 200 * 200 * 3, "stored blocks: the pixels as they are")
            let svg = try await client.execute(uri: "/v21.0/\(asid)/picture?format=svg", method: .get)
            #expect(svg.headers[.contentType] == "image/svg+xml" && String(buffer: svg.body).contains(">AS</text>"))
            let badType = try await client.execute(uri: "/v21.0/\(asid)/picture?type=huge", method: .get)
            #expect(badType.status == .badRequest && String(buffer: badType.body).contains(#""code":100"#))
            let badWidth = try await client.execute(uri: "/v21.0/\(asid)/picture?width=-3", method: .get)
            #expect(badWidth.status == .badRequest)
            let missing = try await client.execute(uri: "/v21.0/999/picture", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @Test("the avatar's pixels: the background is the person's color, the initials' cells are white")
    func avatarPixels() throws {
        let user = TestUserRecord(id: "100001", firstName: "Alice", lastName: "Smith", email: "a@example.com")
        let avatar = AvatarPicture(user: user)
        let image = avatar.png(side: 110)
        // One stored block (110 × (110 × 3 + 1) bytes < 65,535): the rows start 2 + 5 bytes into IDAT's data.
        let idat = try #require(Self.range(of: Array("IDAT".utf8), in: image))
        let pixels = Array(image[(idat + 4 + 2 + 5)...])
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * (110 * 3 + 1) + 1 + x * 3)..<(y * (110 * 3 + 1) + 1 + x * 3 + 3)]) }
        let background = AvatarPicture.rgb(hue: avatar.hue)
        #expect(pixel(0, 0) == [background.0, background.1, background.2])
        // "A" starts at the left of 11 cells of 5 px (55 px wide, 27 px in), its top row's second cell white.
        let cell = 110 / 2 / 11
        let left = (110 - 11 * cell) / 2
        let top = (110 - 7 * cell) / 2
        #expect(pixel(left + cell + 1, top + 1) == [255, 255, 255], "the A's top bar")
        #expect(pixel(left + 1, top + 1) == [background.0, background.1, background.2], "the A's rounded corner")
    }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
