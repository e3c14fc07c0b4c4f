package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/compiler"
)

// TestWatchStuck: a read that never returns (a hung mount) is reported
// stuck by /health's body, naming the file, and the watcher starts no
// second look meanwhile.
func TestWatchStuck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.jsonc")
	if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: path, Data: []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Initial: out, Compile: func() (*compiler.Output, error) { return out, nil }, Watch: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	hang := make(chan struct{})
	defer close(hang)
	looks := make(chan struct{}, 100)
	s.watch.open = func(string) (*os.File, error) { looks <- struct{}{}; <-hang; return nil, os.ErrClosed }
	s.watch.stuckAfter = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx, time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		body := map[string]any{}
		s.watch.report(body)
		if reason, _ := body["reload_reason"].(string); strings.HasPrefix(reason, "stuck: reading it") && body["reload_file"] == path {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stuck report after 10 s: %v", body)
		}
	}
	if n := len(looks); n != 1 {
		t.Fatalf("%d looks started while the first was stuck, want 1", n)
	}
}
