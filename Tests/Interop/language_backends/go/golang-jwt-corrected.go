// golang-jwt-corrected: golang-jwt-naive (github.com/golang-jwt/jwt/v4 4.4.3, Debian) plus what the audit
// asks for, the library's own option and MapClaims methods first, then short hand checks after Parse:
//   - jwt.WithValidMethods([]string{"RS256"}) (rs512-same-key: the naive Keyfunc's *SigningMethodRSA check
//     lets RS384/RS512 through), and a Keyfunc that refuses a token without kid at once;
//   - claims.VerifyExpiresAt(now, true) and claims.VerifyIssuedAt(now + 1 min, true): exp and iat required (no-exp,
//     the naive hole: Parse checks exp only when present; no-iat), plus iat at most an hour old (too-old);
//   - aud a single string naming the app (audience-list: VerifyAudience accepts a list holding it), iss
//     exactly the provider (VerifyIssuer, as the naive one), sub and jti non-empty (empty-sub, empty-jti);
//   - typ JWT and no crit in the header (typ-not-jwt, crit-header: golang-jwt reads neither);
//   - before Parse, strictSegments: at most 8 KiB (huge-token), three segments of strict base64url
//     (non-canonical-base64url: v4.4.3 has no strict-decoding option) whose header and payload name nothing
//     twice (duplicate-claim: encoding/json keeps the last).
//
// Built with serve.go (HTTP) and jwks.go (the key set: golang-jwt has no JWKS client).
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	// Debian installs jwt/v4 at its GOPATH path without /v4, the path GOPATH mode finds (module github.com/golang-jwt/jwt/v4).
	jwt "github.com/golang-jwt/jwt"
)

// recipe:begin (docs/AUDIT.md shows this part, word for word)
func newVerifier(ctx context.Context, providerURL, appID string) (verifyFunc, error) {
	keys := newKeySet(providerURL + "/.well-known/oauth/openid/jwks/")
	parser := jwt.NewParser(jwt.WithValidMethods([]string{"RS256"}))
	keyFunc := func(token *jwt.Token) (interface{}, error) {
		kid, _ := token.Header["kid"].(string)
		if kid == "" {
			return nil, errors.New("no kid")
		}
		return keys.key(kid) // only ever an *rsa.PublicKey from the provider's set
	}

	return func(ctx context.Context, raw string, expectedNonce *string) (string, error) {
		if err := strictSegments(raw); err != nil { // huge-token, non-canonical-base64url, duplicate-claim
			return "", err
		}
		token, err := parser.Parse(raw, keyFunc)
		if err != nil {
			return "", err
		}
		claims, now := token.Claims.(jwt.MapClaims), time.Now()
		iat, _ := claims["iat"].(float64)
		_, oneAudience := claims["aud"].(string)
		sub, _ := claims["sub"].(string)
		jti, _ := claims["jti"].(string)
		nonce, _ := claims["nonce"].(string)
		switch {
		case !claims.VerifyExpiresAt(now.Unix(), true) || !claims.VerifyIssuedAt(now.Add(time.Minute).Unix(), true) || now.Sub(time.Unix(int64(iat), 0)) > time.Hour:
			return "", errors.New("exp and iat required, iat at most an hour old")
		case !oneAudience || !claims.VerifyAudience(appID, true) || !claims.VerifyIssuer(providerURL, true) || sub == "" || jti == "":
			return "", errors.New("aud the app alone, iss the provider, sub and jti non-empty")
		case token.Header["typ"] != "JWT" || token.Header["crit"] != nil:
			return "", errors.New("typ must be JWT, crit is not supported")
		case expectedNonce != nil && !nonceMatches(nonce, *expectedNonce):
			return "", errNonce
		}
		return sub, nil
	}, nil
}

// recipe:end

// strictSegments refuses a token over 8 KiB, one not made of three strict base64url segments (no padding,
// whitespace or non-zero unused bits), and a header or payload that gives a name twice.
func strictSegments(raw string) error {
	segments := strings.Split(raw, ".")
	if len(raw) > 8192 || len(segments) != 3 || strings.ContainsAny(raw, "\r\n") {
		return errors.New("not a compact JWS of at most 8 KiB")
	}
	for _, segment := range segments[:2] {
		data, err := base64.RawURLEncoding.Strict().DecodeString(segment)
		if err != nil {
			return fmt.Errorf("not strict base64url: %v", err)
		}
		decoder := json.NewDecoder(bytes.NewReader(data))
		if start, err := decoder.Token(); err != nil || start != json.Delim('{') {
			return errors.New("not a JSON object")
		}
		seen := map[string]bool{}
		for decoder.More() {
			token, err := decoder.Token() // in an object: the name, a string
			name, _ := token.(string)
			if err != nil || seen[name] {
				return fmt.Errorf("bad JSON or a name given twice: %q", name)
			}
			seen[name] = true
			var value json.RawMessage // skip the value
			if err := decoder.Decode(&value); err != nil {
				return err
			}
		}
	}
	_, err := base64.RawURLEncoding.Strict().DecodeString(segments[2])
	return err
}
