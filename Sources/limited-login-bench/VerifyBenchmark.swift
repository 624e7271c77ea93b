import Foundation
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginProvider
import LimitedLoginVerifier

/// Full verifications per second against bare RS256 checks per second, on one token, in one run.
///
/// The full path is everything a server does with a token: size check, split, strict base64url, strict
/// JSON, header rules, key lookup in a warm ``RemoteKeySet`` (fetched once from a loopback server),
/// the signature, the claims and the nonce. The baseline is the signature check alone (SHA-256 of the
/// signing input and the RSA operation), which is the physical floor of the work.
///
/// The full path runs with the verifier's cache of verified tokens off, so every call checks the token
/// in full. With `--repeated` the cache is on (as by default): the token was seen before, so a call runs
/// the key lookup and the claim, time and nonce checks again, without the parse and the RSA check.
/// With `--distinct` the cache is on and misses: 256 tokens (each a different `jti`) in turn through a
/// cache of 2 entries, whose table of tokens seen once (64 slots) seldom keeps a token's summary for a
/// whole turn, so each call checks in full after a lookup and a note in that table (the cost of the
/// cache to tokens seen once); the bare checks take the same tokens in turn. `--cache-off` runs the same
/// without the cache.
struct VerifyBenchmark {
    var secondsPerRound: Double
    let rounds = 5
    /// Each stage's cost.
    var breakdown = false
    /// Full verifications alone, to profile.
    var fullOnly = false
    /// The same token again with the verified-token cache on, against bare RSA.
    var repeated = false
    /// 256 tokens in turn, each seen once a turn, through the cache (misses).
    var distinct = false
    /// With `distinct`: the same tokens without the cache.
    var cacheOff = false

    func run() async throws {
        let key = try RS256PrivateKey.generate(bits: 2048)
        let keySet = JSONWebKeySet(keys: [RSAJSONWebKey(publicKey: key.publicKey, keyID: "bench-key")])
        let now = Date()
        let claims: JSONObject = [
            "iss": "https://www.facebook.com", "aud": "1234567890", "sub": "1029384756", "jti": "5b1e1b2a-0d4c",
            "nonce": "bench-nonce", "iat": .number(now.timeIntervalSince1970.rounded()),
            "exp": .number(now.timeIntervalSince1970.rounded() + 3600), "name": "Ada Lovelace", "given_name": "Ada",
            "family_name": "Lovelace", "email": "ada@example.test", "picture": "https://example.test/p.jpg",
            "user_friends": ["555", "777"], "user_birthday": "12/10/1990", "user_age_range": ["min": 21],
            "user_hometown": ["id": "110", "name": "London"], "user_location": ["id": "111", "name": "Paris"],
            "user_gender": "female", "user_link": "https://example.test/ada",
        ]
        let signer = JWSSigner(privateKey: key, keyID: "bench-key")
        let token = try signer.sign(claims: claims)
        var tokens = [token]
        if distinct {
            for index in 1..<256 {
                var other = claims
                other["jti"] = .string("5b1e1b2a-\(String(index, radix: 16))")
                tokens.append(try signer.sign(claims: other))
            }
        }
        let jws = try CompactJWS(parsing: token)
        let publicKey = key.publicKey
        let allTokens = tokens

        // The key set as a provider serves it, from a bare router (the verifier caches it after the first fetch).
        let router = Router()
        let document = ByteBuffer(bytes: keySet.serialized())
        router.get("/jwks") { _, _ in Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: document)) }
        try await serveOnLoopback(responder: router.buildResponder()) { port in
            guard let url = URL(string: "http://127.0.0.1:\(port)/jwks") else { throw BenchmarkError.serverDidNotStart }
            try await measure(keySetURL: url, tokens: allTokens, jws: jws, publicKey: publicKey)
        }
    }

    /// The rounds and the breakdown, against a key set served at `keySetURL`.
    private func measure(keySetURL url: URL, tokens: [String], jws: CompactJWS, publicKey: RS256PublicKey) async throws {
        let token = tokens[0]
        let keys = RemoteKeySet(url: url)
        let repeated = self.repeated
        let distinct = tokens.count > 1
        var configuration = VerifierConfiguration.facebook(appID: "1234567890")
        // --cache-off: --distinct without the cache, to tell the cache's cost from that of cycling tokens.
        let cacheOff = self.cacheOff
        configuration.verifiedTokenCache =
            repeated ? VerifiedTokenCacheLimits() : distinct && !cacheOff ? VerifiedTokenCacheLimits(maximumEntries: 2) : .disabled
        let verifier = TokenVerifier(configuration: configuration, keys: keys)
        let label = repeated ? "repeated" : distinct && !cacheOff ? "full+cache" : "full"
        try await Self.verifyAndReadUser(verifier, token)
        // The tokens in turn (one token unless --distinct), for the full and the bare checks alike.
        let parsed = try tokens.map { try CompactJWS(parsing: $0) }
        let signatures = parsed.map(\.signature)
        let signingInputs = parsed.map(\.signingInput)
        var nextFull = 0
        var nextBare = 0
        func nextToken() -> String {
            nextFull = nextFull + 1 == tokens.count ? 0 : nextFull + 1
            return tokens[nextFull]
        }
        func bareCheck() -> Bool {
            nextBare = nextBare + 1 == tokens.count ? 0 : nextBare + 1
            return publicKey.isValidSignature(signatures[nextBare], for: signingInputs[nextBare])
        }

        if fullOnly {
            // Nothing but full verifications, for a profiler (`perf record`) to see only that path.
            let rate = try await measureAsync(seconds: secondsPerRound * 2) { try await Self.verifyAndReadUser(verifier, nextToken()) }
            print(String(format: "verify: %.0f/s \(label) (no baseline: --full-only)", rate))
            return
        }
        print(
            "verify: 2048-bit RS256 token of \(token.utf8.count) bytes, \(rounds) rounds of \(secondsPerRound) s each in alternating \(Int(Self.sliceSeconds * 1000)) ms slices of bare and \(label) checks, one thread; base64url vector blocks: \(Base64URL.vectorInstructions); verified-token cache \(repeated ? "on (the token seen before)" : distinct && !cacheOff ? "on, 2 entries, 256 distinct tokens in turn (each seen once a turn: a miss, almost never remembered)" : distinct ? "off, 256 distinct tokens in turn" : "off")"
        )
        // The bare check gets its inputs ready-made: only the hash and the RSA operation are timed. A warm-up
        // slice of each first.
        let signature = jws.signature
        let signingInput = jws.signingInput
        _ = count { bareCheck() }
        _ = try await countAsync(seconds: Self.sliceSeconds) { try await Self.verifyAndReadUser(verifier, nextToken()) }
        var fullRates: [Double] = []
        var bareRates: [Double] = []
        var roundRatios: [Double] = []
        for round in 1...rounds {
            // The round alternates short slices of bare and full checks (bare, full, full, bare, …), so a
            // change in the shared machine's speed (frequent, and often lasting less than a second) falls on
            // both sides alike and cancels out of the round's ratio.
            var bare = Tally()
            var full = Tally()
            let slice = Self.sliceSeconds
            for pair in 0..<max(1, Int(secondsPerRound / (2 * slice))) {
                let bareFirst = pair % 2 == 0
                if bareFirst { bare.add(count { bareCheck() }) }
                full.add(try await countAsync(seconds: slice) { try await Self.verifyAndReadUser(verifier, nextToken()) })
                if !bareFirst { bare.add(count { bareCheck() }) }
            }
            bareRates.append(bare.rate)
            fullRates.append(full.rate)
            roundRatios.append(full.rate / bare.rate)
            print(String(format: "  round %d: \(label) %.0f/s, bare %.0f/s, ratio %.3f", round, full.rate, bare.rate, full.rate / bare.rate))
        }
        if breakdown {
            // Each stage of the full path alone, with the same code and settings the verifier uses.
            // Each stage's best rate over 20 short samples: a stage takes well under a microsecond, and the
            // best sample is the one least disturbed by the rest of the machine.
            let cachedKey = try await keys.key(for: "bench-key")
            let json = TokenVerifier.json
            let parse = best { measure(seconds: 0.05) { _ = try? CompactJWS(parsing: token, json: json) } }
            var lookup = 0.0
            for _ in 0..<20 { lookup = max(lookup, try await measureAsync(seconds: 0.05) { _ = try await keys.key(for: "bench-key") }) }
            let bareCached = measure(seconds: 1) { _ = cachedKey.isValidSignature(signature, for: signingInput) }
            let claimsRate = best { measure(seconds: 0.05) { _ = try? AuthenticationTokenClaims(document: jws.payloadDocument) } }
            let verifiedClaims = try await verifier.verify(token, nonce: .exact("bench-nonce")).claims
            let everyClaimRate = best { measure(seconds: 0.05) { if Self.readEveryClaim(verifiedClaims) == 0 { fatalError("no claims") } } }
            let segments = token.split(separator: ".").map(String.init)
            let b64 = best { measure(seconds: 0.05) { _ = try? Base64URL.decode(segments[1]) } }
            let payloadBytes = jws.payloadBytes
            let jsonRate = best { measure(seconds: 0.05) { _ = try? json.document(payloadBytes) } }
            var bestFull = 0.0
            for _ in 0..<20 {
                bestFull = max(bestFull, try await measureAsync(seconds: 0.05) { try await Self.verifyAndReadUser(verifier, token) })
            }
            let bestBare = best { measure(seconds: 0.05) { _ = publicKey.isValidSignature(signature, for: signingInput) } }
            print(
                String(
                    format: "  breakdown: full %.3f µs, bare %.3f µs, everything but the signature check %.3f µs",
                    1e6 / bestFull, 1e6 / bestBare, 1e6 / bestFull - 1e6 / bestBare))
            print(String(format: "  breakdown: base64url payload %.3f µs, JSON payload (validate and index) %.3f µs", 1e6 / b64, 1e6 / jsonRate))
            print(
                String(
                    format: "  breakdown: parse %.3f µs, key lookup %.3f µs, claims %.3f µs, signature with the cached JWK key %.1f µs",
                    1e6 / parse, 1e6 / lookup, 1e6 / claimsRate, 1e6 / bareCached))
            print(
                String(
                    format: "  breakdown: reading every claim of a verified token (not in the full path, which reads sub) %.3f µs",
                    1e6 / everyClaimRate))
        }
        guard keys.fetchCount == 1 else { throw BenchmarkError.cacheNotWarm(keys.fetchCount) }
        let full = median(fullRates)
        let bare = median(bareRates)
        // The ratio is the median of the rounds' ratios, the estimate least moved by drift.
        print(String(format: "verify: %.0f/s \(label), %.0f/s bare signature, ratio %.3f", full, bare, median(roundRatios)))
    }

    /// What every server does with a token: verify it, then read the user it is about (`sub`). The other
    /// claims are built only when read (`--breakdown` shows what reading all of them adds).
    private static func verifyAndReadUser(_ verifier: TokenVerifier, _ token: String) async throws {
        let verified = try await verifier.verify(token, nonce: .exact("bench-nonce"))
        if verified.claims.sub.isEmpty { throw BenchmarkError.unexpectedResponse("a verified token without sub") }
    }

    /// Reads every claim, as a server that stores the whole profile would.
    private static func readEveryClaim(_ claims: AuthenticationTokenClaims) -> Int {
        var total = claims.jti.utf8.count + claims.iss.utf8.count + claims.aud.utf8.count + claims.nonce.utf8.count
        total += claims.sub.utf8.count + (claims.name?.utf8.count ?? 0) + (claims.givenName?.utf8.count ?? 0)
        total += (claims.middleName?.utf8.count ?? 0) + (claims.familyName?.utf8.count ?? 0) + (claims.email?.utf8.count ?? 0)
        total += (claims.picture?.utf8.count ?? 0) + (claims.userFriends?.count ?? 0) + (claims.userBirthday?.utf8.count ?? 0)
        total +=
            (claims.userAgeRange?.min ?? 0) + (claims.userAgeRange?.max ?? 0) + (claims.userHometown?.name.utf8.count ?? 0)
            + (claims.userLocation?.name.utf8.count ?? 0)
        total += (claims.userGender?.utf8.count ?? 0) + (claims.userLink?.utf8.count ?? 0) + (claims.atHash?.utf8.count ?? 0)
        return total + Int(claims.exp.timeIntervalSince(claims.iat))
    }

    /// How long each slice of a round lasts.
    static let sliceSeconds = 0.025

    /// Checks done and time taken, summed over a round's slices.
    private struct Tally {
        var checks = 0
        var seconds = 0.0
        var rate: Double { Double(checks) / seconds }
        mutating func add(_ slice: (checks: Int, seconds: Double)) {
            checks += slice.checks
            seconds += slice.seconds
        }
    }

    /// Bare checks for one slice; a check that fails stops the benchmark (the token must stay valid).
    private func count(_ check: () -> Bool) -> (checks: Int, seconds: Double) {
        countSync(seconds: Self.sliceSeconds) { if !check() { fatalError("bare check failed") } }
    }

    private func countSync(seconds: Double, _ body: () -> Void) -> (checks: Int, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
        var count = 0
        while clock.now < deadline {
            for _ in 0..<16 { body() }
            count += 16
        }
        return (count, (clock.now - start).seconds)
    }

    private func countAsync(seconds: Double, _ body: () async throws -> Void) async throws -> (checks: Int, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
        var count = 0
        while clock.now < deadline {
            for _ in 0..<16 { try await body() }
            count += 16
        }
        return (count, (clock.now - start).seconds)
    }

    /// The highest of 20 rates.
    private func best(_ sample: () -> Double) -> Double { (0..<20).map { _ in sample() }.max() ?? 0 }

    private func measure(seconds: Double, _ body: () -> Void) -> Double {
        let done = countSync(seconds: seconds, body)
        return Double(done.checks) / done.seconds
    }

    private func measureAsync(seconds: Double, _ body: () async throws -> Void) async throws -> Double {
        let done = try await countAsync(seconds: seconds, body)
        return Double(done.checks) / done.seconds
    }
}

enum BenchmarkError: Error {
    case serverDidNotStart
    case cacheNotWarm(Int)
    case unexpectedResponse(String)
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
