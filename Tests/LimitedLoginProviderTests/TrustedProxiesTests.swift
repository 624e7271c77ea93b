import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginTestSupport
import NIOCore
import Testing

@testable import LimitedLoginProvider

/// Issue #59 item 3: behind a proxy, the per-address rules count the client the proxy names, never a header a
/// client sends itself.
@Suite("Trusted proxies: the client behind them")
struct TrustedProxiesTests {
    static func address(_ text: String) -> SocketAddress? { try? SocketAddress(ipAddress: text, port: 0) }

    /// The statuses of wrong admin tokens sent from 127.0.0.1 to a live provider, one per `X-Forwarded-For` value.
    static func wrongTokens(_ configuration: ProviderConfiguration, forwardedFor values: [String]) async throws -> [HTTPResponse.Status] {
        try await withLiveProvider(configuration) { _, client, _ in
            var statuses: [HTTPResponse.Status] = []
            for forwarded in values {
                statuses.append(
                    try await client.execute(
                        uri: "/_admin/keys", method: .get,
                        headers: [.authorization: "Bearer wrong-token-0000", HTTPField.Name("X-Forwarded-For")!: forwarded]
                    ).status)
            }
            return statuses
        }
    }

    @Test("ranges are read as addresses and CIDR ranges, IPv4 and IPv6; anything else is refused with why")
    func parsing() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8, 192.0.2.7", "fd00::/8", "::1"])
        #expect(proxies.contains(TrustedProxies.bytes(of: "10.200.3.4")!))
        #expect(!proxies.contains(TrustedProxies.bytes(of: "11.0.0.1")!))
        #expect(proxies.contains(TrustedProxies.bytes(of: "192.0.2.7")!) && !proxies.contains(TrustedProxies.bytes(of: "192.0.2.8")!))
        #expect(proxies.contains(TrustedProxies.bytes(of: "fd12::5")!) && !proxies.contains(TrustedProxies.bytes(of: "fe80::1")!))
        #expect(proxies.contains(TrustedProxies.bytes(of: "::ffff:10.1.1.1")!), "an IPv4-mapped address is its IPv4 address")
        #expect(throws: TrustedProxyError(description: "\"proxy.example\" is not an address or a CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, ::1/128)")) {
            try TrustedProxies(["proxy.example"])
        }
        #expect(throws: TrustedProxyError(description: "\"10.0.0.0/33\" has a prefix length that is not 0 to 32")) {
            try TrustedProxies(["10.0.0.0/33"])
        }
        #expect(throws: TrustedProxyError(description: "\"::1/x\" has a prefix length that is not 0 to 128")) { try TrustedProxies(["::1/x"]) }
    }

    @Test("the client is the rightmost address that is not a trusted proxy; from an untrusted peer, or with garbage last, the peer")
    func client() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        let proxy = Self.address("10.0.0.5")
        #expect(proxies.client(peer: proxy, forwardedFor: ["198.51.100.7"], forwarded: [])?.ipAddress == "198.51.100.7")
        // A client's own X-Forwarded-For is kept by the proxy on the left: the proxy's own entry wins.
        #expect(proxies.client(peer: proxy, forwardedFor: ["203.0.113.9, 198.51.100.7"], forwarded: [])?.ipAddress == "198.51.100.7")
        #expect(proxies.client(peer: proxy, forwardedFor: ["198.51.100.7", "10.0.0.9"], forwarded: [])?.ipAddress == "198.51.100.7")
        #expect(proxies.client(peer: proxy, forwardedFor: [], forwarded: [#"for="[2001:db8::1]:4711";proto=https"#])?.ipAddress == "2001:db8::1")
        #expect(proxies.client(peer: proxy, forwardedFor: [], forwarded: ["for=192.0.2.60:8080, for=10.1.1.1"])?.ipAddress == "192.0.2.60")
        #expect(proxies.client(peer: proxy, forwardedFor: ["198.51.100.7, not-an-address"], forwarded: [])?.ipAddress == "10.0.0.5")
        #expect(proxies.client(peer: proxy, forwardedFor: [String(repeating: "9", count: 5000)], forwarded: [])?.ipAddress == "10.0.0.5")
        #expect(proxies.client(peer: proxy, forwardedFor: [], forwarded: [])?.ipAddress == "10.0.0.5")
        let stranger = Self.address("198.51.100.99")
        #expect(proxies.client(peer: stranger, forwardedFor: ["203.0.113.1"], forwarded: [])?.ipAddress == "198.51.100.99")
        #expect(TrustedProxies.none.client(peer: proxy, forwardedFor: ["203.0.113.1"], forwarded: [])?.ipAddress == "10.0.0.5")
    }

    @Test("behind a trusted proxy, wrong admin tokens count per client: one client's guesses do not hold up another's")
    func adminCountingPerClient() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.adminTokenAttemptLimits = AdminTokenAttemptLimits(perAddress: 2, window: 600)
        configuration.trustedProxies = try TrustedProxies(["127.0.0.1"])
        let statuses = try await Self.wrongTokens(configuration, forwardedFor: ["198.51.100.1", "198.51.100.1", "198.51.100.1", "198.51.100.2"])
        // The guessing client is held at its third; another client behind the same proxy is not.
        #expect(statuses == [.forbidden, .forbidden, .tooManyRequests, .forbidden])
    }

    @Test("from a peer that is not a trusted proxy, X-Forwarded-For is ignored: a client cannot escape the count by changing it")
    func untrustedPeerHeaderIgnored() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.adminTokenAttemptLimits = AdminTokenAttemptLimits(perAddress: 2, window: 600)
        configuration.trustedProxies = try TrustedProxies(["10.0.0.0/8"])
        let statuses = try await Self.wrongTokens(configuration, forwardedFor: ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
        #expect(statuses == [.forbidden, .forbidden, .tooManyRequests])
    }
}
