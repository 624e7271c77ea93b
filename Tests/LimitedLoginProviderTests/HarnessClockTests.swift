import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

@Suite("Harness: the provider's clock")
struct HarnessClockTests {
    @Test("advance moves token times, and set and reset move the clock; GET shows it")
    func moves() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let start = try await admin(client, "/_admin/clock")
            let system = try #require(start.object["system_now"]?.numberValue)
            #expect(start.object["offset"] == 0)
            let advanced = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":86400}"#)
            #expect(advanced.status == .ok)
            #expect((advanced.object["now"]?.numberValue ?? 0) >= system + 86400)
            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com"}"#)
            let iat = try #require(minted.object["claims"]?.objectValue?["iat"]?.numberValue)
            let exp = try #require(minted.object["claims"]?.objectValue?["exp"]?.numberValue)
            // The provider's time is the system's plus a day, however long the machine took between the two reads.
            #expect(iat >= system + 86400 && iat < system + 86400 + 120 && exp - iat == 3600)

            // A verifier on the system's time sees a token from the future; one on the provider's accepts it.
            let keys = try await provider.services.keyring.current().keySet
            let configuration = VerifierConfiguration(appID: TestFixtures.appID, allowedIssuers: [provider.urls.issuer])
            let token = try minted.idToken()
            await #expect(throws: TokenVerificationError.self) {
                _ = try await TokenVerifier(configuration: configuration, keys: StaticKeySet(keys)).verify(token, nonce: .notChecked)
            }
            let followed = TokenVerifier(
                configuration: configuration, keys: StaticKeySet(keys), clock: ManualClock(Date(timeIntervalSince1970: iat + 10)))
            #expect(try await followed.verify(token, nonce: .notChecked).claims.email == nil)

            let set = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":4102444800}"#)
            #expect(set.object["now"] == 4_102_444_800 && set.object["iso8601"] == "2100-01-01T00:00:00Z")
            let reset = try await admin(client, "/_admin/clock", method: .post, json: #"{"reset":true}"#)
            #expect(reset.object["offset"] == 0)
        }
    }

    @Test("the clock is not set back before an issued token unless forced")
    func notBackwards() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            _ = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":3600}"#)
            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com"}"#)
            let iat = Int64(try #require(minted.object["claims"]?.objectValue?["iat"]?.numberValue))
            let back = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":\#(iat - 100)}"#)
            #expect(back.status == .conflict)
            #expect(
                back.message
                    == "The clock cannot go back to \(iat - 100): a token was already issued at \(iat). Set a time at or after \(iat), reset the clock, or pass \"force\": true (limited-login clock: --force)."
            )
            let backwards = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":-7200}"#)
            #expect(backwards.status == .conflict)
            let forced = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":\#(iat - 100),"force":true}"#)
            #expect(forced.status == .ok && forced.object["now"] == .number(Double(iat - 100)))
        }
    }

    @Test("bad clock requests are refused with the exact error")
    func refusals() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let cases: [(String, String)] = [
                (#"{}"#, "Give exactly one of \"advance\" (seconds), \"set\" (epoch seconds) or \"reset\": true."),
                (#"{"advance":1,"set":2}"#, "Give exactly one of \"advance\" (seconds), \"set\" (epoch seconds) or \"reset\": true."),
                (#"{"advance":"1d"}"#, "\"advance\" must be a whole number of seconds."),
                (#"{"advance":8639999999913600}"#, "\"advance\" is out of range: the clock shows times from 1970 to 9999."),
                (#"{"set":1.5}"#, "\"set\" must be whole seconds since 1970."),
                (#"{"reset":false}"#, "\"reset\" must be true."),
            ]
            for (body, message) in cases {
                let reply = try await admin(client, "/_admin/clock", method: .post, json: body)
                #expect(reply.status == .badRequest && reply.message == message, "\(body): \(reply.object)")
            }
            let far = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":253402300800}"#)
            #expect(
                far.status == .conflict
                    && far.message == "253402300800 is not a time the clock can show; give seconds since 1970, before the year 10000.")
        }
    }

    @Test("sessions, access tokens and data access expire on the provider's time; me/permissions then says expired")
    func expiries() async throws {
        let lifetimes = TokenLifetimes(idToken: 600, accessToken: 7200, dataAccess: 3600)
        try await withProvider(harnessConfiguration(lifetimes: lifetimes)) { client, _ in
            let minted = try await admin(
                client, "/_admin/tokens", method: .post,
                json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","permissions":["email","user_birthday"],"tracking":"enabled"}"#)
            let access = try #require(minted.object["access_token"]?.stringValue)
            #expect(minted.object["expires_in"] == 7200)
            let claims = try #require(minted.object["claims"]?.objectValue)
            #expect((claims["exp"]?.numberValue ?? 0) - (claims["iat"]?.numberValue ?? 0) == 600)

            func permissions() async throws -> [String: String] {
                let response = try await client.execute(uri: "/v21.0/me/permissions?access_token=\(access)", method: .get)
                let object = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8))
                var statuses: [String: String] = [:]
                for entry in object.objectValue?["data"]?.arrayValue ?? [] {
                    statuses[entry.objectValue?["permission"]?.stringValue ?? ""] = entry.objectValue?["status"]?.stringValue
                }
                return statuses
            }
            #expect(try await permissions() == ["public_profile": "granted", "email": "granted", "user_birthday": "granted"])
            _ = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":3601}"#)
            #expect(try await permissions() == ["public_profile": "granted", "email": "expired", "user_birthday": "expired"])
            let me = try await client.execute(uri: "/v21.0/me?fields=email,name&access_token=\(access)", method: .get)
            #expect(!String(buffer: me.body).contains("alice@example.com"), "expired data access hides the email")
            _ = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":3600}"#)
            let late = try await client.execute(uri: "/v21.0/me?access_token=\(access)", method: .get)
            #expect(late.status == .badRequest || late.status == .unauthorized)
            #expect(String(buffer: late.body).contains("\"code\":190"), "the access token itself has expired")

            // A dialog session also follows the clock: 30 days on, the person signs in again.
            let browser = DialogBrowser(client: client)
            _ = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            _ = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":2592001}"#)
            let page = try await browser.get(dialogPath())
            #expect(page.body.contains("id=\"password-form\""), "the session expired: the sign-in page again")
        }
    }
}
