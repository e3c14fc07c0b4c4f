package statedir_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestStoredDecisionsAnswerWithoutTheRules: a second process (a new engine
// built from the metadata alone) answers a call the first decided from the
// folder, without loading the rules; a new call loads them once. The
// answers are the first engine's, message included.
func TestStoredDecisionsAnswerWithoutTheRules(t *testing.T) {
	dir, err := statedir.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	in := compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(`{"permission": {"*": "ask", "bash": {"git *": "allow", "rm *": {"action": "deny", "reason": "no"}}}}`)}}
	calls := []facts.Call{
		{Tool: "bash", Input: map[string]any{"command": "git status && rm -rf /"}},
		{Tool: "bash", Input: map[string]any{"command": "git log"}},
	}
	engine := func() (*runtime.Engine, *int) {
		meta, load, err := dir.Meta(in, compiler.WithHome("/home/u"))
		if err != nil {
			t.Fatal(err)
		}
		if meta.Data != nil || meta.Modules != nil {
			t.Logf("a fresh folder compiles: the metadata is the whole policy")
		}
		loads := new(int)
		store, err := dir.Decisions()
		if err != nil {
			t.Fatal(err)
		}
		e, err := runtime.New(context.Background(), meta, runtime.WithCwd("/repo"), runtime.WithFS(facts.MapFS{}),
			runtime.WithDecisionStore(store), runtime.WithLoader(func() (*compiler.Output, error) { *loads++; return load() }))
		if err != nil {
			t.Fatal(err)
		}
		return e, loads
	}
	first, _ := engine()
	var want []runtime.Decision
	for _, c := range calls {
		d, err := first.Decide(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d)
	}
	second, loads := engine()
	for i, c := range calls {
		d, err := second.Decide(context.Background(), c)
		if err != nil || d != want[i] {
			t.Fatalf("stored %+v (%v), want %+v", d, err, want[i])
		}
	}
	if *loads != 0 {
		t.Fatalf("the stored decisions loaded the rules %d times", *loads)
	}
	if d, err := second.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": "ls"}}); err != nil || d.Action != "ask" {
		t.Fatalf("a new call: %+v %v", d, err)
	}
	if *loads != 1 {
		t.Fatalf("a new call loaded the rules %d times, want 1", *loads)
	}
}

// TestForgedDecisionIsAMiss: a stored decision edited in place (an allow
// written over a deny), or written without the folder's key, is a miss,
// never an answer.
func TestForgedDecisionIsAMiss(t *testing.T) {
	root := t.TempDir()
	dir, err := statedir.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	store, err := dir.Decisions()
	if err != nil {
		t.Fatal(err)
	}
	key := strings.Repeat("ab", 32)
	deny := runtime.Decision{Action: "deny", Matched: "rm *", Layer: "policy", Message: "no"}
	store.Put(key, deny)
	if d, ok := store.Get(key); !ok || d != deny {
		t.Fatalf("stored %+v %v", d, ok)
	}
	file := filepath.Join(root, "decisions", key[:2], key)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(b), `"deny"`, `"allow"`, 1)
	if err := os.WriteFile(file, []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	if d, ok := store.Get(key); ok {
		t.Fatalf("an edited decision answered: %+v", d)
	}
	// Written whole by someone without the key.
	raw, _ := json.Marshal(map[string]any{"decision": runtime.Decision{Action: "allow"}, "mac": strings.Repeat("0", 64)})
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if d, ok := store.Get(key); ok {
		t.Fatalf("a forged decision answered: %+v", d)
	}
	// Another folder's key does not verify this folder's decisions.
	otherRoot := t.TempDir()
	other, _ := statedir.Open(otherRoot)
	otherStore, _ := other.Decisions()
	store.Put(key, deny)
	b, _ = os.ReadFile(file)
	if err := os.MkdirAll(filepath.Join(otherRoot, "decisions", key[:2]), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(otherRoot, "decisions", key[:2], key), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := otherStore.Get(key); ok {
		t.Fatal("a decision verified under another folder's key")
	}
}
