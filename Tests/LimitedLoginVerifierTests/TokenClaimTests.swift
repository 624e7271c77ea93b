import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

@Suite("Verifier: the claims (docs/BEHAVIOUR.md, section 8, rule 5)")
struct TokenClaimTests {
    let fixture = VerifierFixture()

    func token(_ change: (inout JSONObject) -> Void) -> String { fixture.factory.token(change) }

    @Test("each required claim missing: missingClaim", arguments: ["iss", "aud", "sub", "jti", "nonce", "iat", "exp"])
    func missing(name: String) async {
        #expect(await fixture.failure(token { $0[name] = nil }) == .missingClaim(name))
    }

    @Test("each required claim of the wrong type: invalidClaimType", arguments: ["iss", "aud", "sub", "jti", "nonce", "iat", "exp"])
    func wrongType(name: String) async {
        let isDate = name == "iat" || name == "exp"
        let value: JSONValue = isDate ? "1800000000" : ["1234567890"]
        #expect(await fixture.failure(token { $0[name] = value }) == .invalidClaimType(name, expected: isDate ? "number" : "string"))
    }

    @Test("sub, jti and the other string claims empty: emptyClaim", arguments: ["iss", "aud", "sub", "jti", "nonce"])
    func empty(name: String) async {
        #expect(await fixture.failure(token { $0[name] = "" }) == .emptyClaim(name))
    }

    @Test(
        "an issuer outside the exact allow-list, including look-alikes: issuerNotAllowed",
        arguments: [
            "https://issuer.test/", "https://issuer.test.attacker.test", "https://evil-issuer.test", "http://issuer.test",
            "HTTPS://ISSUER.TEST", "https://issuer.test ", "issuer.test",
        ])
    func issuer(value: String) async {
        #expect(await fixture.failure(token { $0["iss"] = .string(value) }) == .issuerNotAllowed(value))
    }

    @Test("the real service's issuers are exactly three, and a suffix never matches")
    func facebookIssuers() async throws {
        let verifier = TokenVerifier(
            configuration: .facebook(appID: fixture.factory.appID),
            keys: StaticKeySet(TestKeys.keySet([("key-1", TestKeys.primary)])),
            clock: fixture.clock
        )
        for issuer in ["https://www.facebook.com", "https://facebook.com", "https://limited.facebook.com"] {
            var factory = fixture.factory
            factory.issuer = issuer
            #expect(try await verifier.verify(factory.token(), nonce: .exact(factory.nonce)).claims.iss == issuer)
        }
        var factory = fixture.factory
        factory.issuer = "https://www.facebook.com.attacker.test"
        await #expect(throws: TokenVerificationError.issuerNotAllowed("https://www.facebook.com.attacker.test")) {
            try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
        }
    }

    @Test("an audience that is another app, or an array: the audience errors")
    func audience() async {
        #expect(await fixture.failure(token { $0["aud"] = "999" }) == .audienceMismatch(expected: "1234567890", actual: "999"))
        #expect(await fixture.failure(token { $0["aud"] = "1234567890 " }) == .audienceMismatch(expected: "1234567890", actual: "1234567890 "))
        #expect(await fixture.failure(token { $0["aud"] = ["1234567890"] }) == .invalidClaimType("aud", expected: "string"))
    }

    @Test("issuer and audience match byte for byte, not by Unicode canonical equivalence")
    func exactMatching() async {
        // U+212A KELVIN SIGN is canonically equivalent to "K": Swift's == would let it through.
        let verifier = TokenVerifier(
            configuration: VerifierConfiguration(appID: "K42", allowedIssuers: ["https://K.test"]),
            keys: StaticKeySet(TestKeys.keySet([("key-1", TestKeys.primary)])),
            clock: fixture.clock
        )
        var factory = fixture.factory
        factory.issuer = "https://\u{212A}.test"
        factory.appID = "K42"
        await #expect(throws: TokenVerificationError.issuerNotAllowed("https://\u{212A}.test")) {
            try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
        }
        factory.issuer = "https://K.test"
        factory.appID = "\u{212A}42"
        await #expect(throws: TokenVerificationError.audienceMismatch(expected: "K42", actual: "\u{212A}42")) {
            try await verifier.verify(factory.token(), nonce: .exact(factory.nonce))
        }
    }

    @Test("iss, aud and nonce are compared after unescaping, where they lie in the payload; one byte off still fails")
    func escapedValues() async throws {
        let factory = fixture.factory
        // Every character of the value as a \u escape: the token says the same thing in other bytes.
        func escaped(_ value: String) -> String { value.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() }
        func token(_ name: String, _ spelling: String) -> String {
            var claims = factory.claims
            claims[name] = nil
            var text = String(decoding: JSONSerializer.serialize(.object(claims)), as: UTF8.self)
            text.removeLast()
            return factory.token(headerText: factory.headerText, payloadText: text + #","\#(name)":"\#(spelling)"}"#)
        }
        for (name, value) in [("iss", factory.issuer), ("aud", factory.appID), ("nonce", factory.nonce)] {
            let verified = try await fixture.verifier.verify(token(name, escaped(value)), nonce: .exact(factory.nonce))
            #expect(verified.claims.iss == factory.issuer && verified.claims.aud == factory.appID && verified.claims.nonce == factory.nonce)
        }
        let wrongLast = { (value: String) in escaped(String(value.dropLast())) + "\\u0021" }
        #expect(await fixture.failure(token("iss", wrongLast(factory.issuer))) == .issuerNotAllowed(String(factory.issuer.dropLast()) + "!"))
        #expect(
            await fixture.failure(token("aud", wrongLast(factory.appID)))
                == .audienceMismatch(expected: factory.appID, actual: String(factory.appID.dropLast()) + "!"))
        #expect(await fixture.failure(token("nonce", wrongLast(factory.nonce))) == .nonceMismatch)
    }

    @Test("expiry: within the 60 s leeway passes, beyond it is expired")
    func expiry() async {
        let now = fixture.clock.now
        // Issued ten minutes before it expires: exp must be after iat.
        func expiring(_ exp: Double) -> String {
            token {
                $0["exp"] = .number(exp)
                $0["iat"] = .number(exp - 600)
            }
        }
        let exp = now.timeIntervalSince1970 - 59
        #expect(await fixture.failure(expiring(exp)) == nil)
        let past = now.timeIntervalSince1970 - 61
        #expect(await fixture.failure(expiring(past)) == .expired(expiredAt: Date(timeIntervalSince1970: past), now: now))
        fixture.clock.advance(by: 3600 + 61)
        #expect(await fixture.failure(token { _ in }) == .expired(expiredAt: fixture.factory.now.addingTimeInterval(3600), now: fixture.clock.now))
    }

    @Test("exp not after iat: expiresNotAfterIssued, even when both are within the leeway of now")
    func expiresNotAfterIssued() async {
        let now = fixture.clock.now.timeIntervalSince1970
        func claims(iat: Double, exp: Double) -> String {
            token {
                $0["iat"] = .number(iat)
                $0["exp"] = .number(exp)
            }
        }
        func refusal(iat: Double, exp: Double) -> TokenVerificationError {
            .expiresNotAfterIssued(expiresAt: Date(timeIntervalSince1970: exp), issuedAt: Date(timeIntervalSince1970: iat))
        }
        // The issue's case: exp 30 s behind now and iat 30 s ahead, each within the 60 s leeway.
        #expect(await fixture.failure(claims(iat: now + 30, exp: now - 30)) == refusal(iat: now + 30, exp: now - 30))
        // Equal times: a lifetime of zero.
        #expect(await fixture.failure(claims(iat: now - 1, exp: now - 1)) == refusal(iat: now - 1, exp: now - 1))
        // A second, or a quarter of one, after iat is a (short) valid lifetime.
        #expect(await fixture.failure(claims(iat: now - 2, exp: now - 1)) == nil)
        #expect(await fixture.failure(claims(iat: now - 0.5, exp: now - 0.25)) == nil)
        // The clock checks come first: a token that is expired, or from the future, beyond the leeway says so.
        #expect(
            await fixture.failure(claims(iat: now - 100, exp: now - 200))
                == .expired(expiredAt: Date(timeIntervalSince1970: now - 200), now: fixture.clock.now))
        #expect(
            await fixture.failure(claims(iat: now + 300, exp: now + 200))
                == .issuedInFuture(issuedAt: Date(timeIntervalSince1970: now + 300), now: fixture.clock.now))
        // And the issuer and audience before them: a token for someone else says so.
        #expect(
            await fixture.failure(
                token {
                    $0["aud"] = "999"
                    $0["iat"] = .number(now)
                    $0["exp"] = .number(now)
                })
                == .audienceMismatch(expected: fixture.factory.appID, actual: "999"))
        #expect(refusal(iat: now, exp: now).code == "expires_not_after_issued")
        #expect(refusal(iat: now, exp: now).description.hasSuffix(#"such a token was never valid: the issuer must set "exp" after "iat""#))
    }

    @Test("exp not after iat is refused whatever the leeway, even a day of it")
    func expiresNotAfterIssuedIgnoresLeeway() async throws {
        let factory = fixture.factory
        let verifier = TokenVerifier(
            configuration: VerifierConfiguration(appID: factory.appID, allowedIssuers: [factory.issuer], leeway: 86400),
            keys: StaticKeySet(TestKeys.keySet([("key-1", TestKeys.primary)])),
            clock: fixture.clock
        )
        let now = fixture.clock.now.timeIntervalSince1970
        let backwards = factory.token {
            $0["iat"] = .number(now + 3600)
            $0["exp"] = .number(now - 3600)
        }
        await #expect(
            throws: TokenVerificationError.expiresNotAfterIssued(
                expiresAt: Date(timeIntervalSince1970: now - 3600), issuedAt: Date(timeIntervalSince1970: now + 3600)
            )
        ) {
            try await verifier.verify(backwards, nonce: .exact(factory.nonce))
        }
        // The same leeway lets through a consistent token an hour past its exp: the leeway is not what refuses.
        let late = factory.token {
            $0["iat"] = .number(now - 7200)
            $0["exp"] = .number(now - 3600)
        }
        #expect(try await verifier.verify(late, nonce: .exact(factory.nonce)).claims.sub == "1029384756")
    }

    @Test("issued in the future beyond leeway: issuedInFuture")
    func future() async {
        let now = fixture.clock.now
        #expect(await fixture.failure(token { $0["iat"] = .number(now.timeIntervalSince1970 + 59) }) == nil)
        let future = now.timeIntervalSince1970 + 61
        #expect(
            await fixture.failure(token { $0["iat"] = .number(future) }) == .issuedInFuture(issuedAt: Date(timeIntervalSince1970: future), now: now))
    }

    @Test("issued longer ago than the maximum age, even if not expired: issuedTooLongAgo")
    func tooOld() async {
        let now = fixture.clock.now
        let old = now.timeIntervalSince1970 - 3600 - 61
        let claimed = token {
            $0["iat"] = .number(old)
            $0["exp"] = .number(now.timeIntervalSince1970 + 86400)
        }
        #expect(await fixture.failure(claimed) == .issuedTooLongAgo(issuedAt: Date(timeIntervalSince1970: old), maximumAge: 3600))
    }

    @Test("the maximum age gets the leeway too (as exp does): 3600 + 59 s old passes, 3600 + 60.5 s does not")
    func maximumAgeBoundary() async {
        let now = fixture.clock.now.timeIntervalSince1970
        func aged(_ seconds: TimeInterval) -> String {
            token {
                $0["iat"] = .number(now - seconds)
                $0["exp"] = .number(now + 600)
            }
        }
        #expect(await fixture.failure(aged(3600 + 59)) == nil)
        #expect(await fixture.failure(aged(3600 + 60.5)) == .issuedTooLongAgo(issuedAt: Date(timeIntervalSince1970: now - 3660.5), maximumAge: 3600))
    }

    @Test("an error's text for a maximum age too large for an Int is written, not a crash")
    func hugeMaximumAgeText() {
        let error = TokenVerificationError.issuedTooLongAgo(issuedAt: Date(timeIntervalSince1970: -1e21), maximumAge: 1e19)
        #expect(error.description.hasSuffix("more than 10000000000000000000 s ago"))
    }

    @Test("fractional numeric dates are accepted")
    func fractional() async {
        let now = fixture.clock.now.timeIntervalSince1970
        #expect(
            await fixture.failure(
                token {
                    $0["iat"] = .number(now - 0.25)
                    $0["exp"] = .number(now + 3599.75)
                }) == nil)
    }
}

@Suite("Verifier: the nonce policies (docs/BEHAVIOUR.md, section 8, rule 6)")
struct NonceCheckTests {
    let fixture = VerifierFixture()

    @Test("exact: the same nonce passes, any other fails with nonceMismatch")
    func exact() async {
        let token = fixture.factory.token()
        #expect(await fixture.failure(token, nonce: .exact("nonce-7f3a")) == nil)
        #expect(await fixture.failure(token, nonce: .exact("nonce-7f3b")) == .nonceMismatch)
        #expect(await fixture.failure(token, nonce: .exact("nonce-7f3")) == .nonceMismatch)
        #expect(await fixture.failure(token, nonce: .exact("NONCE-7F3A")) == .nonceMismatch)
        #expect(await fixture.failure(token, nonce: .exact("")) == .nonceMismatch)
    }

    @Test("sha256OfRawNonce: the token carries the hex SHA-256 of the raw nonce")
    func hashed() async {
        let raw = "raw-secret-nonce"
        let hashed = NonceCheck.sha256Hex(raw)
        #expect(hashed.count == 64)
        let token = fixture.factory.token { $0["nonce"] = .string(hashed) }
        #expect(await fixture.failure(token, nonce: .sha256OfRawNonce(raw)) == nil)
        #expect(await fixture.failure(token, nonce: .sha256OfRawNonce("other")) == .nonceMismatch)
        // The raw nonce itself in the token does not pass the hashed policy, nor the hash the exact one.
        #expect(await fixture.failure(fixture.factory.token { $0["nonce"] = .string(raw) }, nonce: .sha256OfRawNonce(raw)) == .nonceMismatch)
        #expect(await fixture.failure(token, nonce: .exact(raw)) == .nonceMismatch)
        // Uppercase hex is not the convention, so it does not pass.
        #expect(
            await fixture.failure(fixture.factory.token { $0["nonce"] = .string(hashed.uppercased()) }, nonce: .sha256OfRawNonce(raw))
                == .nonceMismatch)
    }

    @Test("SHA-256 hex matches a known vector")
    func vector() {
        #expect(NonceCheck.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("notChecked: any nonce passes, but a missing one is still missingClaim")
    func notChecked() async {
        #expect(await fixture.failure(fixture.factory.token { $0["nonce"] = "anything" }, nonce: .notChecked) == nil)
        #expect(await fixture.failure(fixture.factory.token { $0["nonce"] = nil }, nonce: .notChecked) == .missingClaim("nonce"))
    }

    @Test("constant-time comparison agrees with equality")
    func constantTime() {
        #expect(constantTimeEquals("abc", "abc"))
        #expect(!constantTimeEquals("abc", "abd"))
        #expect(!constantTimeEquals("abc", "abcd"))
        #expect(!constantTimeEquals("", "a"))
        #expect(constantTimeEquals("", ""))
        // Lengths that differ by 256 must not wrap to equal.
        #expect(!constantTimeEquals(String(repeating: "a", count: 256), ""))
    }
}

@Suite("Verifier: the system clock")
struct SystemClockTests {
    @Test("reads the wall clock (coarse, to a few milliseconds), and moves forward with it")
    func wallClock() async throws {
        let before = Date()
        let first = SystemClock().now
        #expect(abs(first.timeIntervalSince(before)) < 0.1, "within a tenth of a second of Date()")
        try await Task.sleep(for: .milliseconds(50))
        let second = SystemClock().now
        #expect(second.timeIntervalSince(first) >= 0.03, "50 ms later it has moved by about that much")
        #expect(second.timeIntervalSince(first) < 30, "a loaded machine can hold a 50 ms sleep for seconds; not minutes")
    }
}
