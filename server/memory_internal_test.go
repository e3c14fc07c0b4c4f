package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/policies"
)

// heapCeiling is what the server may hold after 100,000 sessions, as
// docs/performance.md states it: the compiled default policy and its
// engine, the two caches at their byte bound (8 MiB each), MaxSessions
// sessions and MaxApprovalsHeld approvals.
const heapCeiling = 96 << 20

// TestSessionsBoundMemory sends 100,000 calls, each from a session of its
// own and one of 2,000 working directories, some sessions approving, and
// holds the heap in use after a collection under heapCeiling. Before
// issue 20 each (session, cwd) pair kept an engine with preallocated
// caches: 1,000 sessions took 600 MB, 11,000 6.8 GB.
func TestSessionsBoundMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 decisions")
	}
	s, err := New(Config{Compile: func() (*compiler.Output, error) {
		return compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	}, Cwd: "/home/u/repo"})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	commands := []string{"git status", "ls -la src", "cat README.md", "make test", "rm -rf build", "grep -r foo ."}
	const calls = 100_000
	for i := range calls {
		session := fmt.Sprintf("session-%06d", i)
		if i%50 == 0 { // an approving session, as a user who answers a prompt
			if err := s.session(session, "/home/u").Approve(compiler.Approval{Surface: "bash", Pattern: fmt.Sprint("make t", i)}); err != nil {
				t.Fatal(err)
			}
		}
		// Distinct commands too, so the caches fill.
		cmd := fmt.Sprintf("%s # %d", commands[i%len(commands)], i%20_000)
		body := fmt.Sprintf(`{"input": {"tool": "bash", "input": {"command": %q}, "session": %q, "cwd": "/home/u/repo/d%d"}}`, cmd, session, i%2000)
		req := httptest.NewRequest(http.MethodPost, "/v1/data/regate/decision", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"action"`) {
			t.Fatalf("call %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	held, weight := s.sessions.len()
	t.Logf("after %d sessions: heap in use %.1f MiB, %d sessions held (weight %d)", calls, float64(m.HeapInuse)/(1<<20), held, weight)
	if held != MaxSessions {
		t.Errorf("%d sessions held, want MaxSessions (%d)", held, MaxSessions)
	}
	if m.HeapInuse > heapCeiling {
		t.Errorf("heap in use %.1f MiB after %d sessions, over the ceiling of %d MiB", float64(m.HeapInuse)/(1<<20), calls, heapCeiling>>20)
	}
	goruntime.KeepAlive(s)
}
