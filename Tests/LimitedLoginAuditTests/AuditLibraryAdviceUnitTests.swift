import Testing

@testable import LimitedLoginAudit

/// Each library's advice, read from the audit's library directly (the runs with `--library` are in the CLI's suite).
@Suite("Audit: advice per library")
struct AuditLibraryAdviceUnitTests {
    /// The cases whose acceptance is a hole: every library must name its own change for each.
    static let mustRefuse = AuditCase.allCases.filter { $0.severity == .mustRefuse }

    @Test("every library has its own advice for every must-refuse case, and for the good token", arguments: AuditLibrary.allCases)
    func everyMustRefuseCaseAdvised(library: AuditLibrary) throws {
        for auditCase in Self.mustRefuse + [.valid] {
            let advice = try #require(library.advice(for: auditCase), "\(library.rawValue) has no advice for \(auditCase.rawValue)")
            let fragments = advice.text.filter { $0 == "`" }.count
            #expect(fragments >= 2 && fragments % 2 == 0, "\(library.rawValue) \(auditCase.rawValue): a code fragment in backquotes")
            #expect(advice.text.count <= 320, "\(library.rawValue) \(auditCase.rawValue): one short sentence")
            #expect(advice.text.hasSuffix("."), "\(library.rawValue) \(auditCase.rawValue): a sentence")
            #expect(!advice.source.isEmpty && !advice.source.contains("["), "\(library.rawValue) \(auditCase.rawValue): a short source")
            let line = library.adviceLine(caseName: auditCase.rawValue, generic: auditCase.advice)
            #expect(line == advice.text + " [" + advice.source + "]")
        }
        // Every advice the library has is well formed too, should-refuse groups included.
        for auditCase in AuditCase.allCases {
            guard let advice = library.advice(for: auditCase) else { continue }
            #expect(advice.text.filter { $0 == "`" }.count % 2 == 0, "\(library.rawValue) \(auditCase.rawValue): unbalanced backquotes")
            #expect(advice.text.count <= 320, "\(library.rawValue) \(auditCase.rawValue)")
        }
    }

    @Test("the libraries' advice differs: no library copies another's for the holes the issue names")
    func adviceIsSpecific() {
        for auditCase in [AuditCase.noExp, .wrongAudience, .wrongIssuer, .algNone, .hs256PublicKey, .jkuHeader, .wrongNonce] {
            let texts = AuditLibrary.allCases.compactMap { $0.advice(for: auditCase)?.text }
            // This project's two middlewares share their wording but for the route.
            #expect(Set(texts).count == texts.count, "\(auditCase.rawValue): two libraries share one advice")
        }
        // The facts the issue names, in each library's own terms.
        let facts: [(AuditLibrary, AuditCase, [String])] = [
            (.pyjwt, .noExp, [#""require": ["exp""#]), (.pyjwt, .audienceList, ["strict_aud"]), (.pyjwt, .algNone, [#"algorithms=["RS256"]"#]),
            (.authlib, .expired, ["claims.validate("]), (.authlib, .noExp, [#""exp": {"essential": True}"#]),
            (.pythonJose, .noExp, ["require_exp"]), (.joserfc, .noExp, ["JWTClaimsRegistry", "essential"]),
            (.jwcrypto, .noExp, [#""exp": None"#]), (.joseNode, .noExp, ["requiredClaims"]), (.joseNode, .tooOld, ["maxTokenAge"]),
            (.goOIDC, .wrongAudience, ["ClientID: APP_ID"]), (.goOIDC, .wrongNonce, ["idToken.Nonce"]),
            (.golangJWT, .noExp, ["WithExpirationRequired()"]), (.rubyJWT, .noExp, ["required_claims"]),
            (.jsonwebtokenRust, .noExp, ["set_required_spec_claims"]), (.erlangJose, .algNone, ["verify_strict"]),
            (.pythonSocialAuth, .wrongNonce, ["validate_claims"]), (.djangoAllauth, .noExp, [#""require": ["exp""#]),
            (.limitedLoginHummingbird, .wrongNonce, [".sha256OfRawNonce"]), (.limitedLoginVapor, .algNone, ["app.limitedLogin.authenticator()"]),
            // What the backends of Tests/Interop/language_backends needed beyond the first wording (the versions Debian ships).
            (.joseNode, .noExp, ["typeof payload.exp !== 'number'"]), (.golangJWT, .noExp, ["claims.VerifyExpiresAt("]),
            (.golangJWT, .nonCanonicalBase64URL, ["RawURLEncoding.Strict()"]), (.goOIDC, .missingKid, [#"KeyID == """#]),
            (.authlib, .missingKid, [#""kid" not in claims.header"#]), (.joserfc, .duplicateClaim, ["decoder_cls="]),
            (.authlib, .nonCanonicalBase64URL, ["urlsafe_b64encode(base64.urlsafe_b64decode("]), (.rubyJWT, .valid, ["kid_not_found"]),
        ]
        for (library, auditCase, needles) in facts {
            let text = library.advice(for: auditCase)?.text ?? ""
            for needle in needles { #expect(text.contains(needle), "\(library.rawValue) \(auditCase.rawValue): \(text)") }
        }
    }

    @Test("names are lowercase and hyphenated; --library takes any case; a case without advice falls back to the generic advice")
    func namesAndFallback() throws {
        for library in AuditLibrary.allCases {
            #expect(library.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(library.rawValue)")
            #expect(try AuditLibrary.named(library.rawValue.uppercased()) == library)
        }
        #expect(AuditLibrary.allCases.count == 15)
        #expect(AuditLibrary.pyjwt.advice(for: .typNotJWT) != nil)
        #expect(AuditLibrary.erlangJose.advice(for: .duplicateClaim) == nil)
        #expect(
            AuditLibrary.erlangJose.adviceLine(caseName: "duplicate-claim", generic: AuditCase.duplicateClaim.advice)
                == "nothing specific to erlang-jose: a backend should " + AuditCase.duplicateClaim.advice)
        // A resilience row is no AuditCase: the row's own advice stands.
        #expect(
            AuditLibrary.pyjwt.adviceLine(caseName: "keys-500:after", generic: "refetch") == "nothing specific to pyjwt: a backend should refetch")
        #expect(throws: AuditUsageError.self) { try AuditLibrary.named("pyjwt2") }
    }
}
