import Foundation
import Hummingbird
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

/// These tests run a real key-set server on 127.0.0.1 and count the requests it serves.
@Suite("RemoteKeySet: caching, refetch, outage and redirects against a loopback server")
struct RemoteKeySetTests {
    let factory = TokenFactory()

    func verifier(port: Int, path: String = "/jwks", clock: ManualClock, policy: RemoteKeySet.Policy = .init()) -> (TokenVerifier, RemoteKeySet) {
        let keys = RemoteKeySet(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, policy: policy, clock: clock)
        let verifier = TokenVerifier(
            configuration: VerifierConfiguration(appID: factory.appID, allowedIssuers: [factory.issuer]),
            keys: keys,
            clock: clock
        )
        return (verifier, keys)
    }

    func serverOnlyPrimary() -> KeySetServer {
        KeySetServer(keySet: TestKeys.keySet([("key-1", TestKeys.primary)]))
    }

    @Test("a warm cache answers without fetching again")
    func cacheHit() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock)
            for _ in 0..<20 { _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce)) }
            #expect(server.keySetRequests == 1)
        }
    }

    @Test("Cache-Control max-age sets the lifetime; past it the set is fetched again")
    func expiry() async throws {
        let server = serverOnlyPrimary()
        server.update { $0.cacheControl = "public, max-age=600" }
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock)
            _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            clock.advance(by: 599)
            var later = factory
            later.now = clock.now
            _ = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 1)
            clock.advance(by: 2)
            later.now = clock.now
            _ = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 2)
        }
    }

    @Test("max-age is held within the floor and the ceiling; no-store means the floor")
    func floorAndCeiling() {
        let floor: TimeInterval = 60
        let ceiling: TimeInterval = 86400
        let fallback: TimeInterval = 3600
        #expect(CacheControl(headerValues: ["max-age=5"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 60)
        #expect(CacheControl(headerValues: ["max-age=999999999"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 86400)
        #expect(CacheControl(headerValues: ["max-age=99999999999999999999999"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 86400)
        #expect(CacheControl(headerValues: ["no-store"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 60)
        #expect(CacheControl(headerValues: ["private, max-age=120"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 120)
        #expect(CacheControl(headerValues: ["max-age=-5"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 3600)
        #expect(CacheControl(headerValues: []).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 3600)
        // Leading zeros are delta-seconds too (RFC 9111): not read as 0.
        #expect(CacheControl(headerValues: ["max-age=0000000000003600"]).lifetime(floor: floor, ceiling: ceiling, fallback: 600) == 3600)
        #expect(CacheControl(headerValues: ["max-age=0"]).lifetime(floor: floor, ceiling: ceiling, fallback: fallback) == 60)
    }

    @Test("a Cache-Control header of junk (directives that are only '=') is ignored, not a crash")
    func junkCacheControl() {
        for header in ["=", "==", "public,==", " = , max-age=120", "max-age=", "=max-age", ",,,"] {
            let parsed = CacheControl(headerValues: [header])
            let expected: TimeInterval = header.contains("max-age=120") ? 120 : 3600
            #expect(parsed.lifetime(floor: 60, ceiling: 86400, fallback: 3600) == expected, "\(header)")
        }
    }

    @Test("a key set served with Cache-Control '=' still verifies tokens (the header is ignored)")
    func junkCacheControlFromServer() async throws {
        let server = serverOnlyPrimary()
        server.update { $0.cacheControl = "public, ==" }
        try await withLoopbackServer(server.router()) { port in
            let keys = RemoteKeySet(url: URL(string: "http://127.0.0.1:\(port)/jwks")!, clock: ManualClock(factory.now))
            let key = try await keys.key(for: "key-1")
            #expect(key.fingerprint == TestKeys.primary.publicKey.fingerprint)
        }
    }

    @Test("the floor holds against a server that says max-age=0")
    func floorAgainstServer() async throws {
        let server = serverOnlyPrimary()
        server.update { $0.cacheControl = "max-age=0" }
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock)
            for _ in 0..<5 {
                _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
                clock.advance(by: 10)
            }
            #expect(server.keySetRequests == 1)
        }
    }

    @Test("100 concurrent tokens with a new kid cause exactly one refetch, and all verify")
    func concurrentRefetch() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, keys) = verifier(port: port, clock: clock)
            _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 1)
            // Rotation: the server now publishes key-2 as well; the cool-down since the first fetch has passed.
            server.publish(TestKeys.keySet([("key-1", TestKeys.primary), ("key-2", TestKeys.secondary)]))
            server.update { $0.delay = .milliseconds(200) }
            clock.advance(by: 31)
            var rotated = factory
            rotated.key = TestKeys.secondary
            rotated.keyID = "key-2"
            rotated.now = clock.now
            let token = rotated.token()
            let nonce = rotated.nonce
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<100 {
                    group.addTask { (try? await verifier.verify(token, nonce: .exact(nonce))) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0 })
            #expect(server.keySetRequests == 2)
            #expect(keys.fetchCount == 2)
        }
    }

    @Test("a key published just after the first fetch is fetched at once: a successful scheduled fetch starts no cool-down")
    func newKeyRightAfterFirstFetch() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, keys) = verifier(port: port, clock: clock)
            _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            server.publish(TestKeys.keySet([("key-1", TestKeys.primary), ("key-2", TestKeys.secondary)]))
            clock.advance(by: 1)
            var rotated = factory
            rotated.key = TestKeys.secondary
            rotated.keyID = "key-2"
            rotated.now = clock.now
            _ = try await verifier.verify(rotated.token(), nonce: .exact(rotated.nonce))
            #expect(keys.fetchCount == 2)
            // That refetch was for an unknown kid: the next unknown kid within the cool-down is not fetched.
            var unknown = rotated
            unknown.keyID = "key-3"
            await #expect(throws: TokenVerificationError.unknownKey("key-3")) {
                try await verifier.verify(unknown.token(), nonce: .exact(unknown.nonce))
            }
            #expect(keys.fetchCount == 2)
        }
    }

    @Test("100 concurrent unknown kids cause one refetch, then the cool-down answers unknownKey without fetching")
    func unknownKidFloodAndCooldown() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock)
            _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            clock.advance(by: 31)
            server.update { $0.delay = .milliseconds(200) }
            var invented = factory
            invented.keyID = "invented"
            invented.now = clock.now
            let token = invented.token()
            let nonce = invented.nonce
            let errors = await withTaskGroup(of: TokenVerificationError?.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        do {
                            _ = try await verifier.verify(token, nonce: .exact(nonce))
                            return nil
                        } catch { return error as? TokenVerificationError }
                    }
                }
                return await group.reduce(into: [TokenVerificationError?]()) { $0.append($1) }
            }
            #expect(errors.count == 100)
            #expect(errors.allSatisfy { $0 == .unknownKey("invented") })
            #expect(server.keySetRequests == 2)
            // Within the cool-down: no fetch at all.
            clock.advance(by: 10)
            await #expect(throws: TokenVerificationError.unknownKey("invented")) {
                try await verifier.verify(token, nonce: .exact(invented.nonce))
            }
            #expect(server.keySetRequests == 2)
            // After it: one more.
            clock.advance(by: 21)
            await #expect(throws: TokenVerificationError.unknownKey("invented")) {
                try await verifier.verify(token, nonce: .exact(invented.nonce))
            }
            #expect(server.keySetRequests == 3)
        }
    }

    @Test("an outage keeps the last good set: a failing refetch does not stop verification")
    func outageKeepsLastGood() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock, policy: .init(defaultLifetime: 600))
            _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            // The set expires while the server answers 503, then garbage.
            server.update { $0.status = .serviceUnavailable }
            clock.advance(by: 601)
            var later = factory
            later.now = clock.now
            _ = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 2)
            // The failed attempt starts a cool-down: the next verification does not hammer the server.
            _ = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 2)
            server.update {
                $0.status = .ok
                $0.document = Array("<html>maintenance</html>".utf8)
            }
            clock.advance(by: 31)
            later.now = clock.now
            _ = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 3)
        }
    }

    @Test("a set with no usable key does not replace the last good set: tokens verify on, the unknown kid is refused")
    func emptySetKeepsLastGood() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, keys) = verifier(port: port, clock: clock)
            _ = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            // The provider serves an empty set; a token with a kid the cache lacks makes the verifier fetch it.
            server.update { $0.document = Array(#"{"keys":[]}"#.utf8) }
            clock.advance(by: 31)
            var invented = factory
            invented.keyID = "invented"
            invented.now = clock.now
            await #expect(throws: TokenVerificationError.unknownKey("invented")) {
                try await verifier.verify(invented.token(), nonce: .exact(invented.nonce))
            }
            #expect(server.keySetRequests == 2)
            var later = factory
            later.now = clock.now
            let verified = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(verified.keyID == "key-1", "the last good set is kept")
            #expect(keys.lastFailure?.contains("no usable RS256 key") == true, "\(keys.lastFailure ?? "no failure recorded")")
        }
    }

    @Test("a server that is gone entirely: the last good set still serves")
    func serverGone() async throws {
        let server = serverOnlyPrimary()
        let clock = ManualClock(factory.now)
        // Warm the cache while the server runs, then take the server away.
        let (verifier, keys) = try await withLoopbackServer(server.router()) { port in
            let pair = self.verifier(port: port, clock: clock, policy: RemoteKeySet.Policy(defaultLifetime: 600))
            _ = try await pair.0.verify(factory.token(), nonce: .exact(factory.nonce))
            return pair
        }
        clock.advance(by: 601)
        var later = factory
        later.now = clock.now
        let verified = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
        #expect(verified.keyID == "key-1")
        #expect(keys.fetchCount == 2)
    }

    @Test("an expired set is refreshed even for a kid it could not use (a duplicated kid, later fixed)")
    func staleUnusableRefreshes() async throws {
        let server = KeySetServer(keySet: TestKeys.keySet([("key-1", TestKeys.secondary), ("key-1", TestKeys.primary)]))
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock, policy: .init(defaultLifetime: 600))
            await #expect(throws: TokenVerificationError.ambiguousKey("key-1")) {
                try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            }
            server.publish(TestKeys.keySet([("key-1", TestKeys.primary)]))
            clock.advance(by: 601)
            var later = factory
            later.now = clock.now
            _ = try await verifier.verify(later.token(), nonce: .exact(factory.nonce))
            #expect(server.keySetRequests == 2)
        }
    }

    @Test("the immediate answer: nothing before the first fetch, the key from a fresh set, nothing once it expires")
    func immediateKey() async throws {
        let server = KeySetServer(keySet: TestKeys.keySet([("key-1", TestKeys.primary), ("dup", TestKeys.primary), ("dup", TestKeys.secondary)]))
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (_, keys) = verifier(port: port, clock: clock, policy: .init(defaultLifetime: 600))
            #expect(try keys.immediateKey(for: "key-1") == nil, "no set yet: only key(for:) can fetch one")
            #expect(server.keySetRequests == 0, "the immediate answer never fetches")
            let fetched = try await keys.key(for: "key-1")
            let immediate = try #require(try keys.immediateKey(for: "key-1"))
            #expect(immediate.components() == fetched.components())
            #expect(try keys.immediateKey(for: "key-2") == nil, "an unknown kid is left to key(for:), which may refetch")
            #expect(throws: KeyResolutionError.ambiguousKey("dup")) { try keys.immediateKey(for: "dup") }
            #expect(try keys.immediateKey(for: "key-1\u{0}") == nil)
            clock.advance(by: 601)
            #expect(try keys.immediateKey(for: "key-1") == nil, "an expired set is left to key(for:), which refreshes it")
            #expect(server.keySetRequests == 1)
        }
    }

    @Test("a static set answers at once, with the same errors as key(for:)")
    func staticImmediateKey() throws {
        let keys = StaticKeySet(TestKeys.keySet([("key-1", TestKeys.primary)]))
        #expect(try keys.immediateKey(for: "key-1") != nil)
        #expect(throws: KeyResolutionError.unknownKey("key-2")) { try keys.immediateKey(for: "key-2") }
    }

    @Test("with no good set ever fetched, the failure says why: keySetUnavailable")
    func neverFetched() async throws {
        let server = serverOnlyPrimary()
        server.update { $0.status = .internalServerError }
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock)
            await #expect(throws: TokenVerificationError.keySetUnavailable("http://127.0.0.1:\(port)/jwks: the server answered HTTP 500")) {
                try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            }
        }
    }

    @Test("a redirect is refused, not followed")
    func redirectRefused() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, path: "/redirect", clock: clock)
            await #expect(
                throws: TokenVerificationError.keySetUnavailable(
                    "http://127.0.0.1:\(port)/redirect: the server answered 302 redirecting to /jwks; redirects are not followed")
            ) {
                try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            }
            #expect(server.keySetRequests == 0)
        }
    }

    @Test("an oversized key-set document is refused")
    func oversized() async throws {
        let server = serverOnlyPrimary()
        server.update { $0.document = Array(#"{"keys":[],"pad":""#.utf8) + [UInt8](repeating: 0x61, count: 600_000) + Array(#""}"#.utf8) }
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let (verifier, _) = verifier(port: port, clock: clock)
            await #expect(throws: TokenVerificationError.keySetUnavailable("http://127.0.0.1:\(port)/jwks: the document is larger than 524288 bytes"))
            {
                try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            }
        }
    }

    @Test("a policy with a NaN or infinite timeout is bounded instead of trapping")
    func boundedTimeout() {
        #expect(RemoteKeySet.Policy(requestTimeout: .infinity).requestTimeout == 10)
        #expect(RemoteKeySet.Policy(requestTimeout: .nan).requestTimeout == 10)
        #expect(RemoteKeySet.Policy(requestTimeout: 1e12).requestTimeout == 3600)
        #expect(RemoteKeySet.Policy(requestTimeout: -5).requestTimeout == 0.001)
        _ = RemoteKeySet(url: URL(string: "https://keys.example.test/jwks")!, policy: .init(requestTimeout: .infinity))
    }

    @Test("plain http to a non-loopback host is refused without a request, a name that begins with 127. included")
    func insecureURL() async {
        for url in ["http://keys.example.test/jwks", "http://127.example.test/jwks", "http://127.0.0.1.example.test/jwks"] {
            let keys = RemoteKeySet(url: URL(string: url)!, clock: ManualClock(factory.now))
            await #expect(
                throws: KeyResolutionError.keySetUnavailable(
                    "\(url): \(url) is not https (plain http is allowed only to a loopback address)")
            ) {
                try await keys.key(for: "key-1")
            }
        }
    }

    @Test("loopback for plain http: localhost, ::1 and 127.0.0.0/8 as four numbers, nothing else")
    func loopbackHosts() {
        for url in [
            "http://localhost/jwks", "http://127.0.0.1:8080/jwks", "http://127.1.2.3/jwks", "http://[::1]:80/jwks", "https://keys.example.test/jwks",
        ] {
            #expect(DocumentFetcher.isAcceptable(URL(string: url)!), "\(url)")
        }
        for url in [
            "http://127.example.test/jwks", "http://127.0.0.1.nip.io/jwks", "http://127.0.0.256/jwks", "http://127.0.0/jwks",
            "http://127..0.1/jwks", "http://128.0.0.1/jwks", "http://127.0.0.1.5/jwks", "http://1270.0.0.1/jwks", "ftp://127.0.0.1/jwks",
        ] {
            #expect(!DocumentFetcher.isAcceptable(URL(string: url)!), "\(url)")
        }
    }

    @Test("the provider preset reads issuer and key set from a discovery document")
    func discoveryPreset() async throws {
        let server = serverOnlyPrimary()
        try await withLoopbackServer(server.router()) { port in
            let clock = ManualClock(factory.now)
            let verifier = try await TokenVerifier.provider(
                discoveryURL: URL(string: "http://127.0.0.1:\(port)/.well-known/openid-configuration")!,
                appID: factory.appID, clock: clock
            )
            #expect(verifier.configuration.allowedIssuers == ["https://issuer.test"])
            let verified = try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
            #expect(verified.claims.iss == "https://issuer.test")
            var other = factory
            other.issuer = "https://www.facebook.com"
            await #expect(throws: TokenVerificationError.issuerNotAllowed("https://www.facebook.com")) {
                try await verifier.verify(other.token(), nonce: .exact(factory.nonce))
            }
        }
    }

    @Test("the real-service preset points at limited.facebook.com with its three issuers")
    func facebookPreset() {
        let verifier = TokenVerifier.facebook(appID: "42")
        #expect(verifier.configuration.appID == "42")
        #expect(verifier.configuration.allowedIssuers.count == 3)
        #expect((verifier.keys as? RemoteKeySet)?.url.absoluteString == "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
    }
}
