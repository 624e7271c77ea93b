// jwks.go: the provider's key set for the golang-jwt backends. golang-jwt v4 has no JWKS client, so this
// fetches BASE_URL/.well-known/oauth/openid/jwks/ with net/http and turns each RSA JWK (n and e, base64url)
// into an *rsa.PublicKey with the standard library. Keys are cached by kid. A kid the cache lacks, or a set
// older than the provider's max-age (5 minutes), makes one refetch, at most every 30 seconds (so a flood
// of made-up kids cannot hammer the provider). A failed or empty fetch keeps the last good set (so a
// provider outage does not stop good tokens), and a kid still unknown is refused. One lock around it all:
// requests wait while a fetch (at most 5 s) runs.
package main

import (
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"sync"
	"time"
)

const (
	refetchInterval = 30 * time.Second
	maxAge          = 5 * time.Minute // the provider's Cache-Control max-age
)

type keySet struct {
	url    string
	client *http.Client

	mu          sync.Mutex
	keys        map[string]*rsa.PublicKey
	fetched     time.Time // the last good fetch
	lastAttempt time.Time // the last fetch, good or not
}

func newKeySet(url string) *keySet {
	return &keySet{url: url, client: &http.Client{Timeout: 5 * time.Second}}
}

// key returns the provider's RSA key the kid names, refetching the set first if the kid is unknown or the
// set stale (and the last attempt is 30 s old).
func (s *keySet) key(kid string) (*rsa.PublicKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key, ok := s.keys[kid]
	if (!ok || time.Since(s.fetched) > maxAge) && time.Since(s.lastAttempt) >= refetchInterval {
		s.lastAttempt = time.Now()
		keys, err := s.fetch()
		switch {
		case err == nil:
			s.keys, s.fetched = keys, time.Now()
			key, ok = keys[kid]
		case !ok:
			return nil, fmt.Errorf("unknown kid %q; refetching the key set failed: %v", kid, err)
		}
	}
	if !ok {
		return nil, fmt.Errorf("unknown kid %q", kid)
	}
	return key, nil
}

// fetch reads the JWKS: only RSA signing keys with a kid are kept.
func (s *keySet) fetch() (map[string]*rsa.PublicKey, error) {
	response, err := s.client.Get(s.url)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("key set answered %s", response.Status)
	}
	var set struct {
		Keys []struct {
			Kty, Kid, Use, N, E string
		} `json:"keys"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(nil, response.Body, 1<<20)).Decode(&set); err != nil {
		return nil, fmt.Errorf("key set is not JSON: %v", err)
	}
	keys := map[string]*rsa.PublicKey{}
	for _, jwk := range set.Keys {
		if jwk.Kty != "RSA" || jwk.Kid == "" || (jwk.Use != "" && jwk.Use != "sig") {
			continue
		}
		n, errN := base64.RawURLEncoding.DecodeString(jwk.N)
		e, errE := base64.RawURLEncoding.DecodeString(jwk.E)
		if errN != nil || errE != nil || len(e) == 0 || len(e) > 4 {
			continue
		}
		keys[jwk.Kid] = &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
	}
	if len(keys) == 0 {
		return nil, errors.New("key set holds no RSA key")
	}
	return keys, nil
}
