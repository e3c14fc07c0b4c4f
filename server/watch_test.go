//go:build unix

package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/rulefile"
	"github.com/regate/regate/server"
)

// watchedServer serves the policy at path, compiled the way regate serve
// reads rule files, with the watcher running every few milliseconds.
func watchedServer(t *testing.T, path string) *httptest.Server {
	t.Helper()
	compile := func() (*compiler.Output, error) {
		b, err := rulefile.Read(path, compiler.MaxFileSize)
		if err != nil {
			return nil, err
		}
		return compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: path, Data: b}}, compiler.WithHome("/home/u"))
	}
	s, err := server.New(server.Config{Compile: compile, Watch: []string{path}, Cwd: "/repo"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go s.Watch(ctx, 5*time.Millisecond)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { cancel(); ts.Close() })
	return ts
}

func health(t *testing.T, ts *httptest.Server) map[string]any {
	t.Helper()
	resp, err := http.Get(ts.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// eventually waits for cond, which the watcher makes true within a few of
// its intervals; it fails the test after 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after 10 s", what)
		}
	}
}

const makeCall = `{"input": {"tool": "bash", "input": {"command": "make"}}}`

// TestWatchRefusedFile: a FIFO, then /dev/zero (a symlink to it), put at
// the policy path never block the watcher: /health names the file and the
// reason, decisions go on with the last good policy, and a good file put
// back is reloaded.
func TestWatchRefusedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.jsonc")
	if err := os.WriteFile(path, []byte(`{"permission": {"bash": {"make": "allow"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ts := watchedServer(t, path)
	for _, c := range []struct {
		name   string
		put    func() error
		reason string
	}{
		{"a FIFO", func() error { return syscall.Mkfifo(path, 0o600) }, "named pipe"},
		{"/dev/zero", func() error { return os.Symlink("/dev/zero", path) }, "device"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := c.put(); err != nil {
				t.Skipf("cannot make %s here: %v", c.name, err)
			}
			eventually(t, "reporting "+c.name, func() bool {
				h := health(t, ts)
				reason, _ := h["reload_reason"].(string)
				return h["reload_file"] == path && strings.Contains(reason, c.reason) && h["reload_error"] != nil
			})
			if code, out := post(t, ts, "/v1/data/regate/decision", makeCall, ""); code != 200 || action(out) != "allow" {
				t.Fatalf("serve stopped answering with the last good policy: %d %v", code, out)
			}
		})
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"permission": {"bash": {"make": "deny"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, "reloading the regular file put back", func() bool {
		_, out := post(t, ts, "/v1/data/regate/decision", makeCall, "")
		h := health(t, ts)
		return action(out) == "deny" && h["reload_error"] == nil && h["reload_file"] == nil
	})
}

// TestWatchSameSizeSameTime: a rewrite that keeps the size and the
// modification time is seen, by content.
func TestWatchSameSizeSameTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.jsonc")
	ask, deny := `{"permission": {"bash": {"make": "ask"}}}`, `{"permission": {"bash": {"make":"deny"}}}`
	if len(ask) != len(deny) {
		t.Fatal("the two policies must be the same size")
	}
	if err := os.WriteFile(path, []byte(`{"permission": {"bash": {"make": "allow"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ts := watchedServer(t, path)
	decides := func(want string) func() bool {
		return func() bool {
			_, out := post(t, ts, "/v1/data/regate/decision", makeCall, "")
			return action(out) == want
		}
	}
	// A first edit, seen: the watcher has looked at the file as it is now.
	if err := os.WriteFile(path, []byte(ask), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, "reloading the first edit", decides("ask"))
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(deny), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.Stat(path); now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) {
		t.Fatalf("the rewrite changed the stat: %d %s, was %d %s", now.Size(), now.ModTime(), st.Size(), st.ModTime())
	}
	eventually(t, "reloading the same-size same-time rewrite", decides("deny"))
}
