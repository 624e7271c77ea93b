import LimitedLoginVapor
import LimitedLoginVerifier
import Vapor
import XCTVapor

/// `req.limitedLogin` on routes without the authenticator, and what happens before it is configured.
final class RequestHelperTests: XCTestCase {
    func testVerifyUsesTheApplicationsVerifierAndNoncePolicy() async throws {
        try await withApplication(nonce: .exact(fromHeader: .limitedLoginNonce)) { app in
            let game = try TestTokens.token { $0["aud"] = .string(TestTokens.gameApp) }
            try await app.test(.GET, "verify-here", headers: headers(bearer: game, nonce: TestTokens.nonce)) { res async in
                XCTAssertEqual(res.status, .ok)
                XCTAssertEqual(res.body.string, "user 1029384756 app 2222222222")
            }
            try await app.test(.GET, "verify-here", headers: headers(bearer: game)) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, "the X-Limited-Login-Nonce header is required: it carries the login's nonce")
            }
            try await app.test(.GET, "verify-here") { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, LimitedLoginAuthenticationError.missingToken.description)
            }
        }
    }

    func testVerifyingATokenFromElsewhereWithAnExplicitNonce() async throws {
        try await withApplication(nonce: .notChecked) { app in
            app.post("form") { req -> String in
                let token = try req.content.get(String.self, at: "id_token")
                return try await req.limitedLogin.verify(token, nonce: .exact("form-nonce")).appID
            }
            let token = try TestTokens.token { $0["nonce"] = "form-nonce" }
            try await app.test(.POST, "form", beforeRequest: { req in try req.content.encode(["id_token": token], as: .urlEncodedForm) }) {
                res async in
                XCTAssertEqual(res.status, .ok)
                XCTAssertEqual(res.body.string, TestTokens.iosApp)
            }
            try await app.test(
                .POST, "form", beforeRequest: { req in try req.content.encode(["id_token": try TestTokens.token()], as: .urlEncodedForm) }
            ) { res async in
                XCTAssertEqual(res.status, .unauthorized)
                XCTAssertEqual(res.reason, TokenVerificationError.nonceMismatch.description)
            }
        }
    }

    func testBeforeConfigurationVerifyIsAServerError() async throws {
        let app = try await Application.make(.testing)
        do {
            XCTAssertThrowsError(try app.limitedLogin.authenticator()) { error in
                XCTAssertEqual(error as? LimitedLoginAuthenticationError, .notConfigured)
            }
            app.get("verify-here") { req -> String in try await req.limitedLogin.verify().userID }
            try await app.test(.GET, "verify-here", headers: headers(bearer: try TestTokens.token())) { res async in
                XCTAssertEqual(res.status, .internalServerError)
                XCTAssertEqual(res.reason, LimitedLoginAuthenticationError.notConfigured.description)
            }
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
