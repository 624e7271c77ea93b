// golang-jwt-naive: github.com/golang-jwt/jwt/v4 (Debian golang-github-golang-jwt-jwt-dev 4.4.3) used exactly
// as its README and godoc show (https://pkg.go.dev/github.com/golang-jwt/jwt/v4, examples "Parse (Hmac)" and
// MapClaims): jwt.Parse with a Keyfunc that checks the signing method family ("Don't forget to validate the
// alg is what you expect") and returns the key the header's kid names, then `token.Valid`, then the
// MapClaims checks its docs name for aud and iss (VerifyAudience, VerifyIssuer with required=true), then the
// nonce. Nothing added. Built with serve.go (HTTP) and jwks.go (the key set: golang-jwt has no JWKS client).
package main

import (
	"context"
	"errors"
	"fmt"

	// Debian installs jwt/v4 at its GOPATH path without /v4, the path GOPATH mode finds (module github.com/golang-jwt/jwt/v4).
	jwt "github.com/golang-jwt/jwt"
)

func newVerifier(ctx context.Context, providerURL, appID string) (verifyFunc, error) {
	keys := newKeySet(providerURL + "/.well-known/oauth/openid/jwks/")
	keyFunc := func(token *jwt.Token) (interface{}, error) {
		// Don't forget to validate the alg is what you expect (the godoc example, with RSA for HMAC):
		if _, ok := token.Method.(*jwt.SigningMethodRSA); !ok {
			return nil, fmt.Errorf("unexpected signing method: %v", token.Header["alg"])
		}
		kid, _ := token.Header["kid"].(string)
		return keys.key(kid)
	}

	return func(ctx context.Context, raw string, expectedNonce *string) (string, error) {
		token, err := jwt.Parse(raw, keyFunc)
		if err != nil {
			return "", err
		}
		claims, ok := token.Claims.(jwt.MapClaims)
		if !ok || !token.Valid {
			return "", errors.New("invalid token")
		}
		if !claims.VerifyAudience(appID, true) {
			return "", errors.New("wrong audience")
		}
		if !claims.VerifyIssuer(providerURL, true) {
			return "", errors.New("wrong issuer")
		}
		if expectedNonce != nil {
			nonce, _ := claims["nonce"].(string)
			if !nonceMatches(nonce, *expectedNonce) {
				return "", errNonce
			}
		}
		sub, _ := claims["sub"].(string)
		return sub, nil
	}, nil
}
