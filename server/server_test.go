package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/server"
)

func newServer(t *testing.T, policy string, token string) (*server.Server, string, *httptest.Server) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.jsonc")
	if err := os.WriteFile(path, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	compile := func() (*compiler.Output, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: path, Data: b}}, compiler.WithHome("/home/u"))
	}
	s, err := server.New(server.Config{Compile: compile, Watch: []string{path}, Token: token, Cwd: "/repo"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, path, ts
}

func post(t *testing.T, ts *httptest.Server, path, body, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func action(out map[string]any) string {
	r, _ := out["result"].(map[string]any)
	s, _ := r["action"].(string)
	return s
}

const policy = `{"permission": {"*": "ask", "bash": {"*": "ask", "git status": "allow", "rm -rf *": "deny"}}}`

func TestDecideApproveAndErrors(t *testing.T) {
	_, _, ts := newServer(t, policy, "")
	code, out := post(t, ts, "/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "git status && rm -rf x"}}}`, "")
	if code != 200 || action(out) != "deny" || out["decision_id"] == "" {
		t.Fatalf("%d %v", code, out)
	}
	code, out = post(t, ts, "/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "make"}, "session": "s1"}}`, "")
	if code != 200 || action(out) != "ask" {
		t.Fatalf("%d %v", code, out)
	}
	if code, _ := post(t, ts, "/v1/sessions/s1/approvals", `{"surface": "bash", "pattern": "make"}`, ""); code != http.StatusNoContent {
		t.Fatalf("approve: %d", code)
	}
	if _, out = post(t, ts, "/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "make"}, "session": "s1"}}`, ""); action(out) != "allow" {
		t.Fatalf("after the approval: %v", out)
	}
	if _, out = post(t, ts, "/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "make"}, "session": "s2"}}`, ""); action(out) != "ask" {
		t.Fatalf("another session: %v", out)
	}
	for _, bad := range []string{`{`, `{"input": {}}`, `{"input": {"tool": "bash"}} {}`, strings.Repeat(" ", server.MaxBody+1) + "{}"} {
		if code, out := post(t, ts, "/v1/data/regate/decision", bad, ""); code != http.StatusBadRequest || out["code"] != "invalid_parameter" {
			t.Errorf("%.20q: %d %v", bad, code, out)
		}
	}
}

func TestToken(t *testing.T) {
	_, _, ts := newServer(t, policy, "s3cret")
	body := `{"input": {"tool": "bash", "input": {"command": "ls"}}}`
	if code, _ := post(t, ts, "/v1/data/regate/decision", body, ""); code != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", code)
	}
	if code, _ := post(t, ts, "/v1/data/regate/decision", body, "wrong"); code != http.StatusUnauthorized {
		t.Fatalf("with a wrong token: %d", code)
	}
	if code, _ := post(t, ts, "/v1/data/regate/decision", body, "s3cret"); code != http.StatusOK {
		t.Fatalf("with the token: %d", code)
	}
}

// A good edit is swapped in; a broken edit keeps the last good policy in
// force and shows in /health; decisions in flight never see a half policy.
func TestReload(t *testing.T) {
	s, path, ts := newServer(t, policy, "")
	body := `{"input": {"tool": "bash", "input": {"command": "make"}}}`
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // decisions during the swaps are always ask or allow, never an error
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if code, out := post(t, ts, "/v1/data/regate/decision", body, ""); code != 200 || (action(out) != "ask" && action(out) != "allow") {
				t.Errorf("during a reload: %d %v", code, out)
				return
			}
		}
	}()
	if err := os.WriteFile(path, []byte(strings.Replace(policy, `"git status"`, `"make": "allow", "git status"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	if _, out := post(t, ts, "/v1/data/regate/decision", body, ""); action(out) != "allow" {
		t.Fatalf("after a good edit: %v", out)
	}
	// A file caught half-written (replaced mid-read) is a broken edit too.
	good, _ := os.ReadFile(path)
	if err := os.WriteFile(path, good[:len(good)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	if _, out := post(t, ts, "/v1/data/regate/decision", body, ""); action(out) != "allow" {
		t.Fatalf("after a half-written file the last good policy decides: %v", out)
	}
	if err := os.WriteFile(path, []byte(`{"permission": {"bash": {"make": "maybe"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	close(stop)
	wg.Wait()
	if _, out := post(t, ts, "/v1/data/regate/decision", body, ""); action(out) != "allow" {
		t.Fatalf("after a broken edit the last good policy decides: %v", out)
	}
	resp, err := http.Get(ts.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	resp.Body.Close()
	if !strings.Contains(b.String(), "reload_error") || !strings.Contains(b.String(), "maybe") {
		t.Fatalf("health %s", b.String())
	}
}
