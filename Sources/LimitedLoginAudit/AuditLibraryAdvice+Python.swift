/// The advice of the Python libraries (``AuditLibrary``).
extension AuditLibrary {
    // Shared by the Python libraries that do not read these claims themselves.
    package static let pythonNonce =
        #"compare it after decoding, `hmac.compare_digest(claims.get("nonce", ""), expected_nonce)` (for a raw nonce, `hashlib.sha256(raw.encode()).hexdigest()`)"#
    package static let pythonEncoding =
        #"refuse a token unless its 3 segments survive a round trip: `all(base64.urlsafe_b64encode(base64.urlsafe_b64decode(s + "==")).rstrip(b"=").decode() == s for s in token.split("."))`"#
    package static let pythonSize = #"refuse `len(token) > 8192` before decoding"#
    package static let pythonEmpty = #"refuse an empty one after decoding, `if not claims.get("sub") or not claims.get("jti"): raise ...`"#

    // PyJWT 2.x: read in jwt/api_jwt.py and jwt/api_jws.py of 2.15.1.
    package static let pyjwtAdvice = table(
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
    package static let authlibAdvice = table(
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
                #"Pass the provider's set, `JsonWebKey.import_key_set(requests.get(JWKS_URL).json())`: decode picks the key by kid and refuses one the set lacks, but takes a set's only key for a token without kid: refuse `"kid" not in claims.header`."#,
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
    package static let pythonJoseAdvice = table(
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
    package static let joserfcAdvice = table(
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
            .keyID:
                #"Pass the provider's set, `KeySet.import_key_set(requests.get(JWKS_URL).json())`: decode takes the key its kid names, but a set's only key for a token without kid: refuse `"kid" not in token.header`."#,
            .algorithm: #"Pass `algorithms=["RS256"]` to jwt.decode, never the header's alg."#,
            .keyHeaders:
                #"Pass the provider's set, `jwt.decode(value, KeySet.import_key_set(jwks), ...)`, never a key built from the header's jwk, jku, x5u or x5c."#,
            .typ: #"joserfc does not check typ here: refuse unless `token.header.get("typ") == "JWT"`."#,
            .duplicateClaim:
                #"Pass `decoder_cls=` a `json.JSONDecoder` subclass whose `object_pairs_hook` refuses a name given twice: `jwt.decode(value, keys, algorithms=["RS256"], decoder_cls=StrictDecoder)`."#,
            .hugeToken: "joserfc has no size limit here: " + pythonSize + ".",
            .emptyClaims:
                #"Name them in the registry, `sub={"essential": True}, jti={"essential": True}`: a claim with an option is refused when blank."#,
            .payloadNotObject: #"jwt.decode refuses a payload that is not an object (InvalidPayloadError): read claims only from `token.claims`."#,
        ])

    // jwcrypto (jwcrypto/jwt.py).
    package static let jwcryptoAdvice = table(
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
    package static let socialAuthAdvice = table(
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
    package static let allauthAdvice = table(
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
}
