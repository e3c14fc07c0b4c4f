package sessiontrace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/sessiontrace"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

const (
	file    = "../../../testdata/trace/session.jsonl"
	calls   = "../../../testdata/trace/calls.jsonl"
	reviews = "../../../testdata/trace/review.jsonl"
)

// TestFileIsCurrent: testdata/trace/session.jsonl is what the generator
// writes (UPDATE_GOLDEN=1 rewrites it).
func TestFileIsCurrent(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range sessiontrace.Trace(sessiontrace.Seed) {
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatal("testdata/trace/session.jsonl is stale: UPDATE_GOLDEN=1 go test ./internal/testkit/sessiontrace")
	}
}

// TestLogsAreCurrent: testdata/trace/calls.jsonl and review.jsonl are the
// calls of the trace and the review log it leaves under the bundled default
// policy (cwd /home/u/repo, home /home/u, an empty tree), as regate suggest
// and diff read them (UPDATE_GOLDEN=1 rewrites them).
func TestLogsAreCurrent(t *testing.T) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policies/default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		t.Fatal(err)
	}
	c, r, err := sessiontrace.Logs(context.Background(), e, sessiontrace.Trace(sessiontrace.Seed))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{calls: c, reviews: r} {
		if os.Getenv("UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: UPDATE_GOLDEN=1 go test ./internal/testkit/sessiontrace", name)
		}
	}
}
