/// A JWT library or framework a backend verifies Limited Login tokens with (`audit --library NAME`): with it,
/// each hole and warning names the change in that library's own terms, beside the generic advice.
///
/// Each advice is one sentence with one code fragment in the library's language, and where it comes from (the
/// library's documentation or source, in a short form). The names in the fragments stand for the backend's
/// own values: `APP_ID` (the audience, `--app-id`), `ISSUER` (the provider's issuer), `JWKS_URL` (its key
/// set), `expected_nonce` (the nonce the app sent, or the SHA-256 hex of the raw one).
package enum AuditLibrary: String, CaseIterable, Sendable {
    case pyjwt
    case authlib
    case pythonJose = "python-jose"
    case joserfc
    case jwcrypto
    case pythonSocialAuth = "python-social-auth"
    case djangoAllauth = "django-allauth"
    case joseNode = "jose-node"
    case goOIDC = "go-oidc"
    case golangJWT = "golang-jwt"
    case rubyJWT = "ruby-jwt"
    case jsonwebtokenRust = "jsonwebtoken-rust"
    case erlangJose = "erlang-jose"
    case limitedLoginVapor = "limited-login-vapor"
    case limitedLoginHummingbird = "limited-login-hummingbird"

    /// `pyjwt|authlib|…`: every name, for the report's last hint.
    package static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The library `--library` names (case does not matter), or a usage error listing the known names.
    package static func named(_ name: String) throws(AuditUsageError) -> AuditLibrary {
        guard let library = AuditLibrary(rawValue: name.lowercased()) else {
            throw AuditUsageError(
                "Unknown library \"\(name)\" in --library; the known ones: \(allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return library
    }

    /// The change in this library for `auditCase`, or nil when the library has nothing specific to say (then
    /// the generic advice stands).
    package func advice(for auditCase: AuditCase) -> AuditLibraryAdvice? {
        table[auditCase.adviceGroup]
    }

    /// The line the report prints for a case named `name` (an ``AuditCase``, or a resilience row): the
    /// library's advice with its source, or the generic advice when the library has none of its own.
    package func adviceLine(caseName name: String, generic: String) -> String {
        if let auditCase = AuditCase(rawValue: name), let advice = advice(for: auditCase) { return advice.line }
        return "nothing specific to \(rawValue): a backend should \(generic)"
    }
}

/// One library's change for a group of cases.
package struct AuditLibraryAdvice: Sendable, Equatable {
    /// One sentence holding one code fragment in backquotes.
    package let text: String
    /// Where it comes from, short: "PyJWT docs, jwt.decode options".
    package let source: String

    package var line: String { "\(text) [\(source)]" }
}

/// Cases that one change in a library fixes together.
package enum AuditAdviceGroup: String, CaseIterable, Sendable {
    case expiry, noExp, issuedAt, audience, issuer, nonce, signature, keyID, algorithm, keyHeaders, crit, typ, duplicateClaim
    case encoding, hugeToken, emptyClaims, payloadNotObject
    /// The good token: the library's setup, when it is refused.
    case goodToken
}

extension AuditCase {
    package var adviceGroup: AuditAdviceGroup {
        switch self {
        case .valid: return .goodToken
        case .expired, .expiredPastLeeway: return .expiry
        case .noExp: return .noExp
        case .noIat, .issuedInFuture, .tooOld: return .issuedAt
        case .wrongAudience, .audienceList: return .audience
        case .wrongIssuer, .issuerPrefix, .issuerSuffix: return .issuer
        case .wrongNonce, .noNonce, .rawNonceUnhashed: return .nonce
        case .badSignature, .truncatedSignature, .paddedSignature, .signatureFromOtherToken: return .signature
        case .unknownKey, .kidNamesAnotherKey, .missingKid: return .keyID
        case .algNone, .algNoneUppercase, .hs256PublicKey, .hs256PublicKeyPEMNewline, .hs256PublicKeyDER, .hs512PublicKey, .rs512SameKey:
            return .algorithm
        case .jwkHeader, .jkuHeader, .x5uHeader, .x5cHeader: return .keyHeaders
        case .critHeader: return .crit
        case .typNotJWT: return .typ
        case .duplicateClaim: return .duplicateClaim
        case .signaturePadded, .signatureStandardBase64, .nonCanonicalBase64URL, .whitespaceInSignature, .extraSegment: return .encoding
        case .hugeToken: return .hugeToken
        case .emptySub, .emptyJti: return .emptyClaims
        case .payloadNotObject: return .payloadNotObject
        }
    }
}

extension AuditLibrary {
    private var table: [AuditAdviceGroup: AuditLibraryAdvice] {
        switch self {
        case .pyjwt: return Self.pyjwtAdvice
        case .authlib: return Self.authlibAdvice
        case .pythonJose: return Self.pythonJoseAdvice
        case .joserfc: return Self.joserfcAdvice
        case .jwcrypto: return Self.jwcryptoAdvice
        case .pythonSocialAuth: return Self.socialAuthAdvice
        case .djangoAllauth: return Self.allauthAdvice
        case .joseNode: return Self.joseNodeAdvice
        case .goOIDC: return Self.goOIDCAdvice
        case .golangJWT: return Self.golangJWTAdvice
        case .rubyJWT: return Self.rubyJWTAdvice
        case .jsonwebtokenRust: return Self.jsonwebtokenAdvice
        case .erlangJose: return Self.erlangJoseAdvice
        case .limitedLoginVapor: return Self.vaporAdvice
        case .limitedLoginHummingbird: return Self.hummingbirdAdvice
        }
    }

    /// `entries` under `source`, but where `sources` names another.
    package static func table(
        _ source: String, _ entries: [AuditAdviceGroup: String], sources: [AuditAdviceGroup: String] = [:]
    ) -> [AuditAdviceGroup: AuditLibraryAdvice] {
        entries.reduce(into: [:]) { table, entry in
            table[entry.key] = AuditLibraryAdvice(text: entry.value, source: sources[entry.key] ?? source)
        }
    }
}
