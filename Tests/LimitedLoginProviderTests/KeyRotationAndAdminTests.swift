import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import SQLKit
import Testing

@testable import LimitedLoginProvider

private func keyIDs(_ client: any TestClientProtocol) async throws -> Set<String> {
    let response = try await client.execute(uri: "/.well-known/oauth/openid/jwks", method: .get)
    return try JSONWebKeySet(parsing: Array(String(buffer: response.body).utf8)).keyIDs
}

private func admin(
    _ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, token: String?, form: String? = nil
)
    async throws -> (HTTPResponse.Status, JSONObject)
{
    var headers: HTTPFields = [:]
    if let token { headers[.authorization] = "Bearer \(token)" }
    if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
    let response = try await client.execute(uri: path, method: method, headers: headers, body: form.map { ByteBuffer(string: $0) })
    let object = try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue)
    return (response.status, object)
}

@Suite("Key rotation and the admin API")
struct KeyRotationAndAdminTests {
    static let adminToken = "test-admin-token"

    static func configuration() -> ProviderConfiguration {
        var configuration = TestFixtures.configuration()
        configuration.adminToken = adminToken
        return configuration
    }

    @Test("a rotation publishes the new key before it signs; old tokens verify through the window and stop after it")
    func rotation() async throws {
        try await withProvider(Self.configuration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let before = try #require(try await browser.logIn(dialogPath(), as: TestFixtures.alice).redirectParameters().single("id_token"))
            let oldKey = try await provider.services.keyring.current().signer.keyID
            #expect(try await keyIDs(client) == [oldKey])

            // Published now, signing in an hour: the old key still signs.
            let (status, scheduled) = try await admin(
                client, "/_admin/keys/rotate", method: .post, token: Self.adminToken, form: "publish_delay=3600")
            #expect(status == .ok)
            let newKey = try #require(scheduled["kid"]?.stringValue)
            #expect(try await keyIDs(client) == [oldKey, newKey], "the new kid is in the key set before it signs")
            let during = try #require(try await browser.get(dialogPath(nonce: "n2")).redirectParameters().single("id_token"))
            #expect(try CompactJWS(parsing: during).header["kid"] == .string(oldKey))

            // Signing now.
            _ = try await provider.services.keyring.rotate(publishDelay: 0)
            let signing = try await provider.services.keyring.current().signer.keyID
            #expect(signing != oldKey && signing != newKey, "the latest rotation signs")
            let after = try #require(try await browser.get(dialogPath(nonce: "n3")).redirectParameters().single("id_token"))
            #expect(try CompactJWS(parsing: after).header["kid"] == .string(signing))
            #expect(try await keyIDs(client).contains(oldKey), "retired keys stay published through the window")
            _ = try await verifyIDToken(before, provider: provider)
            _ = try await verifyIDToken(after, provider: provider, nonce: "n3")

            // The window ends (moved into the past in the store): the old key is dropped and its tokens fail.
            try await provider.store.retireSigningKey(keyID: oldKey, at: ProviderTime.now() - TokenLifetimes().keyRetention - 1)
            try await provider.services.keyring.reload()
            #expect(try await !keyIDs(client).contains(oldKey))
            do {
                _ = try await verifyIDToken(before, provider: provider)
                Issue.record("a token of a dropped key verified")
            } catch let error as TokenVerificationError {
                #expect(error == .unknownKey(oldKey))
            }
        }
    }

    @Test("a drop_previous rotation whose new key cannot be stored leaves the old key signing: the new key is stored first")
    func failedRotationKeepsAKey() async throws {
        try await withProvider(Self.configuration()) { _, provider in
            let before = try await provider.services.keyring.current().signer.keyID
            // As a full disk would: the new key's insert fails.
            try await provider.store.db.raw(
                "CREATE TRIGGER refuse_new_keys BEFORE INSERT ON ll_signing_keys BEGIN SELECT RAISE(ABORT, 'disk full'); END"
            ).run()
            await #expect(throws: (any Error).self) { try await provider.services.keyring.rotate(publishDelay: 0, dropPrevious: true) }
            try await provider.services.keyring.reload()
            #expect(try await provider.services.keyring.current().signer.keyID == before, "the old key still signs")
            #expect(try await provider.store.signingKeys().map(\.keyID) == [before])
        }
    }

    @Test("the key list says which key signs and when the others retire")
    func listKeys() async throws {
        try await withProvider(Self.configuration()) { client, _ in
            _ = try await admin(client, "/_admin/keys/rotate", method: .post, token: Self.adminToken, form: "publish_delay=600")
            let (status, listed) = try await admin(client, "/_admin/keys", token: Self.adminToken)
            #expect(status == .ok)
            let keyValues = try #require(listed["keys"]?.arrayValue)
            let keys = keyValues.compactMap(\.objectValue)
            #expect(keys.count == 2)
            #expect(keys.map { $0["state"]?.stringValue ?? "" }.sorted() == ["published, signs later", "signing"])
            let current = try #require(keys.first { $0["signing"] == true })
            #expect(current["retired_at"]?.numberValue != nil, "the signing key retires when the new one starts")
        }
    }

    @Test("every admin call without or with a wrong token is refused; a bad body gets a clear error")
    func adminGuard() async throws {
        try await withProvider(Self.configuration()) { client, provider in
            for (path, method) in [("/_admin/keys", HTTPRequest.Method.get), ("/_admin/keys/rotate", .post)] {
                let missing = try await admin(client, path, method: method, token: nil)
                #expect(missing.0 == .unauthorized, "\(path)")
                #expect(missing.1["error"]?.objectValue?["message"] == "The admin API needs Authorization: Bearer <admin token>.")
                let wrong = try await admin(client, path, method: method, token: "nope")
                #expect(wrong.0 == .forbidden, "\(path)")
                #expect(wrong.1["error"]?.objectValue?["message"] == "The admin token is wrong.")
            }
            #expect(try await provider.services.keyring.current().records.count == 1, "nothing rotated")
            let bad = try await admin(client, "/_admin/keys/rotate", method: .post, token: Self.adminToken, form: "publish_delay=soon")
            #expect(bad.0 == .badRequest)
            #expect(bad.1["error"]?.objectValue?["message"] == "publish_delay must be a number of seconds from 0 to 2592000.")
        }
    }

    @Test("without --admin-token one is made at first start, kept, and not made again")
    func generatedAdminToken() async throws {
        let path = temporaryDatabasePath()
        var configuration = TestFixtures.configuration(store: .sqliteFile(path: path))
        let first = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        #expect(first.madeAdminToken && first.adminToken.hasPrefix("admin-"))
        await first.store.close()
        configuration.fixtures = nil
        let second = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        #expect(!second.madeAdminToken && second.adminToken == first.adminToken)
        await second.store.close()
    }
}
