// serve.go: the HTTP side every Go backend of this folder shares (the Go twin of
// Tests/Interop/audit_backends/_serve.py). Each backend file adds a newVerifier function; this file parses
// `--port P --provider BASE_URL --app-id APP_ID`, serves `GET /me` on 127.0.0.1:P and answers
// 200 {"sub": ...} when the backend's verify function returns a subject, 401 {"error": ...} on any failure.
package main

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// verifyFunc checks a raw token; expectedNonce is nil when the request carried no X-Nonce header.
type verifyFunc func(ctx context.Context, token string, expectedNonce *string) (subject string, err error)

var errNonce = errors.New("nonce mismatch")

// nonceMatches compares the token's nonce with the expected one in constant time.
func nonceMatches(got, expected string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(expected)) == 1
}

// bearerToken reads `Authorization: Bearer <token>` (the scheme in any case).
func bearerToken(header string) (string, error) {
	scheme, token, _ := strings.Cut(header, " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "bearer") || token == "" {
		return "", errors.New("no bearer token")
	}
	return token, nil
}

func answer(w http.ResponseWriter, status int, document map[string]string) {
	body, _ := json.Marshal(document)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// meHandler answers GET /me; a panic while verifying is a 401 too, never a 500.
func meHandler(verify verifyFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/me" {
			answer(w, http.StatusNotFound, map[string]string{"error": "not found"})
			return
		}
		if r.Method != http.MethodGet {
			answer(w, http.StatusMethodNotAllowed, map[string]string{"error": "method not allowed"})
			return
		}
		subject, err := func() (subject string, err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			token, err := bearerToken(r.Header.Get("Authorization"))
			if err != nil {
				return "", err
			}
			var expectedNonce *string
			if values, ok := r.Header["X-Nonce"]; ok && len(values) > 0 {
				expectedNonce = &values[0]
			}
			return verify(r.Context(), token, expectedNonce)
		}()
		if err != nil {
			reason := err.Error()
			if len(reason) > 500 {
				reason = reason[:500]
			}
			answer(w, http.StatusUnauthorized, map[string]string{"error": reason})
			return
		}
		answer(w, http.StatusOK, map[string]string{"sub": subject})
	}
}

func main() {
	port := flag.Int("port", 0, "the port to serve on (127.0.0.1 only)")
	provider := flag.String("provider", "", "the provider's base URL, which is also its issuer")
	appID := flag.String("app-id", "", "the app id: the audience the tokens must name")
	flag.Parse()
	if *port <= 0 || *provider == "" || *appID == "" {
		fmt.Fprintln(os.Stderr, "usage: --port P --provider BASE_URL --app-id APP_ID (all three required)")
		os.Exit(64)
	}

	verify, err := newVerifier(context.Background(), *provider, *appID)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot set up the verifier:", err)
		os.Exit(1)
	}

	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// os.Stdout is unbuffered in Go: the line is out as soon as Println returns.
	fmt.Printf("listening on http://127.0.0.1:%d\n", listener.Addr().(*net.TCPAddr).Port)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		listener.Close()
		os.Exit(0)
	}()
	// net/http serves each connection in its own goroutine, so requests may come concurrently.
	http.Serve(listener, meHandler(verify))
}
