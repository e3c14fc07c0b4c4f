package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// guard refuses, before any handler runs and in this order:
//
//   - a request a browser sent (an Origin or Sec-Fetch-Site header): a web
//     page's cross-origin POST to loopback must never reach the API, and
//     hosts send neither header. It comes first so that a page cannot run
//     up an address's wrong-token count either;
//   - an address that sent too many wrong tokens, until its delay ends (429);
//   - a missing or wrong token, when one is configured (401);
//   - a POST whose body is not declared application/json (415): a browser
//     can send text/plain across origins without asking, never JSON.
//
// It then bounds the request's size and time.
func (s *Server) guard(next http.Handler) http.Handler {
	strikes := newThrottle(time.Now)
	want := sha256.Sum256([]byte(s.cfg.Token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fromBrowser(r) {
			writeError(w, http.StatusForbidden, "forbidden", "a request from a browser (Origin or Sec-Fetch-Site) is refused: hosts send neither header")
			return
		}
		if s.cfg.Token != "" {
			addr := remoteKey(r)
			if wait := strikes.locked(addr); wait > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
				writeError(w, http.StatusTooManyRequests, "too_many_requests", "too many wrong tokens from this address; retry later")
				return
			}
			token, given := bearer(r.Header.Get("Authorization"))
			// Hashing both sides first makes the comparison constant-time in
			// the length too.
			got := sha256.Sum256([]byte(token))
			if !given || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				if r.Header.Get("Authorization") != "" {
					strikes.fail(addr) // only a token sent and wrong counts: a missing one is no guess
				}
				w.Header().Set("WWW-Authenticate", `Bearer realm="regate"`)
				writeError(w, http.StatusUnauthorized, "unauthorized", `a token is required, as "Authorization: Bearer TOKEN"`)
				return
			}
			strikes.forget(addr)
		}
		if r.Method == http.MethodPost && !isJSON(r.Header.Get("Content-Type")) {
			writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "the body must be sent as Content-Type: application/json")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// fromBrowser reports whether a browser sent r: browsers add Origin to
// every cross-origin request and to every POST, and Sec-Fetch-Site to
// every request (even a plain image load, which carries no Origin).
func fromBrowser(r *http.Request) bool {
	_, origin := r.Header["Origin"]
	_, site := r.Header["Sec-Fetch-Site"]
	return origin || site
}

// bearer returns the token of an "Authorization: Bearer TOKEN" header. The
// scheme is case-insensitive (RFC 7235); a header without it, such as a
// bare "Authorization: TOKEN", gives none.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	return token, token != ""
}

// isJSON reports whether a Content-Type is application/json, with any
// parameters (charset=utf-8).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// remoteKey is the address wrong tokens are counted against: the client's
// IP over TCP (its port changes with every connection), one shared key over
// a Unix socket, whose clients have no address.
func remoteKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || host == "" {
		return "unix"
	}
	return host
}
