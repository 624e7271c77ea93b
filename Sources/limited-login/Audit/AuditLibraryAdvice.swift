/// A JWT library or framework a backend verifies Limited Login tokens with (`audit --library NAME`): with it,
/// each hole and warning names the change in that library's own terms, beside the generic advice.
///
/// Each advice is one sentence with one code fragment in the library's language, and where it comes from (the
/// library's documentation or source, in a short form). The names in the fragments stand for the backend's
/// own values: `APP_ID` (the audience, `--app-id`), `ISSUER` (the provider's issuer), `JWKS_URL` (its key
/// set), `expected_nonce` (the nonce the app sent, or the SHA-256 hex of the raw one).
enum AuditLibrary: String, CaseIterable, Sendable {
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
    static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The library `--library` names (case does not matter), or a usage error listing the known names.
    static func named(_ name: String) throws(AuditUsageError) -> AuditLibrary {
        guard let library = AuditLibrary(rawValue: name.lowercased()) else {
            throw AuditUsageError(
                "Unknown library \"\(name)\" in --library; the known ones: \(allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return library
    }

    /// The change in this library for `auditCase`, or nil when the library has nothing specific to say (then
    /// the generic advice stands).
    func advice(for auditCase: AuditCase) -> AuditLibraryAdvice? {
        table[auditCase.adviceGroup]
    }

    /// The line the report prints for a case named `name` (an ``AuditCase``, or a resilience row): the
    /// library's advice with its source, or the generic advice when the library has none of its own.
    func adviceLine(caseName name: String, generic: String) -> String {
        if let auditCase = AuditCase(rawValue: name), let advice = advice(for: auditCase) { return advice.line }
        return "nothing specific to \(rawValue): a backend should \(generic)"
    }
}

/// One library's change for a group of cases.
struct AuditLibraryAdvice: Sendable, Equatable {
    /// One sentence holding one code fragment in backquotes.
    let text: String
    /// Where it comes from, short: "PyJWT docs, jwt.decode options".
    let source: String

    var line: String { "\(text) [\(source)]" }
}

/// Cases that one change in a library fixes together.
enum AuditAdviceGroup: String, CaseIterable, Sendable {
    case expiry, noExp, issuedAt, audience, issuer, nonce, signature, keyID, algorithm, keyHeaders, crit, typ, duplicateClaim
    case encoding, hugeToken, emptyClaims, payloadNotObject
    /// The good token: the library's setup, when it is refused.
    case goodToken
}

extension AuditCase {
    var adviceGroup: AuditAdviceGroup {
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
    private static func table(
        _ source: String, _ entries: [AuditAdviceGroup: String], sources: [AuditAdviceGroup: String] = [:]
    ) -> [AuditAdviceGroup: AuditLibraryAdvice] {
        entries.reduce(into: [:]) { table, entry in
            table[entry.key] = AuditLibraryAdvice(text: entry.value, source: sources[entry.key] ?? source)
        }
    }

    // Shared by the Python libraries that do not read these claims themselves.
    private static let pythonNonce =
        #"compare it after decoding, `hmac.compare_digest(claims.get("nonce", ""), expected_nonce)` (for a raw nonce, `hashlib.sha256(raw.encode()).hexdigest()`)"#
    private static let pythonEncoding =
        #"refuse the token before decoding unless `re.fullmatch(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", token)`"#
    private static let pythonSize = #"refuse `len(token) > 8192` before decoding"#
    private static let pythonEmpty = #"refuse an empty one after decoding, `if not claims.get("sub") or not claims.get("jti"): raise ...`"#

    // PyJWT 2.x: read in jwt/api_jwt.py and jwt/api_jws.py of 2.15.1.
    private static let pyjwtAdvice = table(
        "PyJWT docs, jwt.decode",
        [
            .goodToken:
                #"Decode with the provider's key by kid: `jwt.decode(token, jwt.PyJWKClient(JWKS_URL).get_signing_key_from_jwt(token).key, algorithms=["RS256"], audience=APP_ID, issuer=ISSUER)`."#,
            .expiry: #"Keep exp checked with a small leeway: `jwt.decode(..., leeway=60)`, never `options={"verify_exp": False}`."#,
            .noExp: #"PyJWT checks exp only when present; require it: `options={"require": ["exp", "iat", "iss", "aud", "sub"]}` in jwt.decode."#,
            .issuedAt:
                #"Require iat with `options={"require": ["iat"]}` (jwt.decode refuses one ahead of now + leeway) and bound its age yourself: `if time.time() - claims["iat"] > 3600: raise ...`."#,
            .audience: #"Pass `audience=APP_ID`, and refuse a list of audiences with `options={"strict_aud": True}`."#,
            .issuer: #"Pass `issuer=ISSUER` as one string, compared exactly (PyJWT 2.10.0 matched part of it, CVE-2024-53861: use 2.10.1 or later)."#,
            .nonce: "PyJWT never reads nonce: " + pythonNonce + ".",
            .signature:
                #"jwt.decode verifies the signature unless told not to: drop `options={"verify_signature": False}` and never trust claims from `jwt.decode_complete` or `get_unverified_header` alone."#,
            .keyID:
                #"Take the key the token's kid names from the provider's set, `jwt.PyJWKClient(JWKS_URL).get_signing_key_from_jwt(token)`: it refuses a kid the set lacks, never tries every key."#,
            .algorithm: #"Fix the algorithms yourself, `algorithms=["RS256"]`, never from `jwt.get_unverified_header(token)["alg"]`."#,
            .keyHeaders:
                #"PyJWT never follows jku or x5u nor trusts jwk or x5c: take the key only from `jwt.PyJWKClient(JWKS_URL).get_signing_key_from_jwt(token)`."#,
            .crit: #"PyJWT 2.15 refuses a crit it does not implement; on older versions refuse `"crit" in jwt.get_unverified_header(token)`."#,
            .typ: #"PyJWT does not check typ: refuse unless `jwt.get_unverified_header(token).get("typ") == "JWT"`."#,
            .duplicateClaim:
                #"Subclass `jwt.PyJWT` and override `_decode_payload` to parse with `json.loads(decoded["payload"], object_pairs_hook=...)` refusing a name twice."#,
            .encoding: "PyJWT's base64url decoding is lenient: " + pythonEncoding + ".",
            .hugeToken: "PyJWT has no size limit: " + pythonSize + ".",
            .emptyClaims: #"`require` refuses only a missing claim: "# + pythonEmpty + ".",
            .payloadNotObject:
                #"jwt.decode refuses a payload that is not an object (DecodeError): read claims only from what `jwt.decode(...)` returns."#,
        ],
        sources: [
            .issuer: "PyJWT changelog 2.10.1, GHSA-75c5-xw7c-p5pm", .crit: "PyJWT source, PyJWS._validate_crit",
            .duplicateClaim: "PyJWT source, PyJWT._decode_payload", .keyID: "PyJWT docs, PyJWKClient",
            .noExp: "PyJWT docs, jwt.decode options require", .audience: "PyJWT docs, jwt.decode options strict_aud",
        ])

    // Authlib 1.x's authlib.jose (deprecated for joserfc): read in authlib/jose/rfc7519 of 1.9.10.
    private static let authlibAdvice = table(
        "Authlib docs, JsonWebToken.decode and JWTClaims",
        [
            .goodToken:
                #"Decode with the provider's set and check the claims: `claims = JsonWebToken(["RS256"]).decode(token, JsonWebKey.import_key_set(jwks), claims_options=OPTIONS); claims.validate(leeway=60)`."#,
            .expiry: #"decode checks no claim at all: call `claims.validate(leeway=60)` after `jwt.decode(...)`."#,
            .noExp: #"Mark exp essential and validate: `claims_options={"exp": {"essential": True}, ...}`, then `claims.validate()`."#,
            .issuedAt:
                #"Mark iat essential (`"iat": {"essential": True}`; validate() refuses one in the future) and bound its age after validate(): `if time.time() - claims["iat"] > 3600: raise ...`."#,
            .audience:
                #"Set `"aud": {"essential": True, "value": APP_ID}` in claims_options; it passes a list holding APP_ID, so also refuse `not isinstance(claims["aud"], str)`."#,
            .issuer: #"Set `"iss": {"essential": True, "value": ISSUER}` in claims_options (compared exactly) and call `claims.validate()`."#,
            .nonce:
                #"Set `"nonce": {"essential": True, "value": expected_nonce}` in claims_options (SHA-256 hex of a raw nonce), then `claims.validate()`."#,
            .signature:
                #"decode raises BadSignatureError on a bad signature: use only the claims `jwt.decode(...)` returns, never a payload decoded by hand."#,
            .keyID:
                #"Pass the provider's set, `JsonWebKey.import_key_set(requests.get(JWKS_URL).json())`: decode picks the key by kid and refuses one the set lacks."#,
            .algorithm: #"Use `JsonWebToken(["RS256"])`, not the module's `authlib.jose.jwt`, which also takes HS256 and the other algorithms."#,
            .keyHeaders:
                #"Pass the provider's key set, not a key function reading `header["jwk"]`, `jku` or `x5u`: `jwt.decode(token, JsonWebKey.import_key_set(jwks))`."#,
            .typ: #"Authlib does not check typ: refuse unless `claims.header.get("typ") == "JWT"`."#,
            .encoding: "Authlib's base64url decoding is lenient: " + pythonEncoding + ".",
            .hugeToken: "Authlib has no size limit: " + pythonSize + ".",
            .emptyClaims:
                #"Mark both essential, `"sub": {"essential": True}, "jti": {"essential": True}`: validate() refuses an empty value as well as a missing one."#,
            .payloadNotObject: #"decode refuses a payload that is not an object (DecodeError): read claims only from `jwt.decode(...)`'s result."#,
        ],
        sources: [.expiry: "Authlib source, JWTClaims.validate", .emptyClaims: "Authlib source, BaseClaims._validate_essential_claims"])

    // python-jose 3.x (jose/jwt.py).
    private static let pythonJoseAdvice = table(
        "python-jose docs, jwt.decode options",
        [
            .goodToken:
                #"Decode with the key the token's kid names: `jwt.decode(token, key, algorithms=["RS256"], audience=APP_ID, issuer=ISSUER, options={"leeway": 60})`."#,
            .expiry: #"Keep `verify_exp` on (the default) with a small `options={"leeway": 60}`."#,
            .noExp:
                #"python-jose checks exp only when present: add `options={"require_exp": True, "require_iat": True, "require_sub": True}` to jwt.decode."#,
            .issuedAt:
                #"Add `options={"require_iat": True}` (python-jose checks only that iat is a number) and refuse `claims["iat"] > time.time() + 60 or time.time() - claims["iat"] > 3600`."#,
            .audience: #"Pass `audience=APP_ID` (a list holding APP_ID passes: refuse `not isinstance(claims["aud"], str)`)."#,
            .issuer: #"Pass `issuer=ISSUER` as one string: compared exactly."#,
            .nonce: "python-jose never reads nonce: " + pythonNonce + ".",
            .signature:
                #"jwt.decode verifies the signature: drop `options={"verify_signature": False}` and never log in from `jwt.get_unverified_claims(token)`."#,
            .keyID:
                #"Pick the key the kid names and refuse a missing one: `key = next((k for k in jwks["keys"] if k.get("kid") == jwt.get_unverified_header(token).get("kid")), None)`."#,
            .algorithm: #"Fix the algorithms, `algorithms=["RS256"]`, never from `jwt.get_unverified_header(token)["alg"]`."#,
            .keyHeaders:
                #"python-jose uses only the key you pass, `jwt.decode(token, key, ...)`: take it from the provider's set by kid, never from the header's jwk, jku, x5u or x5c."#,
            .typ: #"python-jose does not check typ: refuse unless `jwt.get_unverified_header(token).get("typ") == "JWT"`."#,
            .encoding: "python-jose's base64url decoding is lenient: " + pythonEncoding + ".",
            .hugeToken: "python-jose has no size limit: " + pythonSize + ".",
            .emptyClaims: "python-jose checks only types: " + pythonEmpty + ".",
            .payloadNotObject: #"jwt.decode refuses a payload that is not an object (JWTError): read claims only from `claims = jwt.decode(...)`."#,
        ])

    // joserfc 1.x: read in joserfc/jwt.py and joserfc/_rfc7519/claims.py of 1.8.0.
    private static let joserfcAdvice = table(
        "joserfc docs, jwt.decode and JWTClaimsRegistry",
        [
            .goodToken:
                #"Decode with the provider's set, then validate the claims: `token = jwt.decode(value, KeySet.import_key_set(jwks), algorithms=["RS256"]); registry.validate(token.claims)`."#,
            .expiry:
                #"jwt.decode checks no claim: validate after it, `JWTClaimsRegistry(leeway=60, exp={"essential": True}).validate(token.claims)`."#,
            .noExp: #"Mark exp essential: `JWTClaimsRegistry(exp={"essential": True}, iat={"essential": True}, ...).validate(token.claims)`."#,
            .issuedAt:
                #"Mark iat essential (`iat={"essential": True}`; validate refuses one in the future) and bound its age: `if time.time() - token.claims["iat"] > 3600: raise ...`."#,
            .audience:
                #"Add `aud={"essential": True, "value": APP_ID}` to the registry; a list holding APP_ID passes, so also refuse `not isinstance(token.claims["aud"], str)`."#,
            .issuer: #"Add `iss={"essential": True, "value": ISSUER}` to the registry: compared exactly."#,
            .nonce: #"Add `nonce={"essential": True, "value": expected_nonce}` to the JWTClaimsRegistry (SHA-256 hex of a raw nonce)."#,
            .signature: #"jwt.decode raises BadSignatureError: log in only from the `token.claims` it returns."#,
            .keyID: #"Pass the provider's set, `KeySet.import_key_set(requests.get(JWKS_URL).json())`: decode takes the key its kid names."#,
            .algorithm: #"Pass `algorithms=["RS256"]` to jwt.decode, never the header's alg."#,
            .keyHeaders:
                #"Pass the provider's set, `jwt.decode(value, KeySet.import_key_set(jwks), ...)`, never a key built from the header's jwk, jku, x5u or x5c."#,
            .typ: #"joserfc does not check typ here: refuse unless `token.header.get("typ") == "JWT"`."#,
            .hugeToken: "joserfc has no size limit here: " + pythonSize + ".",
            .emptyClaims:
                #"Name them in the registry, `sub={"essential": True}, jti={"essential": True}`: a claim with an option is refused when blank."#,
            .payloadNotObject: #"jwt.decode refuses a payload that is not an object (InvalidPayloadError): read claims only from `token.claims`."#,
        ])

    // jwcrypto (jwcrypto/jwt.py).
    private static let jwcryptoAdvice = table(
        "jwcrypto docs, jwt.JWT check_claims",
        [
            .goodToken:
                #"Verify with the provider's set and name every claim: `jwt.JWT(jwt=token, key=jwk.JWKSet.from_json(jwks_json), algs=["RS256"], check_claims={"iss": ISSUER, "aud": APP_ID, "exp": None, "iat": None, "sub": None})`."#,
            .expiry:
                #"List exp in check_claims, `"exp": None`: with check_claims given, a missing or past exp is refused (leeway 60 s, `token.leeway`)."#,
            .noExp: #"List exp in check_claims, `check_claims={"exp": None, ...}`: None means the claim must be present."#,
            .issuedAt:
                #"List `"iat": None` in check_claims (presence only) and refuse `claims["iat"] > time.time() + 60 or time.time() - claims["iat"] > 3600`."#,
            .audience: #"Set `"aud": APP_ID` in check_claims; a list holding APP_ID passes, so also refuse `not isinstance(claims["aud"], str)`."#,
            .issuer: #"Set `"iss": ISSUER` in check_claims: compared exactly."#,
            .nonce: #"Set `"nonce": expected_nonce` in check_claims: a claim with a value must be present and equal."#,
            .signature:
                #"Give the key when building the JWT, `jwt.JWT(jwt=token, key=keyset, ...)`: it verifies; claims read with `key=None` are unverified."#,
            .keyID: #"Pass the provider's set, `jwk.JWKSet.from_json(jwks_json)`: jwcrypto takes the key the kid names and refuses one it lacks."#,
            .algorithm: #"Pass `algs=["RS256"]` to jwt.JWT, never the header's alg."#,
            .keyHeaders:
                #"jwcrypto verifies only with the key you pass, `key=jwk.JWKSet.from_json(jwks_json)`, never a key from the header's jwk, jku, x5u or x5c."#,
            .encoding: "jwcrypto's base64url decoding is lenient: " + pythonEncoding + ".",
            .hugeToken: "jwcrypto has no size limit: " + pythonSize + ".",
            .emptyClaims: #"`"sub": None` checks presence only: "# + pythonEmpty + ".",
            .payloadNotObject: #"Always pass `check_claims={...}`: without it jwcrypto does not refuse a payload that is not a JSON object."#,
        ],
        sources: [.payloadNotObject: "jwcrypto source, JWT._check_provided_claims"])

    // python-social-auth: social-core's FacebookLimitedLogin (read in social_core/backends of 7.0.0).
    private static let socialAuthAdvice = table(
        "social-core source, OpenIdConnectAuth settings",
        [
            .goodToken:
                #"Point the backend at the provider: `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_KEY = APP_ID` and `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_OIDC_ENDPOINT = ISSUER`."#,
            .expiry:
                #"social-core checks exp through PyJWT: keep `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_JWT_LEEWAY` small and never put `"verify_exp": False` in `..._JWT_DECODE_OPTIONS`."#,
            .noExp:
                #"social-core requires exp itself (validate_required_id_token_claims): never turn off `"verify_exp"` in `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_JWT_DECODE_OPTIONS`."#,
            .issuedAt: #"Bound the token's age: `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_ID_TOKEN_MAX_AGE = 3600` (the backend's default)."#,
            .audience:
                #"Set `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_KEY = APP_ID`, and refuse a list of audiences with `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_JWT_DECODE_OPTIONS = {"strict_aud": True}`."#,
            .issuer:
                #"Set `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_ID_TOKEN_ISSUER = ISSUER` (or an OIDC_ENDPOINT whose discovery names it): PyJWT compares it exactly."#,
            .nonce:
                #"FacebookLimitedLogin ignores a nonce mismatch: subclass it and override `validate_claims` to compare `id_token["nonce"]` with the SHA-256 hex of the raw nonce the app posts (`self.data["nonce"]`)."#,
            .signature:
                #"social-core verifies the signature in `find_valid_key`: a hole means a subclass overrides it or `decode_and_validate_id_token`."#,
            .keyID:
                #"social-core tries every published key when kid is absent: override `find_valid_key` to return None when `jwt.get_unverified_header(id_token).get("kid")` is None."#,
            .algorithm: #"Keep `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_JWT_ALGORITHMS = ["RS256"]` (the default)."#,
            .keyHeaders:
                #"social-core takes keys only from the JWKS URL: set `SOCIAL_AUTH_FACEBOOK_LIMITED_LOGIN_JWKS_URI = JWKS_URL`, never a key from the token's header."#,
            .emptyClaims:
                #"Add a pipeline step before the user is made that refuses `not response.get("sub") or not response.get("jti")` (response holds the token's claims)."#,
            .payloadNotObject:
                #"PyJWT under social-core refuses it: a hole means your code reads the payload itself rather than the `response` the pipeline gets."#,
        ])

    // django-allauth 65.x: the Facebook provider's Limited Login path (read in allauth/socialaccount of 65.22.1).
    private static let allauthAdvice = table(
        "django-allauth source, facebook flows.verify_limited_login_token",
        [
            .goodToken:
                #"allauth trusts only `FacebookProvider.limited_login_jwks_url` and issuer `https://www.facebook.com`: run the provider with `serve --tls` under those names and set the app, `SOCIALACCOUNT_PROVIDERS = {"facebook": {"APPS": [{"client_id": APP_ID, ...}]}}`."#,
            .expiry:
                #"allauth calls PyJWT with `verify_exp` and no leeway: a hole means a patched `allauth.socialaccount.internal.jwtkit.verify_and_decode`."#,
            .noExp:
                #"allauth passes PyJWT no `require`, and no setting adds it: verify first yourself, `jwt.decode(id_token, key, algorithms=["RS256"], audience=APP_ID, issuer=ISSUER, options={"require": ["exp", "iat"]})`, then hand the token to allauth."#,
            .issuedAt:
                #"allauth bounds no age: in your own check first, `options={"require": ["iat"]}` and refuse `time.time() - claims["iat"] > 3600`."#,
            .audience:
                #"allauth compares aud with the Facebook app's `client_id`: set it to APP_ID; a list of audiences passes unless you check `options={"strict_aud": True}` first yourself."#,
            .issuer:
                #"allauth compares iss exactly with `FacebookProvider.limited_login_expected_jwt_issuer`: keep it `"https://www.facebook.com"`."#,
            .nonce: "allauth's Limited Login path checks no nonce: before it, " + pythonNonce + ".",
            .signature: #"allauth verifies with PyJWT: a hole means the token reached your code some other way than `provider.verify_token`."#,
            .keyID:
                #"allauth looks the key up by kid and raises KeyError (a 500) without one: refuse `"kid" not in jwt.get_unverified_header(id_token)` before it."#,
            .algorithm:
                #"allauth passes the header's alg to PyJWT (HS256 then raises TypeError, a 500): refuse `jwt.get_unverified_header(id_token)["alg"] != "RS256"` before it."#,
            .keyHeaders: #"allauth takes keys only from `limited_login_jwks_url`: a hole means a subclass builds the key from the header."#,
            .emptyClaims:
                #"allauth's replay cache keys on jti even when empty: refuse `not claims.get("sub") or not claims.get("jti")` in your own check first."#,
            .payloadNotObject:
                #"PyJWT under allauth refuses it: a hole means your code decodes the payload itself rather than through `provider.verify_token(request, token)`."#,
        ])

    // jose for Node (panva): JWTVerifyOptions / JWTClaimVerificationOptions.
    private static let joseNodeAdvice = table(
        "jose docs, jwtVerify options",
        [
            .goodToken:
                #"Verify against the provider's set: `await jwtVerify(token, createRemoteJWKSet(new URL(JWKS_URL)), { issuer: ISSUER, audience: APP_ID, algorithms: ['RS256'] })`."#,
            .expiry: #"jwtVerify refuses a past exp: keep `clockTolerance` at a minute at most, `{ clockTolerance: 60 }`."#,
            .noExp: #"jwtVerify checks exp only when present: add `requiredClaims: ['exp', 'iat', 'sub']` to its options."#,
            .issuedAt: #"Add `maxTokenAge: '1h'`: it requires iat and refuses one too old or in the future."#,
            .audience: #"Pass `audience: APP_ID`; a list holding it passes, so also refuse `Array.isArray(payload.aud)`."#,
            .issuer: #"Pass `issuer: ISSUER`: compared exactly, and required."#,
            .nonce: #"jwtVerify never reads nonce: `if (payload.nonce !== expectedNonce) throw new Error('nonce')` after it."#,
            .signature: #"jwtVerify checks the signature: never log in from `decodeJwt(token)`, which does not."#,
            .keyID: #"Use `createRemoteJWKSet(new URL(JWKS_URL))`: it picks the key by kid and refetches once for an unknown one."#,
            .algorithm: #"Pass `algorithms: ['RS256']` to jwtVerify (it never accepts alg none)."#,
            .keyHeaders: #"Never pass `EmbeddedJWK` as the key: verify with `createRemoteJWKSet(new URL(JWKS_URL))` only."#,
            .crit: #"jwtVerify refuses a crit it does not know: drop extension names from its `crit` option."#,
            .typ: #"Add `typ: 'JWT'` to jwtVerify's options: the header must then say JWT."#,
            .emptyClaims:
                #"requiredClaims refuses only a missing claim: after jwtVerify, `if (!payload.sub || !payload.jti) throw new Error('claims')`."#,
            .payloadNotObject: #"jwtVerify refuses a payload that is not an object: read claims only from its `payload`."#,
        ],
        sources: [.keyID: "jose docs, createRemoteJWKSet", .keyHeaders: "jose docs, EmbeddedJWK"])

    // go-oidc (v3; v2's Config has the same fields).
    private static let goOIDCAdvice = table(
        "go-oidc docs, oidc.Config",
        [
            .goodToken:
                #"Verify with the provider's set: `oidc.NewVerifier(ISSUER, oidc.NewRemoteKeySet(ctx, JWKS_URL), &oidc.Config{ClientID: APP_ID}).Verify(ctx, token)`."#,
            .expiry: #"Leave `SkipExpiryCheck` false: Verify then refuses a past exp."#,
            .noExp: #"Leave `SkipExpiryCheck` false: Verify then also refuses a token without exp (a zero expiry is past)."#,
            .issuedAt:
                #"go-oidc does not judge iat: after Verify, refuse `idToken.IssuedAt.IsZero() || time.Since(idToken.IssuedAt) > time.Hour || time.Until(idToken.IssuedAt) > time.Minute`."#,
            .audience:
                #"Set `ClientID: APP_ID`, never `SkipClientIDCheck: true`; a list holding it passes, so also refuse `len(idToken.Audience) != 1`."#,
            .issuer: #"Give `oidc.NewVerifier(ISSUER, ...)` the exact issuer and never set `SkipIssuerCheck: true`."#,
            .nonce: #"Verify does not check the nonce: after it, `if idToken.Nonce != expectedNonce { return errNonce }`."#,
            .signature: #"Verify checks the signature: never set `InsecureSkipSignatureCheck` nor read claims before Verify returns."#,
            .keyID: #"Use `oidc.NewRemoteKeySet(ctx, JWKS_URL)`: it takes the key by kid and refetches the set for an unknown one."#,
            .algorithm: #"Set `SupportedSigningAlgs: []string{oidc.RS256}` (the default when empty)."#,
            .keyHeaders: #"go-oidc takes keys only from its KeySet: keep `oidc.NewRemoteKeySet(ctx, JWKS_URL)`, not a KeySet reading the header."#,
            .emptyClaims: #"Verify leaves them to you: refuse `idToken.Subject == ""`, and an empty jti read with idToken.Claims into a struct."#,
            .payloadNotObject:
                #"Verify refuses a payload that does not decode into its claims: read claims only from the `*oidc.IDToken` it returns."#,
        ])

    // golang-jwt (v5 parser options; v4 names in the text).
    private static let golangJWTAdvice = table(
        "golang-jwt v5 docs, ParserOption",
        [
            .goodToken:
                #"Parse with fixed options: `jwt.Parse(token, keyFunc, jwt.WithValidMethods([]string{"RS256"}), jwt.WithIssuer(ISSUER), jwt.WithAudience(APP_ID), jwt.WithExpirationRequired())`."#,
            .expiry: #"jwt.Parse refuses a past exp: keep the leeway small, `jwt.WithLeeway(time.Minute)`."#,
            .noExp:
                #"golang-jwt checks exp only when present: add `jwt.WithExpirationRequired()` (v4: `claims.VerifyExpiresAt(time.Now().Unix(), true)`)."#,
            .issuedAt:
                #"Add `jwt.WithIssuedAt()` (refuses an iat in the future), and refuse `iat == nil || time.Since(iat.Time) > time.Hour` with `iat, _ := token.Claims.GetIssuedAt()`."#,
            .audience:
                #"Add `jwt.WithAudience(APP_ID)` (v4: `claims.VerifyAudience(APP_ID, true)`); a list holding it passes, so also refuse `len(aud) != 1` from `token.Claims.GetAudience()`."#,
            .issuer: #"Add `jwt.WithIssuer(ISSUER)` (v4: `claims.VerifyIssuer(ISSUER, true)`): compared exactly."#,
            .nonce: #"golang-jwt never reads nonce: with `jwt.MapClaims`, refuse `claims["nonce"] != expectedNonce` after Parse."#,
            .signature: #"jwt.Parse verifies the signature: never log in from `parser.ParseUnverified(token, claims)`."#,
            .keyID:
                #"In the keyFunc, return the provider's key the kid names and an error for any other: `kid, _ := t.Header["kid"].(string); key, ok := keys[kid]; if !ok { return nil, errUnknownKey }`."#,
            .algorithm: #"Add `jwt.WithValidMethods([]string{"RS256"})`, and return only an `*rsa.PublicKey` from the keyFunc."#,
            .keyHeaders: #"The keyFunc must take keys only from the provider's set, never from `t.Header["jwk"]`, jku, x5u or x5c."#,
            .encoding: #"v5 refuses padding unless `jwt.WithPaddingAllowed()`; add `jwt.WithStrictDecoding()` to refuse non-zero unused bits."#,
            .emptyClaims: #"Refuse `sub == ""` from `sub, _ := token.Claims.GetSubject()`, and an empty jti likewise."#,
            .payloadNotObject: #"jwt.Parse refuses a payload that is not an object: read claims only from the `*jwt.Token` it returns."#,
        ])

    // ruby-jwt: JWT.decode's options (README).
    private static let rubyJWTAdvice = table(
        "ruby-jwt README, JWT.decode options",
        [
            .goodToken:
                #"Decode with the provider's set: `JWT.decode(token, nil, true, algorithms: ["RS256"], jwks: JWT::JWK::Set.new(jwks_hash), iss: ISSUER, verify_iss: true, aud: APP_ID, verify_aud: true)`."#,
            .expiry: #"JWT.decode refuses a past exp: keep `exp_leeway: 60` at most."#,
            .noExp: #"ruby-jwt checks exp only when present: add `required_claims: ["exp", "iat", "sub"]` to JWT.decode."#,
            .issuedAt:
                #"Add `verify_iat: true` (refuses an iat in the future) with `required_claims: ["iat"]`, and refuse `Time.now.to_i - payload["iat"] > 3600`."#,
            .audience: #"Add `aud: APP_ID, verify_aud: true`; a list holding it passes, so also refuse `!payload["aud"].is_a?(String)`."#,
            .issuer: #"Add `iss: ISSUER, verify_iss: true` with a String, compared exactly (a Regexp or Proc can match a prefix)."#,
            .nonce: #"ruby-jwt never reads nonce: after JWT.decode, refuse `payload["nonce"] != expected_nonce`."#,
            .signature: #"JWT.decode verifies when its third argument is true: never `JWT.decode(token, nil, false)`."#,
            .keyID:
                #"Pass `jwks:` with the provider's set: ruby-jwt picks the key by kid and refuses a token without one (unless `allow_nil_kid: true`)."#,
            .algorithm: #"Pass `algorithms: ["RS256"]`, never the header's alg."#,
            .keyHeaders: #"Take keys only from `jwks:`; never pass `x5c:` or a block reading the header's jwk or jku."#,
            .emptyClaims: #"`required_claims` refuses only a missing claim: refuse `payload["sub"].to_s.empty? || payload["jti"].to_s.empty?`."#,
            .payloadNotObject: #"Refuse a payload that is not a Hash before reading claims: `raise JWT::DecodeError unless payload.is_a?(Hash)`."#,
        ])

    // The Rust jsonwebtoken crate: Validation.
    private static let jsonwebtokenAdvice = table(
        "jsonwebtoken docs, Validation",
        [
            .goodToken:
                #"Decode with a fixed Validation: `let mut v = Validation::new(Algorithm::RS256); v.set_audience(&[APP_ID]); v.set_issuer(&[ISSUER]); decode::<Claims>(&token, &DecodingKey::from_jwk(jwk)?, &v)`."#,
            .expiry: #"Keep `validate_exp` true (the default) and `v.leeway` at 60 or less."#,
            .noExp:
                #"exp is required by default: restore it with `v.set_required_spec_claims(&["exp", "iss", "aud", "sub"])` and `validate_exp = true`."#,
            .issuedAt:
                #"jsonwebtoken does not judge iat: put `iat: u64` in your Claims struct (serde then requires it) and refuse `now - claims.iat > 3600`."#,
            .audience: #"Call `v.set_audience(&[APP_ID])`; a list holding it passes, so type `aud: String` in your Claims struct to refuse a list."#,
            .issuer: #"Call `v.set_issuer(&[ISSUER])`: compared exactly."#,
            .nonce: #"jsonwebtoken never reads nonce: put `nonce: String` in your Claims and refuse `claims.nonce != expected_nonce`."#,
            .signature: #"decode verifies the signature: never call `v.insecure_disable_signature_validation()`."#,
            .keyID: #"Take the key by kid and refuse a missing one: `let jwk = jwks.find(&decode_header(&token)?.kid.ok_or(Error)?).ok_or(Error)?`."#,
            .algorithm: #"Use `Validation::new(Algorithm::RS256)`, never `decode_header(&token)?.alg`."#,
            .keyHeaders: #"Build the DecodingKey only from the provider's JwkSet, never from the header's `jwk` or `jku`."#,
            .duplicateClaim: #"Decode into a struct with `sub: String`, not a map: serde refuses a duplicate field there."#,
            .emptyClaims: #"Refuse `claims.sub.is_empty() || claims.jti.is_empty()` after decode."#,
            .payloadNotObject:
                #"Refuse a payload segment that does not parse as `serde_json::Map<String, serde_json::Value>` before trusting its claims."#,
        ])

    // erlang-jose: it verifies signatures only; every claim is the caller's.
    private static let erlangJoseAdvice = table(
        "erlang-jose docs, jose_jwt:verify_strict/3",
        [
            .goodToken:
                #"Verify with the key the kid names: `{true, #jose_jwt{fields = Claims}, _} = jose_jwt:verify_strict(JWK, [<<"RS256">>], Token)`, then check the claims."#,
            .expiry: #"jose checks no claim: match `#{<<"exp">> := Exp} = Claims` and refuse `Exp < erlang:system_time(second) - 60`."#,
            .noExp: #"jose checks no claim: match `#{<<"exp">> := Exp} = Claims` (it fails without exp) before using the token."#,
            .issuedAt: #"Match `#{<<"iat">> := Iat} = Claims` and refuse `Now - Iat > 3600 orelse Iat > Now + 60`."#,
            .audience: #"Match the bound app ID, `#{<<"aud">> := AppId} = Claims`: only the exact string matches, never a list."#,
            .issuer: #"Match the bound issuer, `#{<<"iss">> := Issuer} = Claims`: compared exactly."#,
            .nonce: #"Match the bound nonce, `#{<<"nonce">> := ExpectedNonce} = Claims` (SHA-256 hex of a raw one)."#,
            .signature: #"verify_strict returns the claims even when the signature is bad: match `{true, JWT, _}`, never use a `{false, JWT, _}`."#,
            .keyID:
                #"Read kid with `#jose_jws{fields = #{<<"kid">> := Kid}} = jose_jwt:peek_protected(Token)` and refuse a Kid the provider's set lacks."#,
            .algorithm: #"Use `jose_jwt:verify_strict(JWK, [<<"RS256">>], Token)`, never `jose_jwt:verify/2`, which takes the header's alg."#,
            .keyHeaders:
                #"verify_strict uses only the JWK you pass: build it from the provider's set (`jose_jwk:from_map/1`), never from the header."#,
            .emptyClaims: #"Refuse `Sub =:= <<>> orelse Jti =:= <<>>` after matching them."#,
            .payloadNotObject: #"Refuse unless `is_map(Claims)` before reading any claim."#,
        ])

    // This project's middleware: TokenVerifier checks every claim; the choices are the verifier and the nonce policy.
    private static func middlewareAdvice(
        source: String, route: String, verifier: String, setup: String
    ) -> [AuditAdviceGroup: AuditLibraryAdvice] {
        let alwaysRefused = "TokenVerifier refuses this by itself: a hole means the route is not behind the middleware, " + route + "."
        return table(
            source,
            [
                .goodToken: "Trust the provider: " + verifier + ".",
                .expiry: alwaysRefused, .noExp: alwaysRefused, .signature: alwaysRefused, .algorithm: alwaysRefused,
                .keyHeaders: alwaysRefused, .payloadNotObject: alwaysRefused, .keyID: alwaysRefused,
                .issuedAt:
                    "Keep the defaults or tighten them: `VerifierConfiguration(appID: APP_ID, allowedIssuers: [ISSUER], leeway: 60, maximumTokenAge: 3600)`.",
                .audience: "Give the verifier of " + setup
                    + " only your apps, `TokenVerifier.provider(discoveryURL: url, appID: APP_ID)` (or `appIDs:`), compared exactly.",
                .issuer: "Let the verifier of " + setup
                    + " take the issuer from the provider, `TokenVerifier.provider(discoveryURL: url, appID: APP_ID)`, or `allowedIssuers: [ISSUER]`, compared exactly.",
                .nonce: "Give " + setup
                    + " a nonce policy that checks it, `nonce: .sha256OfRawNonce(fromHeader: .limitedLoginNonce)` or `.expected { ... }`, never `.notChecked`.",
                .hugeToken: "Keep `maximumTokenSize` small in `VerifierConfiguration` (16 KiB by default).",
            ],
            sources: [.goodToken: "LimitedLoginVerifier, TokenVerifier.provider", .issuedAt: "LimitedLoginVerifier, VerifierConfiguration"])
    }

    private static let hummingbirdAdvice = middlewareAdvice(
        source: "LimitedLoginHummingbird, LimitedLoginAuthenticator",
        route: "`router.group(\"api\").add(middleware: LimitedLoginAuthenticator(verifier: verifier, nonce: .sha256OfRawNonce()))`",
        verifier:
            "`let verifier = try await TokenVerifier.provider(discoveryURL: URL(string: ISSUER + \"/.well-known/openid-configuration\")!, appID: APP_ID)`",
        setup: "LimitedLoginAuthenticator(verifier:nonce:)")

    private static let vaporAdvice = middlewareAdvice(
        source: "LimitedLoginVapor, Application.limitedLogin",
        route: "`app.grouped(try app.limitedLogin.authenticator(), LimitedLoginIdentity.guardMiddleware())`",
        verifier: "`app.limitedLogin.use(verifier: try await TokenVerifier.provider(discoveryURL: url, appID: APP_ID), nonce: .sha256OfRawNonce())`",
        setup: "app.limitedLogin.use(verifier:nonce:)")
}
