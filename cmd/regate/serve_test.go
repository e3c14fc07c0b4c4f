package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestResolveToken: where the token comes from, on a socket and over TCP.
func TestResolveToken(t *testing.T) {
	const good = "0123456789abcdef0123456789abcdef"
	for _, c := range []struct {
		name      string
		params    serveParams
		env       string
		file      string // contents of the token file, written with mode
		mode      os.FileMode
		want      string // the token; "generated" for a new one
		wantGiven bool
		wantErr   string
		wantWarn  string
	}{
		{name: "a socket needs none", params: serveParams{socket: "s.sock"}, want: ""},
		{name: "a socket with one from the environment", params: serveParams{socket: "s.sock"}, env: good, want: good, wantGiven: true},
		{name: "TCP from the environment", env: good, want: good, wantGiven: true},
		{name: "TCP without one: generated into a file", want: "generated", wantWarn: "no token was given"},
		{name: "a token file", file: good + "\n", mode: 0o600, want: good, wantGiven: true},
		{name: "a token file wins over the environment", env: "from-env-0123456789", file: good, mode: 0o600, want: good, wantGiven: true},
		{name: "a token file others can read", file: good, mode: 0o644, wantErr: "other users can read it"},
		{name: "an empty token file", file: "\n", mode: 0o600, wantErr: "is empty"},
		{name: "a missing token file is created", file: "-", want: "generated", wantGiven: true, wantWarn: "wrote a new token to"},
		{name: "--token works, and warns", params: serveParams{token: good}, want: good, wantGiven: true, wantWarn: "visible to every local user"},
		{name: "--token and --token-file", params: serveParams{token: good}, file: good, mode: 0o600, wantErr: "not both"},
		{name: "a token with a space", env: "two words", wantErr: "without spaces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv(tokenEnv, c.env)
			t.Setenv("XDG_RUNTIME_DIR", dir)
			p := c.params
			if c.file != "" {
				p.tokenFile = filepath.Join(dir, "serve.token")
				if c.file != "-" {
					if err := os.WriteFile(p.tokenFile, []byte(c.file), c.mode); err != nil {
						t.Fatal(err)
					}
					if err := os.Chmod(p.tokenFile, c.mode); err != nil {
						t.Fatal(err)
					}
				}
			}
			var stderr bytes.Buffer
			tok, err := p.resolveToken(&stderr)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v; want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer tok.cleanup()
			if !strings.Contains(stderr.String(), c.wantWarn) || c.wantWarn == "" && stderr.Len() > 0 {
				t.Errorf("stderr %q; want %q", stderr.String(), c.wantWarn)
			}
			if tok.given != c.wantGiven {
				t.Errorf("given %v", tok.given)
			}
			if c.want != "generated" {
				if tok.value != c.want {
					t.Fatalf("token %q; want %q", tok.value, c.want)
				}
				return
			}
			if len(tok.value) != 64 {
				t.Fatalf("generated token %q", tok.value)
			}
			if strings.Contains(stderr.String(), tok.value) {
				t.Fatal("the token itself was printed")
			}
			path := p.tokenFile
			if path == "" {
				path = regexp.MustCompile(`token in (\S+)`).FindStringSubmatch(stderr.String())[1]
			}
			st, err := os.Stat(path)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("token file %s: %v %v, want 0600", path, st, err)
			}
			if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != tok.value {
				t.Fatalf("the file holds %q", b)
			}
			tok.cleanup()
			_, err = os.Stat(path)
			if generatedHere := p.tokenFile == ""; generatedHere != os.IsNotExist(err) {
				t.Errorf("after cleanup: %v (a generated file goes, a --token-file stays)", err)
			}
		})
	}
}

// TestServeTCPNeedsToken: serve over loopback TCP with no token given
// generates one, and a request without it is refused, with it answered;
// an address off loopback needs a token given.
func TestServeTCPNeedsToken(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(tokenEnv, "")
	t.Setenv("XDG_RUNTIME_DIR", dir)
	policy := filepath.Join(dir, "policy.jsonc")
	if err := os.WriteFile(policy, []byte(`{"permission": {"bash": {"*": "ask"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (&serveParams{addr: "0.0.0.0:0"}).listen(false); err == nil || !strings.Contains(err.Error(), "not loopback") {
		t.Fatalf("off loopback without a token given: %v", err)
	}

	p := &serveParams{addr: "127.0.0.1:0", interval: time.Hour}
	p.rules.policy, p.rules.home = policy, "/home/u"
	stderr := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, p, &app{stdout: stderr, stderr: stderr}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	var addr, tokenPath string
	for deadline := time.Now().Add(10 * time.Second); addr == ""; time.Sleep(10 * time.Millisecond) {
		if m := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", stderr.String())
		}
	}
	if m := regexp.MustCompile(`token in (\S+)`).FindStringSubmatch(stderr.String()); m != nil {
		tokenPath = m[1]
	} else {
		t.Fatalf("no token file printed: %s", stderr.String())
	}
	token, err := os.ReadFile(tokenPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		auth string
		want int
	}{
		{"", http.StatusUnauthorized},
		{strings.TrimSpace(string(token)), http.StatusUnauthorized},
		{"Bearer " + strings.TrimSpace(string(token)), http.StatusOK},
	} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/data/regate/decision", strings.NewReader(`{"input": {"tool": "bash", "input": {"command": "make"}}}`))
		req.Header.Set("Content-Type", "application/json")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Authorization %.12q: %d, want %d", c.auth, resp.StatusCode, c.want)
		}
	}
}

// syncBuffer is a bytes.Buffer serve's goroutines may write while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
