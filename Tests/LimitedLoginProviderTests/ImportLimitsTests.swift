import Foundation
import HummingbirdTesting
import LimitedLoginTestSupport
import Logging
import Testing

@testable import LimitedLoginProvider

/// Issue #31 item 6: what an import may ask of the provider. A password hash may not cost more than 10 × the
/// provider's own rounds (one sign-in took 9 s of CPU at 10,000,000); each signing key a file publishes is
/// announced at warning.
@Suite("Import limits: hash cost, published signing keys")
struct ImportLimitsTests {
    static func user(hash: String) -> String {
        #"{"users": [{"first_name": "A", "last_name": "B", "email": "a@example.com", "password_hash": "\#(hash)"}]}"#
    }

    static let costly = "pbkdf2-sha256$10000000$c2FsdHNhbHRzYWx0c2FsdA$" + String(repeating: "A", count: 43)

    @Test("a fixtures file whose password hash asks for too many rounds, or is malformed, is refused naming the user")
    func hashCost() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Self.user(hash: Self.costly).utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: FixturesError.invalid(
                "user a@example.com has a \"password_hash\" that asks for 10000000 rounds, more than the 200000 allowed (10 × the provider's 20000)"
            )
        ) { try ProviderFixtures.load(path: path) }
        try Data(Self.user(hash: "md5$abc").utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: FixturesError.invalid(
                "user a@example.com has a \"password_hash\" that is not pbkdf2-sha256$<rounds>$<salt>$<hash> (base64url; as export writes it)"
            )
        ) { try ProviderFixtures.load(path: path) }
        // What export writes is taken.
        try Data(Self.user(hash: PasswordHasher.hash("pw")).utf8).write(to: URL(fileURLWithPath: path))
        #expect(try ProviderFixtures.load(path: path).users.count == 1)
    }

    @Test("the admin API refuses the same hash (400), and creates nothing")
    func adminHashCost() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let reply = try await admin(
                client, "/_admin/users", method: .post,
                json: #"{"first_name": "A", "last_name": "B", "email": "a@example.com", "password_hash": "\#(Self.costly)"}"#
            )
            #expect(reply.status == .badRequest)
            #expect(reply.message?.contains("asks for 10000000 rounds, more than the 200000 allowed") == true, "\(reply.message ?? "")")
            #expect(try await provider.store.user(idOrEmail: "a@example.com") == nil)
        }
    }

    @Test("each signing key a fixtures file publishes is announced in one warning line naming its kid")
    func signingKeyWarning() async throws {
        let donor = try await LimitedLoginProvider.prepare(TestFixtures.configuration(), logger: TestFixtures.quietLogger)
        let key = try #require(try await donor.store.signingKeys().first)
        await donor.store.close()
        let logs = CapturedLogs()
        var logger = Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) })
        logger.logLevel = .warning
        var configuration = TestFixtures.configuration()
        configuration.fixtures = ProviderFixtures(signingKeys: [
            .init(kid: "imported-key", privateKeyPEM: key.privateKeyPEM, createdAt: key.createdAt, signsFrom: key.signsFrom, retiredAt: nil)
        ])
        let provider = try await LimitedLoginProvider.prepare(configuration, logger: logger)
        await provider.store.close()
        let lines = logs.records.withLock { $0.filter { $0.hasPrefix("warning Imported signing key") } }
        #expect(lines.count == 1, "\(lines)")
        #expect(
            lines.first?.contains(
                "Imported signing key imported-key from the fixtures file: it is published in the JWKS, and anyone with the file can sign tokens with it."
            ) == true, "\(lines)")
    }
}
