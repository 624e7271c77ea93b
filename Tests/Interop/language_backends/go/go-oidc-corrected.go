// go-oidc-corrected: go-oidc-naive (github.com/coreos/go-oidc v2.1.0, Debian) plus what the audit asks for, the
// library's own options first, then short hand checks around Verify:
//   - oidc.NewVerifier(ISSUER, oidc.NewRemoteKeySet(ctx, JWKS_URL), ...) as the audit's --library advice shows
//     (no discovery at start), SupportedSigningAlgs pinned to RS256 (already its default), and a 5 s timeout
//     on its key fetches through oidc.ClientContext (its default client has none: a key endpoint that never
//     answers would hold every refetch; keys-timeout);
//   - before Verify: at most 8 KiB (huge-token) and only base64url and dots (go-jose, under go-oidc, strips
//     whitespace before decoding: whitespace-in-signature); a kid and typ JWT in the header, read with
//     go-jose, the library go-oidc verifies with (missing-kid: its key set tries every key when there is no
//     kid; typ-not-jwt);
//   - after Verify: the payload it checked decoded again with go-jose's JSON, which refuses a name given
//     twice (duplicate-claim: go-oidc decodes with encoding/json, which keeps the last); iat required, at
//     most an hour old and not in the future (no-iat, too-old, issued-in-future: go-oidc does not judge
//     iat); exactly one audience (audience-list: go-oidc accepts a list holding the client id); sub and jti
//     non-empty (empty-sub, empty-jti); and the nonce.
//
// Built with serve.go (the HTTP side).
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"

	oidc "github.com/coreos/go-oidc"
	jose "gopkg.in/square/go-jose.v2"
	josejson "gopkg.in/square/go-jose.v2/json"
)

// Three base64url segments, nothing else: no whitespace, padding or JSON serialization.
var compactJWS = regexp.MustCompile(`^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$`)

// recipe:begin (docs/AUDIT.md shows this part, word for word)
func newVerifier(ctx context.Context, providerURL, appID string) (verifyFunc, error) {
	ctx = oidc.ClientContext(ctx, &http.Client{Timeout: 5 * time.Second})
	keySet := oidc.NewRemoteKeySet(ctx, providerURL+"/.well-known/oauth/openid/jwks/")
	verifier := oidc.NewVerifier(providerURL, keySet, &oidc.Config{ClientID: appID, SupportedSigningAlgs: []string{oidc.RS256}})

	return func(ctx context.Context, raw string, expectedNonce *string) (string, error) {
		if len(raw) > 8192 || !compactJWS.MatchString(raw) {
			return "", errors.New("not a compact JWS of at most 8 KiB")
		}
		jws, err := jose.ParseSigned(raw) // for the header, which Verify does not return (compact: one signature)
		if err != nil || jws.Signatures[0].Header.KeyID == "" || jws.Signatures[0].Header.ExtraHeaders[jose.HeaderType] != "JWT" {
			return "", errors.New("the header needs a kid and typ JWT")
		}
		idToken, err := verifier.Verify(ctx, raw)
		if err != nil {
			return "", err
		}
		var claims map[string]interface{} // the payload Verify has just checked, in go-jose's JSON: it refuses a name given twice
		if err := josejson.Unmarshal(jws.UnsafePayloadWithoutVerification(), &claims); err != nil {
			return "", fmt.Errorf("claims: %v", err)
		}
		jti, _ := claims["jti"].(string)
		switch age := time.Since(idToken.IssuedAt); {
		case idToken.IssuedAt.IsZero() || age > time.Hour || age < -time.Minute:
			return "", errors.New("iat missing, over an hour old or in the future")
		case len(idToken.Audience) != 1 || idToken.Subject == "" || jti == "":
			return "", errors.New("aud must be the app alone, sub and jti non-empty")
		case expectedNonce != nil && !nonceMatches(idToken.Nonce, *expectedNonce):
			return "", errNonce
		}
		return idToken.Subject, nil
	}, nil
}

// recipe:end
