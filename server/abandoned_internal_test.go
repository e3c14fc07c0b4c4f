package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// slowFS is a file system whose first lstat of a path under /slow reports
// that it began, then takes a second: a decision that outlives its client.
type slowFS struct {
	facts.MapFS
	once    sync.Once
	entered chan struct{}
}

func (s *slowFS) Lstat(name string) (fs.FileMode, error) {
	if strings.HasPrefix(name, "/slow") {
		s.once.Do(func() { close(s.entered) })
		time.Sleep(time.Second)
	}
	return s.MapFS.Lstat(name)
}

// TestClientLeaves: a client that disconnects while its decision is being
// made gets nothing, and the decision log records the call as abandoned,
// not answered; a call answered afterwards is logged as answered.
func TestClientLeaves(t *testing.T) {
	dir := t.TempDir()
	l, err := runtime.OpenDecisionLog(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(
		`{"permission": {"*": "ask", "bash": {"*": "ask", "git status": "allow"}}}`)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Initial: out, Cwd: "/repo", Log: l})
	if err != nil {
		t.Fatal(err)
	}
	fsys := &slowFS{MapFS: facts.MapFS{}, entered: make(chan struct{})}
	eng, err := runtime.New(context.Background(), out, runtime.WithCwd("/repo"), runtime.WithFS(fsys))
	if err != nil {
		t.Fatal(err)
	}
	s.current.Store(&policy{out: out, engine: eng})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/data/regate/decision",
		strings.NewReader(`{"input": {"tool": "bash", "input": {"command": "cat /slow/x"}}}`))
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-fsys.entered // the decision is being made
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client got %v, want its own cancellation", err)
	}
	events := readLog(t, filepath.Join(dir, runtime.DecisionLogFile), 1)
	if code, body := decideOnce(ts.URL, `{"input": {"tool": "bash", "input": {"command": "git status"}}}`); code != 200 || !strings.Contains(body, `"allow"`) {
		t.Fatalf("%d %s", code, body)
	}
	events = readLog(t, filepath.Join(dir, runtime.DecisionLogFile), 2)
	if len(events) != 2 {
		t.Fatalf("%d events logged, want 2: %v", len(events), events)
	}
	first, second := events[0], events[1]
	if first["abandoned"] != true || first["result"] != nil {
		t.Errorf("the call whose client left: %v; want abandoned, without a result", first)
	}
	if in, _ := first["input"].(map[string]any); in["tool"] != "bash" {
		t.Errorf("the abandoned event's input: %v", in)
	}
	if r, _ := second["result"].(map[string]any); second["abandoned"] != nil || r["action"] != "allow" {
		t.Errorf("the answered call: %v", second)
	}
}

// readLog reads the decision log's events, waiting up to 10 s for n of
// them (the server finishes a call after its client left).
func readLog(t *testing.T, path string, n int) []map[string]any {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var out []map[string]any
		if f, err := os.Open(path); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var ev map[string]any
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					t.Fatal(err)
				}
				out = append(out, ev)
			}
			f.Close()
		}
		if len(out) >= n || time.Now().After(deadline) {
			return out
		}
	}
}

func decideOnce(url, body string) (int, string) {
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/data/regate/decision", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = bufio.NewReader(resp.Body).WriteTo(&b)
	return resp.StatusCode, b.String()
}

// TestNoRoomAbandons: a call that finds no room for its decision before
// its deadline gets 503 (the host blocks) and is logged as abandoned.
func TestNoRoomAbandons(t *testing.T) {
	dir := t.TempDir()
	l, err := runtime.OpenDecisionLog(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(`{"permission": {"*": "allow"}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Initial: out, Cwd: "/repo", Log: l})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.inFlight.Acquire(context.Background(), MaxInFlightBytes); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v1/data/regate/decision", strings.NewReader(`{"input": {"tool": "read", "input": {"path": "a"}}}`)).WithContext(ctx)
	s.decide(rec, req)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	s.inFlight.Release(MaxInFlightBytes)
	events := readLog(t, filepath.Join(dir, runtime.DecisionLogFile), 1)
	if len(events) != 1 || events[0]["abandoned"] != true {
		t.Fatalf("%v", events)
	}
	rec = httptest.NewRecorder()
	s.decide(rec, httptest.NewRequest(http.MethodPost, "/v1/data/regate/decision", strings.NewReader(`{"input": {"tool": "read", "input": {"path": "a"}}}`)))
	if rec.Code != http.StatusOK {
		t.Fatalf("with room again: %d %s", rec.Code, rec.Body)
	}
}
