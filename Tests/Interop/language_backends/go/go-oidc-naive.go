// go-oidc-naive: github.com/coreos/go-oidc (v2, Debian golang-github-coreos-go-oidc-dev 2.1.0) used exactly as
// its README and godoc show (https://github.com/coreos/go-oidc/blob/v2/README.md,
// https://pkg.go.dev/github.com/coreos/go-oidc): oidc.NewProvider on the issuer (discovery), then
// provider.Verifier(&oidc.Config{ClientID: appID}) and verifier.Verify, then the nonce compared with the
// expected one as its examples/nonce does. Nothing added: this is what the audit measures as "naive".
// Built with serve.go (the HTTP side).
package main

import (
	"context"

	oidc "github.com/coreos/go-oidc"
)

func newVerifier(ctx context.Context, providerURL, appID string) (verifyFunc, error) {
	// Discovery: BASE_URL/.well-known/openid-configuration; its issuer must be BASE_URL. The provider's
	// jwks_uri feeds go-oidc's remote key set, which fetches and caches the keys.
	provider, err := oidc.NewProvider(ctx, providerURL)
	if err != nil {
		return nil, err
	}
	verifier := provider.Verifier(&oidc.Config{ClientID: appID})

	return func(ctx context.Context, rawIDToken string, expectedNonce *string) (string, error) {
		idToken, err := verifier.Verify(ctx, rawIDToken)
		if err != nil {
			return "", err
		}
		if expectedNonce != nil && !nonceMatches(idToken.Nonce, *expectedNonce) {
			return "", errNonce
		}
		return idToken.Subject, nil
	}, nil
}
