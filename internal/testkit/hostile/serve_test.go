package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regate/regate/internal/testkit/procstat"
)

// ServeRSS is the ceiling of serve's peak resident memory over the whole
// hostile run (every case below, one process).
const ServeRSS = 512 << 20

// serveProc is one `regate serve` on a Unix socket.
type serveProc struct {
	cmd    *exec.Cmd
	client *http.Client
	dir    string // its policy, decision log and socket live here
	policy string
	logs   *bytes.Buffer
}

// startServe runs serve on a socket in a fresh folder with a copy of the
// bundled default policy and the decision log on, and waits for /health.
func startServe(t *testing.T) *serveProc {
	t.Helper()
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.jsonc")
	if err := os.WriteFile(policy, []byte(`{"permission": {"*": "ask", "bash": {"ls *": "allow", "cat *": "allow", "rm *": "deny"}, "read": {"*": "allow"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "regate.sock")
	cmd := exec.Command(regateBin, "serve", "--policy", policy, "--socket", sock, "--decision-log", filepath.Join(dir, "log"),
		"--cwd", dir, "--watch-interval", "100ms")
	cmd.Env = append(os.Environ(), "HOME="+dir)
	logs := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &serveProc{cmd: cmd, dir: dir, policy: policy, logs: logs, client: &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}},
	}}
	t.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if status, _ := s.do(t, "GET", "/health", "", nil); status == http.StatusOK {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("regate serve did not start:\n%s", logs.String())
		}
	}
}

// do sends one request; a transport error is status 0.
func (s *serveProc) do(t *testing.T, method, path, contentType string, body []byte, header ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, "http://regate"+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	var v map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &v)
	return resp.StatusCode, v
}

// decision is a decision request of the bash tool.
func decision(session, command string) []byte {
	b, _ := json.Marshal(map[string]any{"input": map[string]any{
		"tool": "bash", "input": map[string]any{"command": command}, "session": session,
	}})
	return b
}

type serveCase struct {
	name        string
	method      string
	path        string
	contentType string
	body        []byte
	header      []string
	// wantStatus is the answer's status; for 200 on a decision, wantAction
	// lists the actions it may carry.
	wantStatus []int
	wantAction []string
}

func serveCases() []serveCase {
	const decide, json = "/v1/data/regate/decision", "application/json"
	approve := func(session string) string { return "/v1/sessions/" + session + "/approvals" }
	return []serveCase{
		{name: "a 200 KB pipe chain", method: "POST", path: decide, contentType: json, body: decision("s", repeat("a", " | ", 40_000)),
			wantStatus: []int{200}, wantAction: []string{"ask", "deny"}},
		{name: "a 900 KB list of units", method: "POST", path: decide, contentType: json, body: decision("s", repeat("echo x", "; ", 110_000)),
			wantStatus: []int{200}, wantAction: []string{"ask", "deny"}},
		{name: "a 900 KB run of words", method: "POST", path: decide, contentType: json, body: decision("s", "ls "+repeat("w", " ", 400_000)),
			wantStatus: []int{200}, wantAction: []string{"ask", "deny", "allow"}},
		{name: "a path of 400,000 components", method: "POST", path: decide, contentType: json, body: decision("s", "cat "+strings.Repeat("a/", 400_000)),
			wantStatus: []int{200}, wantAction: []string{"ask", "deny"}},
		{name: "a body over 1 MiB", method: "POST", path: decide, contentType: json, body: decision("s", strings.Repeat("x", 2<<20)),
			wantStatus: []int{413, 400}},
		{name: "tool input nested 9,000 deep, logged", method: "POST", path: decide, contentType: json,
			body:       []byte(`{"input":{"tool":"bash","input":{"command":"ls","x":` + strings.Repeat("[", 9_000) + strings.Repeat("]", 9_000) + `}}}`),
			wantStatus: []int{200, 400}, wantAction: []string{"ask", "deny", "allow"}},
		{name: "tool input nested 100,000 deep", method: "POST", path: decide, contentType: json,
			body:       []byte(`{"input":{"tool":"bash","input":{"command":"ls","x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}}}`),
			wantStatus: []int{400, 413}},
		{name: "not JSON", method: "POST", path: decide, contentType: json, body: []byte(`{"input": {"tool": "bash", `), wantStatus: []int{400}},
		{name: "trailing data", method: "POST", path: decide, contentType: json, body: append(decision("s", "ls"), `{}`...), wantStatus: []int{400}},
		{name: "an unknown tool", method: "POST", path: decide, contentType: json,
			body: []byte(`{"input":{"tool":"teleport","input":{"x":1}}}`), wantStatus: []int{200}, wantAction: []string{"ask", "deny"}},
		{name: "a decision as text/plain", method: "POST", path: decide, contentType: "text/plain", body: decision("s", "ls"), wantStatus: []int{415}},
		{name: "a cross-origin approval of everything", method: "POST", path: approve("victim"), contentType: "text/plain",
			body: []byte(`{"surface":"bash","pattern":"*"}`), header: []string{"Origin", "http://evil.example"}, wantStatus: []int{403, 415}},
		{name: "an approval with an Origin header", method: "POST", path: approve("victim"), contentType: json,
			body: []byte(`{"surface":"bash","pattern":"ls"}`), header: []string{"Origin", "http://evil.example"}, wantStatus: []int{403}},
		{name: "an approval of *", method: "POST", path: approve("victim"), contentType: json,
			body: []byte(`{"surface":"bash","pattern":"*"}`), wantStatus: []int{400, 403}},
		{name: "an approval of a wide glob never shown", method: "POST", path: approve("victim"), contentType: json,
			body: []byte(`{"surface":"bash","pattern":"rm *"}`), wantStatus: []int{400, 403}},
	}
}

// TestServeHostileInputs runs one serve and sends it every hostile request:
// each gets its documented answer, serve stays up and answers an ordinary
// call after each, and its peak memory stays under ServeRSS.
func TestServeHostileInputs(t *testing.T) {
	s := startServe(t)
	for _, c := range serveCases() {
		t.Run(c.name, func(t *testing.T) {
			status, body := s.do(t, c.method, c.path, c.contentType, c.body, c.header...)
			if !containsInt(c.wantStatus, status) {
				t.Fatalf("status %d, want one of %v: %v", status, c.wantStatus, body)
			}
			if status == 200 && c.wantAction != nil {
				result, _ := body["result"].(map[string]any)
				if action, _ := result["action"].(string); !contains(c.wantAction, action) {
					t.Fatalf("action %q, want one of %v: %v", action, c.wantAction, body)
				}
			}
			s.stillServes(t)
		})
	}
	t.Run("1,000 distinct sessions and working folders", func(t *testing.T) {
		for i := range 1_000 {
			body := []byte(fmt.Sprintf(`{"input":{"tool":"bash","input":{"command":"ls"},"session":"s%d","cwd":"/tmp/w%d"}}`, i, i))
			if status, _ := s.do(t, "POST", "/v1/data/regate/decision", "application/json", body); status != 200 {
				t.Fatalf("session %d: status %d", i, status)
			}
		}
	})
	t.Run("the policy replaced by a FIFO", func(t *testing.T) {
		if err := os.Remove(s.policy); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(s.policy, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		var health map[string]any
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if _, health = s.do(t, "GET", "/health", "", nil); health["reload_error"] != nil {
				break
			}
		}
		if health["reload_error"] == nil {
			t.Fatalf("/health does not report the refused policy: %v", health)
		}
		s.stillServes(t)
	})
	peak, err := procstat.PeakRSS(s.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("serve peak RSS %d MiB", peak>>20)
	if peak > ServeRSS {
		t.Fatalf("serve peak RSS %d MiB, ceiling %d MiB", peak>>20, ServeRSS>>20)
	}
}

// stillServes checks serve answers an ordinary call as its policy says.
func (s *serveProc) stillServes(t *testing.T) {
	t.Helper()
	status, body := s.do(t, "POST", "/v1/data/regate/decision", "application/json", decision("ok", "rm -rf build"))
	result, _ := body["result"].(map[string]any)
	if status != 200 || result["action"] != "deny" {
		t.Fatalf("serve no longer answers: status %d, %v\n%s", status, body, s.logs.String())
	}
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}
