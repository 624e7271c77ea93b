/// The advice of the Node, Go, Ruby, Rust and Erlang libraries, and of this project's middleware (``AuditLibrary``).
extension AuditLibrary {
    // jose for Node (panva): JWTVerifyOptions / JWTClaimVerificationOptions.
    package static let joseNodeAdvice = table(
        "jose docs, jwtVerify options",
        [
            .goodToken:
                #"Verify against the provider's set: `await jwtVerify(token, createRemoteJWKSet(new URL(JWKS_URL)), { issuer: ISSUER, audience: APP_ID, algorithms: ['RS256'] })`."#,
            .expiry: #"jwtVerify refuses a past exp: keep `clockTolerance` at a minute at most, `{ clockTolerance: 60 }`."#,
            .noExp:
                #"jwtVerify checks exp only when present: in jose 4.15 and later add `requiredClaims: ['exp', 'iat', 'sub']` to its options; before (Debian's 4.11), `if (typeof payload.exp !== 'number') throw new Error('no exp')` after it."#,
            .issuedAt: #"Add `maxTokenAge: '1h'`: it requires iat and refuses one too old or in the future."#,
            .audience: #"Pass `audience: APP_ID`; a list holding it passes, so also refuse `Array.isArray(payload.aud)`."#,
            .issuer: #"Pass `issuer: ISSUER`: compared exactly, and required."#,
            .nonce: #"jwtVerify never reads nonce: `if (payload.nonce !== expectedNonce) throw new Error('nonce')` after it."#,
            .signature: #"jwtVerify checks the signature: never log in from `decodeJwt(token)`, which does not."#,
            .keyID:
                #"Use `createRemoteJWKSet(new URL(JWKS_URL))`: it picks the key by kid and refetches once for an unknown one, but takes a set's only key for a token without kid: refuse `typeof protectedHeader.kid !== 'string'`."#,
            .algorithm: #"Pass `algorithms: ['RS256']` to jwtVerify (it never accepts alg none)."#,
            .keyHeaders: #"Never pass `EmbeddedJWK` as the key: verify with `createRemoteJWKSet(new URL(JWKS_URL))` only."#,
            .crit: #"jwtVerify refuses a crit it does not know: drop extension names from its `crit` option."#,
            .typ: #"Add `typ: 'JWT'` to jwtVerify's options: the header must then say JWT."#,
            .emptyClaims:
                #"jwtVerify (and requiredClaims, where there is one) refuses only a missing claim: after it, `if (!payload.sub || !payload.jti) throw new Error('claims')`."#,
            .payloadNotObject: #"jwtVerify refuses a payload that is not an object: read claims only from its `payload`."#,
        ],
        sources: [.keyID: "jose docs, createRemoteJWKSet", .keyHeaders: "jose docs, EmbeddedJWK"])

    // go-oidc (v3; v2, Debian's, has the same Config fields and refetches its key set only when its max-age ends).
    package static let goOIDCAdvice = table(
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
            .signature: #"Verify checks the signature: never read claims before it returns (nor set v3's `InsecureSkipSignatureCheck`)."#,
            .keyID:
                #"`oidc.NewRemoteKeySet(ctx, JWKS_URL)` takes the key by kid but tries every key for a token without one: refuse `jws.Signatures[0].Header.KeyID == ""` from go-jose's `jose.ParseSigned(token)` before Verify."#,
            .duplicateClaim:
                #"Verify's claims go through encoding/json, which keeps the last of two names: unmarshal `jws.UnsafePayloadWithoutVerification()` after Verify with go-jose's `json` package, which refuses a name twice."#,
            .algorithm: #"Set `SupportedSigningAlgs: []string{oidc.RS256}` (the default when empty)."#,
            .keyHeaders: #"go-oidc takes keys only from its KeySet: keep `oidc.NewRemoteKeySet(ctx, JWKS_URL)`, not a KeySet reading the header."#,
            .emptyClaims: #"Verify leaves them to you: refuse `idToken.Subject == ""`, and an empty jti read with idToken.Claims into a struct."#,
            .payloadNotObject:
                #"Verify refuses a payload that does not decode into its claims: read claims only from the `*oidc.IDToken` it returns."#,
        ])

    // golang-jwt v4 (Debian's; read in 4.4.3), with v5's parser options in the text.
    package static let golangJWTAdvice = table(
        "golang-jwt v4 docs, MapClaims and Parser",
        [
            .goodToken:
                #"Parse with a fixed method, then check the claims: `token, err := jwt.NewParser(jwt.WithValidMethods([]string{"RS256"})).Parse(raw, keyFunc)`, `claims.VerifyIssuer(ISSUER, true)`, `claims.VerifyAudience(APP_ID, true)` (v5: `jwt.WithIssuer`, `jwt.WithAudience`)."#,
            .expiry: #"Parse refuses a past exp (v5: keep its leeway small, `jwt.WithLeeway(time.Minute)`)."#,
            .noExp:
                #"golang-jwt checks exp only when present: after Parse, refuse `!claims.VerifyExpiresAt(time.Now().Unix(), true)` (v5: `jwt.WithExpirationRequired()`)."#,
            .issuedAt:
                #"Refuse `!claims.VerifyIssuedAt(now.Add(time.Minute).Unix(), true)` (iat required, a minute ahead at most) and an iat over an hour old, from `claims["iat"].(float64)` (v5: `jwt.WithIssuedAt()`)."#,
            .audience:
                #"Refuse `!claims.VerifyAudience(APP_ID, true)`; a list holding it passes, so also `_, one := claims["aud"].(string)` and refuse `!one` (v5: `jwt.WithAudience(APP_ID)`, `GetAudience()`)."#,
            .issuer: #"Refuse `!claims.VerifyIssuer(ISSUER, true)`: compared exactly (v5: `jwt.WithIssuer(ISSUER)`)."#,
            .nonce: #"golang-jwt never reads nonce: with `jwt.MapClaims`, refuse `claims["nonce"] != expectedNonce` after Parse."#,
            .signature: #"Parse verifies the signature: never log in from `parser.ParseUnverified(token, claims)`."#,
            .keyID:
                #"In the keyFunc, return the provider's key the kid names and an error for any other: `kid, _ := t.Header["kid"].(string); key, ok := keys[kid]; if !ok { return nil, errUnknownKey }`."#,
            .algorithm: #"Pass `jwt.WithValidMethods([]string{"RS256"})`, and return only an `*rsa.PublicKey` from the keyFunc."#,
            .keyHeaders: #"The keyFunc must take keys only from the provider's set, never from `t.Header["jwk"]`, jku, x5u or x5c."#,
            .encoding:
                #"v4 decodes leniently: check each segment with `base64.RawURLEncoding.Strict().DecodeString(seg)` before Parse (v5: `jwt.WithStrictDecoding()`)."#,
            .emptyClaims: #"Refuse `sub == ""` from `sub, _ := claims["sub"].(string)`, and an empty jti likewise."#,
            .payloadNotObject: #"Parse refuses a payload that is not an object: read claims only from the `*jwt.Token` it returns."#,
        ])

    // ruby-jwt: JWT.decode's options (README).
    package static let rubyJWTAdvice = table(
        "ruby-jwt README, JWT.decode options",
        [
            .goodToken:
                #"Decode with the provider's set, a `{"keys" => [...]}` Hash or a loader that refetches on `options[:kid_not_found]`: `JWT.decode(token, nil, true, algorithms: ["RS256"], jwks: loader, iss: ISSUER, verify_iss: true, aud: APP_ID, verify_aud: true)`."#,
            .expiry: #"JWT.decode refuses a past exp: keep `exp_leeway: 60` at most."#,
            .noExp: #"ruby-jwt checks exp only when present: add `required_claims: ["exp", "iat", "sub"]` to JWT.decode."#,
            .issuedAt:
                #"Require it, `required_claims: ["iat"]`, and refuse `!(Time.now.to_i - payload["iat"]).between?(-60, 3600)` (2.5's `verify_iat: true` allows no clock skew)."#,
            .audience: #"Add `aud: APP_ID, verify_aud: true`; a list holding it passes, so also refuse `!payload["aud"].is_a?(String)`."#,
            .issuer: #"Add `iss: ISSUER, verify_iss: true` with a String, compared exactly (a Regexp or Proc can match a prefix)."#,
            .nonce: #"ruby-jwt never reads nonce: after JWT.decode, refuse `payload["nonce"] != expected_nonce`."#,
            .signature: #"JWT.decode verifies when its third argument is true: never `JWT.decode(token, nil, false)`."#,
            .keyID:
                #"Pass `jwks:` with the provider's set: ruby-jwt picks the key by kid and refuses a token without one."#,
            .algorithm: #"Pass `algorithms: ["RS256"]`, never the header's alg."#,
            .keyHeaders: #"Take keys only from `jwks:`; never pass `x5c:` or a block reading the header's jwk or jku."#,
            .emptyClaims: #"`required_claims` refuses only a missing claim: refuse `payload["sub"].to_s.empty? || payload["jti"].to_s.empty?`."#,
            .payloadNotObject: #"Refuse a payload that is not a Hash before reading claims: `raise JWT::DecodeError unless payload.is_a?(Hash)`."#,
        ])

    // The Rust jsonwebtoken crate: Validation.
    package static let jsonwebtokenAdvice = table(
        "jsonwebtoken docs, Validation",
        [
            .goodToken:
                #"Decode with a fixed Validation: `let mut v = Validation::new(Algorithm::RS256); v.set_audience(&[APP_ID]); v.set_issuer(&[ISSUER]); decode::<Claims>(&token, &DecodingKey::from_jwk(jwk)?, &v)`."#,
            .expiry: #"Keep `validate_exp` true (the default) and `v.leeway` at 60 or less."#,
            .noExp:
                #"exp is required by default: restore it with `v.set_required_spec_claims(&["exp", "iss", "aud", "sub"])` and `validate_exp = true`."#,
            .issuedAt:
                #"jsonwebtoken does not judge iat: put `iat: u64` in your Claims struct (serde then requires it) and refuse `now.saturating_sub(claims.iat) > 3600 || claims.iat > now + 60`."#,
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
    package static let erlangJoseAdvice = table(
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
    package static func middlewareAdvice(
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

    package static let hummingbirdAdvice = middlewareAdvice(
        source: "LimitedLoginHummingbird, LimitedLoginAuthenticator",
        route: "`router.group(\"api\").add(middleware: LimitedLoginAuthenticator(verifier: verifier, nonce: .sha256OfRawNonce()))`",
        verifier:
            "`let verifier = try await TokenVerifier.provider(discoveryURL: URL(string: ISSUER + \"/.well-known/openid-configuration\")!, appID: APP_ID)`",
        setup: "LimitedLoginAuthenticator(verifier:nonce:)")

    package static let vaporAdvice = middlewareAdvice(
        source: "LimitedLoginVapor, Application.limitedLogin",
        route: "`app.grouped(try app.limitedLogin.authenticator(), LimitedLoginIdentity.guardMiddleware())`",
        verifier: "`app.limitedLogin.use(verifier: try await TokenVerifier.provider(discoveryURL: url, appID: APP_ID), nonce: .sha256OfRawNonce())`",
        setup: "app.limitedLogin.use(verifier:nonce:)")
}
