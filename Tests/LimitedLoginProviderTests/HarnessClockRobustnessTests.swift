import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

/// Issue #30 item 1: no sequence of clock moves, rotations and mints leaves the provider without a key to
/// sign with; forward moves are never refused.
@Suite("Harness: the clock never breaks signing")
struct HarnessClockRobustnessTests {
    static let jwksPath = "/.well-known/oauth/openid/jwks/"

    /// Mints a token for Alice and verifies it at the provider's time against the key set the provider serves.
    static func mintAndVerify(_ client: any TestClientProtocol, _ provider: LimitedLoginProvider, step: String) async throws {
        let minted = try await admin(
            client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","nonce":"n"}"#)
        #expect(minted.status == .created, "\(step): minting answered \(minted.status): \(minted.message ?? "")")
        guard minted.status == .created else { return }
        let jwks = try await client.execute(uri: jwksPath, method: .get)
        #expect(jwks.status == .ok, "\(step): JWKS answered \(jwks.status)")
        let keySet = try JSONWebKeySet(parsing: Array(String(buffer: jwks.body).utf8))
        let verifier = TokenVerifier(
            configuration: VerifierConfiguration(appID: TestFixtures.appID, allowedIssuers: [provider.urls.issuer]),
            keys: StaticKeySet(keySet), clock: ManualClock(Date(timeIntervalSince1970: TimeInterval(provider.clock.now())))
        )
        do { _ = try await verifier.verify(try minted.idToken(), nonce: .exact("n")) } catch {
            Issue.record("\(step): the minted token does not verify at the provider's time: \(error)")
        }
    }

    static func rotate(_ client: any TestClientProtocol, publishDelay: Int64) async throws -> HTTPResponse.Status {
        let headers: HTTPFields = [
            .authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/x-www-form-urlencoded",
        ]
        return try await client.execute(
            uri: "/_admin/keys/rotate", method: .post, headers: headers, body: ByteBuffer(string: "publish_delay=\(publishDelay)")
        ).status
    }

    static func expectHealthy(_ client: any TestClientProtocol, _ provider: LimitedLoginProvider, step: String) async throws {
        // Reread the keys as a node does every few seconds (the issue's "wait 7 s"), without waiting.
        do { _ = try await provider.services.keyring.reload() } catch { Issue.record("\(step): the keys cannot be read: \(error)") }
        #expect(try await client.execute(uri: jwksPath, method: .get).status == .ok, "\(step): JWKS")
        #expect(try await client.execute(uri: "/health", method: .get).status == .ok, "\(step): /health")
    }

    @Test("the issue's sequence: rotate, advance 90 min, mint, reset: the JWKS, /health and minting stay up")
    func rotateAdvanceReset() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            #expect(try await Self.rotate(client, publishDelay: 600) == .ok)
            #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":5400}"#).status == .ok)
            try await Self.mintAndVerify(client, provider, step: "at +90 min")
            try await Self.expectHealthy(client, provider, step: "at +90 min")
            #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"reset":true}"#).status == .ok)
            try await Self.expectHealthy(client, provider, step: "after the reset")
            try await Self.mintAndVerify(client, provider, step: "after the reset")
        }
    }

    @Test("the clock set back before every key (forced): the oldest key signs on")
    func beforeEveryKey() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let back = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":1000000000,"force":true}"#)
            #expect(back.status == .ok)
            try await Self.expectHealthy(client, provider, step: "in 2001")
            try await Self.mintAndVerify(client, provider, step: "in 2001")
        }
    }

    @Test("a move forward is never refused, also after a mint and a reset")
    func forwardNeverRefused() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":3600}"#).status == .ok)
            try await Self.mintAndVerify(client, provider, step: "at +1 h")
            #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"reset":true}"#).status == .ok)
            let forward = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":660}"#)
            #expect(forward.status == .ok, "\(forward.message ?? "")")
            let set = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":\#(provider.clock.now() + 60)}"#)
            #expect(set.status == .ok, "\(set.message ?? "")")
            let back = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":-60}"#)
            #expect(back.status == .conflict, "going back before the token issued at +1 h is still refused")
        }
    }

    /// A small deterministic generator (SplitMix64), so that a failing sequence can be replayed from its seed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("300 random clock moves, rotations and mints: every token verifies at the provider's time; JWKS and /health stay 200")
    func randomSequences() async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        try await withProvider(harnessConfiguration()) { client, provider in
            var random = SeededGenerator(state: seed)
            var rotations = 0
            for index in 0..<300 {
                let choice = Int.random(in: 0..<100, using: &random)
                let step: String
                switch choice {
                case 0..<25:
                    let seconds = Int64.random(in: -3 * 86400...3 * 86400, using: &random)
                    let force = Bool.random(using: &random)
                    step = "advance \(seconds)\(force ? " force" : "")"
                    let reply = try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":\#(seconds),"force":\#(force)}"#)
                    #expect(reply.status == .ok || (seconds < 0 && !force && reply.status == .conflict), "#\(index) \(step): \(reply.status)")
                case 25..<35:
                    let system = ProviderTime.systemNow()
                    let time = Int64.random(in: system - 30 * 86400...system + 400 * 86400, using: &random)
                    let force = Bool.random(using: &random)
                    step = "set \(time)\(force ? " force" : "")"
                    let before = provider.clock.now()
                    let reply = try await admin(client, "/_admin/clock", method: .post, json: #"{"set":\#(time),"force":\#(force)}"#)
                    #expect(reply.status == .ok || (time < before && !force && reply.status == .conflict), "#\(index) \(step): \(reply.status)")
                case 35..<45:
                    step = "reset"
                    #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"reset":true}"#).status == .ok)
                case 45..<52 where rotations < 16:
                    rotations += 1
                    let delay = Int64.random(in: 0...7200, using: &random)
                    step = "rotate, publish delay \(delay)"
                    #expect(try await Self.rotate(client, publishDelay: delay) == .ok, "#\(index) \(step)")
                default:
                    step = "mint"
                    try await Self.mintAndVerify(client, provider, step: "#\(index) mint (seed \(seed))")
                }
                try await Self.expectHealthy(client, provider, step: "#\(index) after \(step) (seed \(seed))")
            }
            try await Self.mintAndVerify(client, provider, step: "the last mint (seed \(seed))")
        }
    }
}
