import Testing

@testable import LimitedLoginCore

@Suite("LoginConfiguration: the rules of docs/BEHAVIOUR.md, section 1")
struct LoginConfigurationTests {
    @Test("defaults: classic tracking, a UUID nonce, rerequest, a valid PKCE verifier")
    func defaults() throws {
        let configuration = try #require(LoginConfiguration())
        #expect(configuration.tracking == .enabled)
        #expect(configuration.nonce.count == 36)
        #expect(configuration.authType == .rerequest)
        #expect(CodeVerifier.isValid(configuration.codeVerifier.value))
    }

    @Test("a limited login with every limited permission is accepted")
    func limitedAccepted() {
        #expect(LoginConfiguration(permissions: Permission.limitedSet, tracking: .limited, nonce: "abc") != nil)
    }

    @Test(
        "nonce: empty, whitespace, control and invisible characters are refused",
        arguments: [
            "", " ", "a b", "ab ", " ab", "a\tb", "a\nb", "a\rb", "a\u{0}b", "a\u{7f}b", "a\u{a0}b", "a\u{200b}b", "a\u{feff}b", "a\u{2028}b",
        ])
    func badNonces(nonce: String) {
        #expect(LoginConfiguration(nonce: nonce) == nil)
        #expect(throws: LoginConfigurationError.invalidNonce) {
            try LoginConfiguration.validate(permissions: [], tracking: .enabled, nonce: nonce)
        }
    }

    @Test("nonce: printable text of any script is accepted")
    func goodNonces() {
        for nonce in ["a", "abc-123_XYZ", "ñøñçé", "🙂", String(repeating: "x", count: 1000)] {
            #expect(LoginConfiguration(nonce: nonce) != nil)
        }
    }

    @Test("an invalid permission name is refused")
    func badPermission() {
        #expect(LoginConfiguration(permissions: [.custom("Email")]) == nil)
        #expect(throws: LoginConfigurationError.invalidPermissionName("user likes")) {
            try LoginConfiguration.validate(permissions: [.custom("user likes")], tracking: .enabled, nonce: "n")
        }
    }

    @Test("a limited login asking for a permission outside the limited set is refused")
    func limitedRefusesOthers() {
        #expect(LoginConfiguration(permissions: [.email, .userLikes], tracking: .limited) == nil)
        #expect(LoginConfiguration(permissions: [.email, .userLikes], tracking: .enabled) != nil)
        #expect(throws: LoginConfigurationError.permissionNotAllowedInLimitedLogin("user_likes")) {
            try LoginConfiguration.validate(permissions: [.userLikes], tracking: .limited, nonce: "n")
        }
        #expect(LoginConfiguration(permissions: [.custom("pages_manage_posts")], tracking: .limited) == nil)
    }

    @Test("PKCE: 43 to 128 unreserved characters; the challenge is base64url(SHA-256)")
    func pkce() throws {
        #expect(CodeVerifier(string: String(repeating: "a", count: 42)) == nil)
        #expect(CodeVerifier(string: String(repeating: "a", count: 129)) == nil)
        #expect(CodeVerifier(string: String(repeating: "a", count: 42) + "+") == nil)
        #expect(CodeVerifier(string: String(repeating: "a", count: 128)) != nil)
        // RFC 7636 appendix B.
        let verifier = try #require(CodeVerifier(string: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(verifier.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(CodeVerifier() != CodeVerifier())
    }
}
