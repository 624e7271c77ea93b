import LimitedLoginVapor
import LimitedLoginVerifier
import Vapor
import XCTVapor

/// The nonce policy every Vapor server chooses: each accepts the token whose nonce fits and refuses the
/// others with the precise reason.
final class NoncePolicyTests: XCTestCase {
    func testExactFromHeader() async throws {
        try await withApplication(nonce: .exact(fromHeader: .limitedLoginNonce)) { app in
            let token = try TestTokens.token()
            try await app.test(.GET, "me", headers: headers(bearer: token, nonce: "other")) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, TokenVerificationError.nonceMismatch.description)
            }
            for missing in [nil, ""] {
                try await app.test(.GET, "me", headers: headers(bearer: token, nonce: missing)) { res async in
                    XCTAssertEqual(res.status, .unauthorized)
                    XCTAssertEqual(res.challenge, #"Bearer realm="limited-login", error="invalid_request""#)
                    XCTAssertEqual(res.reason, "the X-Limited-Login-Nonce header is required: it carries the login's nonce")
                }
            }
        }
    }

    /// Issue #31: the same rule as the Hummingbird middleware (`RequestTokenHeaders` in the verifier): a repeated
    /// `Authorization` or nonce header is refused, even when its first value is right; so is a malformed one.
    func testRepeatedOrMalformedHeadersAreRefusedByTheSharedRule() async throws {
        try await withApplication(nonce: .exact(fromHeader: .limitedLoginNonce)) { app in
            let token = try TestTokens.token()
            var twoNonces = headers(bearer: token, nonce: TestTokens.nonce)
            twoNonces.add(name: .limitedLoginNonce, value: "other")
            var twoTokens = headers(bearer: token, nonce: TestTokens.nonce)
            twoTokens.add(name: .authorization, value: "Bearer \(token)")
            var basic = HTTPHeaders()
            basic.add(name: .authorization, value: "Basic YTpi")
            let cases: [(HTTPHeaders, String)] = [
                (twoNonces, "the X-Limited-Login-Nonce header must be sent once, not more than once"),
                (twoTokens, "the Authorization header must be sent once, not more than once"),
                (basic, "the Authorization header must be \"Bearer <ID token>\""),
            ]
            for (sent, reason) in cases {
                for path in ["me", "optional"] {
                    try await app.test(.GET, path, headers: sent) { res async in
                        XCTAssertEqual(res.status, .unauthorized, "\(path)")
                        XCTAssertEqual(res.challenge, #"Bearer realm="limited-login", error="invalid_request""#, "\(path)")
                        XCTAssertEqual(res.reason, reason, "\(path)")
                    }
                }
            }
        }
    }

    func testSHA256OfRawNonceFromHeader() async throws {
        let raw = "raw-secret-42"
        let token = try TestTokens.token { $0["nonce"] = .string(NonceCheck.sha256Hex(raw)) }
        try await withApplication(nonce: .sha256OfRawNonce(fromHeader: .limitedLoginNonce)) { app in
            try await app.test(.GET, "me", headers: headers(bearer: token, nonce: raw)) { res async in
                XCTAssertEqual(res.status, .ok)
            }
            // The hash is what the token shows; whoever holds only the token cannot send the raw nonce.
            try await app.test(.GET, "me", headers: headers(bearer: token, nonce: NonceCheck.sha256Hex(raw))) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, TokenVerificationError.nonceMismatch.description)
            }
        }
    }

    func testExpectedFromTheServersOwnState() async throws {
        // A stand-in for a session store: the nonce the server issued to each client.
        let issued = ["client-a": TestTokens.nonce]
        let policy = LimitedLoginNoncePolicy.expected { req in
            req.headers.first(name: "X-Client").flatMap { issued[$0] }.map { .exact($0) }
        }
        try await withApplication(nonce: policy) { app in
            var known = headers(bearer: try TestTokens.token())
            known.add(name: "X-Client", value: "client-a")
            try await app.test(.GET, "me", headers: known) { res async in XCTAssertEqual(res.status, .ok) }
            var unknown = headers(bearer: try TestTokens.token())
            unknown.add(name: "X-Client", value: "client-b")
            try await app.test(.GET, "me", headers: unknown) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, "the request has no nonce to check the ID token against")
            }
            var stolen = headers(bearer: try TestTokens.token { $0["nonce"] = "another-login" })
            stolen.add(name: "X-Client", value: "client-a")
            try await app.test(.GET, "me", headers: stolen) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, TokenVerificationError.nonceMismatch.description)
            }
        }
    }

    func testNotCheckedWrittenOutAcceptsAnyNonce() async throws {
        try await withApplication(nonce: .notChecked) { app in
            try await app.test(.GET, "me", headers: headers(bearer: try TestTokens.token { $0["nonce"] = "anything" })) { res async in
                XCTAssertEqual(res.status, .ok)
            }
        }
    }
}
