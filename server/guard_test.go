package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regate/regate/server"
)

// send makes one request with exactly the given headers and returns its
// status and the response.
func send(t *testing.T, ts *httptest.Server, method, path, body string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestGuard: what reaches the API and what is refused before it, with a
// token configured and without one (a Unix socket's setup).
func TestGuard(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	decision := `{"input": {"tool": "bash", "input": {"command": "ls"}}}`
	approval := `{"surface": "bash", "pattern": "make"}`
	for _, c := range []struct {
		name             string
		token            string // the server's
		method, path     string
		body             string
		headers          map[string]string
		want             int
		wantAuthenticate bool
	}{
		{name: "bearer and JSON", token: token, method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Authorization": "Bearer " + token, "Content-Type": "application/json"}, want: 200},
		{name: "the scheme in any case, JSON with a charset", token: token, method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Authorization": "bearer " + token, "Content-Type": "application/json; charset=utf-8"}, want: 200},
		{name: "the token without Bearer", token: token, method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Authorization": token, "Content-Type": "application/json"}, want: 401, wantAuthenticate: true},
		{name: "another scheme", token: token, method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Authorization": "Basic " + token, "Content-Type": "application/json"}, want: 401, wantAuthenticate: true},
		{name: "a wrong token", token: token, method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Authorization": "Bearer " + token[:31], "Content-Type": "application/json"}, want: 401, wantAuthenticate: true},
		{name: "no token", token: token, method: "GET", path: "/health", want: 401, wantAuthenticate: true},
		{name: "health with the token", token: token, method: "GET", path: "/health",
			headers: map[string]string{"Authorization": "Bearer " + token}, want: 200},
		// A web page's fetch(…, {method: "POST", mode: "no-cors", body}) is a
		// text/plain POST with an Origin: refused even with no token set.
		{name: "a cross-origin text/plain POST", method: "POST", path: "/v1/sessions/s1/approvals", body: approval,
			headers: map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain;charset=UTF-8", "Sec-Fetch-Site": "cross-site"}, want: 403},
		{name: "an Origin header, even with JSON and the token", token: token, method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Origin": "http://127.0.0.1:8182", "Authorization": "Bearer " + token, "Content-Type": "application/json"}, want: 403},
		{name: "Origin null (a sandboxed page)", method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Origin": "null", "Content-Type": "application/json"}, want: 403},
		{name: "Sec-Fetch-Site without Origin (an image load)", method: "GET", path: "/health",
			headers: map[string]string{"Sec-Fetch-Site": "cross-site"}, want: 403},
		{name: "text/plain without Origin", method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Content-Type": "text/plain"}, want: 415},
		{name: "a form", method: "POST", path: "/v1/sessions/s1/approvals", body: "surface=bash&pattern=*",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, want: 415},
		{name: "no Content-Type", method: "POST", path: "/v1/sessions/s1/approvals", body: approval, want: 415},
		{name: "no token configured: JSON passes", method: "POST", path: "/v1/data/regate/decision", body: decision,
			headers: map[string]string{"Content-Type": "application/json"}, want: 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, ts := newServer(t, policy, c.token)
			resp := send(t, ts, c.method, c.path, c.body, c.headers)
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.want)
			}
			if got := resp.Header.Get("WWW-Authenticate") != ""; got != c.wantAuthenticate {
				t.Errorf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

// TestThrottle: after FreeFailures wrong tokens the address is refused,
// the right token too, with a Retry-After; requests without any token
// never count, so a web page's image loads cannot lock the host out.
func TestThrottle(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	_, _, ts := newServer(t, policy, token)
	health := func(auth string) *http.Response {
		h := map[string]string{}
		if auth != "" {
			h["Authorization"] = auth
		}
		return send(t, ts, "GET", "/health", "", h)
	}
	for i := 0; i < 3*server.FreeFailures; i++ {
		if code := health("").StatusCode; code != 401 {
			t.Fatalf("without a token, request %d: %d", i, code)
		}
	}
	if code := health("Bearer " + token).StatusCode; code != 200 {
		t.Fatalf("missing tokens locked the address out: %d", code)
	}
	for i := 0; i < server.FreeFailures; i++ {
		if code := health("Bearer guess").StatusCode; code != 401 {
			t.Fatalf("wrong token %d: %d, want 401", i, code)
		}
	}
	resp := health("Bearer " + token)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("after %d wrong tokens: %d, Retry-After %q; want 429, 1", server.FreeFailures, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
