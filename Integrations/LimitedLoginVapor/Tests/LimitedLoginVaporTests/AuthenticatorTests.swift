import LimitedLoginVapor
import LimitedLoginVerifier
import Vapor
import XCTVapor

/// The bearer authenticator in a real Vapor application, with real tokens checked against keys served over
/// loopback: who gets through, and the precise reason for everyone who does not.
final class AuthenticatorTests: XCTestCase {
    func testTokenForEitherAppReachesTheRouteNamingTheApp() async throws {
        try await withApplication(nonce: .exact(fromHeader: .limitedLoginNonce)) { app in
            try await app.test(.GET, "me", headers: headers(bearer: try TestTokens.token(), nonce: TestTokens.nonce)) { res async in
                XCTAssertEqual(res.status, .ok)
                XCTAssertEqual(res.body.string, "user 1029384756 app 1234567890")
            }
            let game = try TestTokens.token { $0["aud"] = .string(TestTokens.gameApp) }
            try await app.test(.GET, "me", headers: headers(bearer: game, nonce: TestTokens.nonce)) { res async in
                XCTAssertEqual(res.status, .ok)
                XCTAssertEqual(res.body.string, "user 1029384756 app 2222222222")
            }
        }
    }

    func testNoTokenIsRefusedWhereAPersonIsRequiredAndPassesWhereNot() async throws {
        try await withApplication(nonce: .exact(fromHeader: .limitedLoginNonce)) { app in
            try await app.test(.GET, "me") { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.challenge, #"Bearer realm="limited-login""#)
                XCTAssertEqual(res.reason, "an Authorization: Bearer <ID token> header is required")
            }
            try await app.test(.GET, "optional") { res async in
                XCTAssertEqual(res.status, .ok)
                XCTAssertEqual(res.body.string, "anonymous")
            }
        }
    }

    func testTokenForAnotherAppIsRefusedAsNotAllowed() async throws {
        try await withApplication(nonce: .notChecked) { app in
            let other = try TestTokens.token { $0["aud"] = "999" }
            try await app.test(.GET, "me", headers: headers(bearer: other)) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.challenge, #"Bearer realm="limited-login", error="invalid_token""#)
                XCTAssertEqual(
                    res.reason,
                    TokenVerificationError.audienceNotAllowed(actual: "999", allowed: [TestTokens.iosApp, TestTokens.gameApp]).description)
            }
            // Refused at the authenticator: a route that does not require a person is not reached either.
            try await app.test(.GET, "optional", headers: headers(bearer: other)) { res async in
                XCTAssertEqual(res.status, .unauthorized)
            }
        }
    }

    func testForgedExpiredAndStrangerSignedTokensAreRefusedWithTheirReasons() async throws {
        var parts = try TestTokens.token().split(separator: ".").map(String.init)
        parts[1] = try TestTokens.token { $0["sub"] = "mallory" }.split(separator: ".").map(String.init)[1]
        let now = Date().timeIntervalSince1970
        let cases: [(String, TokenVerificationError)] = [
            (parts.joined(separator: "."), .invalidSignature),
            (try TestTokens.token(signedBy: TestTokens.strangerKey), .invalidSignature),
            (try TestTokens.token { $0["iss"] = "https://evil.test" }, .issuerNotAllowed("https://evil.test")),
            (try TestTokens.token { $0["aud"] = .array([.string(TestTokens.iosApp)]) }, .invalidClaimType("aud", expected: "string")),
        ]
        try await withApplication(nonce: .notChecked) { app in
            for (token, error) in cases {
                try await app.test(.GET, "me", headers: headers(bearer: token)) { res async in
                    XCTAssertEqual(res.status, .unauthorized)
                    XCTAssertEqual(res.challenge, #"Bearer realm="limited-login", error="invalid_token""#)
                    XCTAssertEqual(res.reason, error.description)
                }
            }
            let expired = try TestTokens.token {
                $0["iat"] = .number(now - 7200)
                $0["exp"] = .number(now - 3600)
            }
            try await app.test(.GET, "me", headers: headers(bearer: expired)) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertTrue(res.reason?.hasPrefix("the token expired at ") ?? false, "\(res.reason ?? "")")
            }
        }
    }

    func testUnreachableKeySetIsServiceUnavailableNotARefusal() async throws {
        let nowhere = try XCTUnwrap(URL(string: "http://127.0.0.1:9/jwks"))
        try await withApplication(nonce: .notChecked, keySetURL: nowhere) { app in
            try await app.test(.GET, "me", headers: headers(bearer: try TestTokens.token())) { res async in
                XCTAssertEqual(res.status, .serviceUnavailable)
                XCTAssertNil(res.challenge)
                XCTAssertTrue(res.reason?.hasPrefix("the key set could not be fetched: http://127.0.0.1:9/jwks") ?? false, "\(res.reason ?? "")")
            }
        }
    }
}
