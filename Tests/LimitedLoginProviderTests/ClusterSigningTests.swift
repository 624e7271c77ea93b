import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #58 item 1: every node signs only with keys every node publishes. After a `drop_previous` rotation
/// through one node, the other signed with the dropped key for about 5 s (4 of 4 rounds; none of those tokens
/// ever verified); a rotation through a node that had not adopted a clock move used the old clock.
@Suite(
    "Two nodes: the key that signs is the store's at that moment",
    .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
struct ClusterSigningTests {
    static func rotate(_ client: any TestClientProtocol, _ form: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/_admin/keys/rotate", method: .post,
            headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: form))
    }

    static func mint(_ client: any TestClientProtocol) async throws -> String {
        try await admin(client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","nonce":"n"}"#)
            .idToken()
    }

    static func kid(_ token: String) throws -> String { try #require(try CompactJWS(parsing: token).header["kid"]?.stringValue) }

    static func published(_ client: any TestClientProtocol) async throws -> Set<String> {
        let response = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get)
        let keys = try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue?["keys"]?.arrayValue ?? []
        return Set(keys.compactMap { $0.objectValue?["kid"]?.stringValue })
    }

    @Test("drop_previous rotations through alternating nodes: each token the other node mints at once is signed by the new key, published by both")
    func dropRotations() async throws {
        var shared = harnessConfiguration()
        shared.store = try await StoreDialect.postgres.freshLocation()
        let configuration = shared
        try await withProvider(configuration) { first, _ in
            try await withProvider(configuration) { second, _ in
                // Both nodes have read the keys (each mints once) before any rotation.
                _ = try await Self.mint(first)
                _ = try await Self.mint(second)
                for round in 1...6 {
                    let (rotating, other) = round % 2 == 1 ? (first, second) : (second, first)
                    let rotated = try await Self.rotate(rotating, "publish_delay=0&drop_previous=true")
                    #expect(rotated.status == .ok, "\(String(buffer: rotated.body))")
                    let newKid = try #require(
                        try StrictJSONParser().parse(Array(String(buffer: rotated.body).utf8)).objectValue?["kid"]?.stringValue)
                    // The other node publishes the new key at once, before it signs anything with it.
                    #expect(try await Self.published(other) == [newKid], "round \(round): the other node's JWKS lags the rotation")
                    let token = try await Self.mint(other)
                    #expect(try Self.kid(token) == newKid, "round \(round): signed by a dropped key")
                    let (publishedByFirst, publishedBySecond) = (try await Self.published(first), try await Self.published(second))
                    #expect(publishedByFirst.contains(newKid) && publishedBySecond.contains(newKid))
                }
            }
        }
    }

    @Test("a rotation through a node that has not adopted another node's clock move is scheduled on the moved clock")
    func rotationOnTheClustersClock() async throws {
        var shared = harnessConfiguration()
        shared.store = try await StoreDialect.postgres.freshLocation()
        let configuration = shared
        try await withProvider(configuration) { first, firstProvider in
            try await withProvider(configuration) { second, _ in
                _ = try await Self.mint(second)
                // An hour's move and a delay of 10 minutes: a node on its own clock would schedule the key 50
                // minutes in the moved clock's past, and no load makes 10 minutes pass during the test.
                let moved = try await admin(first, "/_admin/clock", method: .post, json: #"{"advance": 3600}"#)
                #expect(moved.status == .ok, "\(moved.object)")
                let rotated = try await Self.rotate(second, "publish_delay=600")
                #expect(rotated.status == .ok)
                let signsFrom = try #require(
                    try StrictJSONParser().parse(Array(String(buffer: rotated.body).utf8)).objectValue?["signs_from"]?.numberValue)
                // On the moved clock the new key signs 600 s after the move's time: not yet.
                #expect(Int64(signsFrom) > firstProvider.clock.now(), "on the moved clock the new key must not sign yet")
                let token = try await Self.mint(second)
                let newKid = try #require(
                    try StrictJSONParser().parse(Array(String(buffer: rotated.body).utf8)).objectValue?["kid"]?.stringValue)
                #expect(try Self.kid(token) != newKid, "the new key signs only once its 600 s have passed on the cluster's clock")
            }
        }
    }
}
