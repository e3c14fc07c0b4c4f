package stockopa

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
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Binary builds the opa command of the pinned module once per test
// process (from the build cache when it is there) and returns its path.
// Tests skip in -short mode.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("stock OPA tests build the opa binary; skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("stock OPA tests run an external process; skipped under the race detector")
	}
	buildOnce.Do(func() {
		// opa is a tool of go.mod: `go tool -n opa` builds it into the
		// build cache once and prints its path, so a warm cache spares
		// the link (3 to 4 seconds) that `go build -o` does every time.
		if out, err := exec.Command("go", "tool", "-n", "opa").Output(); err == nil {
			if p := strings.TrimSpace(string(out)); p != "" && !strings.ContainsAny(p, " \n") {
				if _, err := os.Stat(p); err == nil {
					binary = p
					return
				}
			}
		}
		dir, err := os.MkdirTemp("", "regate-stockopa-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "opa")
		cmd := exec.Command("go", "build", "-o", binary, "github.com/open-policy-agent/opa")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build opa: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// Server is a running stock OPA server.
type Server struct {
	URL string
	// Pid is the server's process id.
	Pid    int
	client *http.Client
}

// Start runs `opa run --server` on a free loopback port with args (bundle
// paths, flags), and stops it when the test ends.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	bin := Binary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append([]string{"run", "--server", "--addr", addr, "--log-level", "error"}, args...)...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	s := &Server{URL: "http://" + addr, Pid: cmd.Process.Pid, client: &http.Client{Timeout: 30 * time.Second}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := s.client.Get(s.URL + "/health?bundles")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("opa did not become healthy at %s: %v\n%s", addr, err, logs.String())
		}
	}
}

// PutPolicy puts one Rego module through the Policy API.
func (s *Server) PutPolicy(id, text string) error {
	return s.do(http.MethodPut, "/v1/policies/"+id, "text/plain", strings.NewReader(text), nil)
}

// PutData replaces the document at path (slash-separated) with v.
func (s *Server) PutData(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.do(http.MethodPut, "/v1/data/"+path, "application/json", bytes.NewReader(b), nil)
}

// Query posts input to the Data API at path and decodes the result; it
// is nil when the document is undefined.
func (s *Server) Query(path string, input any) (any, error) {
	b, err := json.Marshal(map[string]any{"input": input})
	if err != nil {
		return nil, err
	}
	var out struct {
		Result any `json:"result"`
	}
	if err := s.do(http.MethodPost, "/v1/data/"+path, "application/json", bytes.NewReader(b), &out); err != nil {
		return nil, err
	}
	return out.Result, nil
}

func (s *Server) do(method, path, ctype string, body io.Reader, out any) error {
	req, err := http.NewRequest(method, s.URL+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// PutModules puts modules (path → text) through the Policy API. The API
// compiles each module as it arrives, so one that imports another must
// come after it: it puts what compiles until all do.
func (s *Server) PutModules(modules map[string]string) error {
	for pending := modules; len(pending) > 0; {
		failed := map[string]string{}
		var lastErr error
		for path, text := range pending {
			if err := s.PutPolicy(path, text); err != nil {
				failed[path], lastErr = text, err
			}
		}
		if len(failed) == len(pending) {
			return lastErr
		}
		pending = failed
	}
	return nil
}
