package runtime_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestCacheAgreesOnWorkload: with the cache, cold and warm, every decision
// of the workload is the one the engine makes without it.
func TestCacheAgreesOnWorkload(t *testing.T) {
	src, _ := fs.ReadFile(policies.FS, "read-only-bash-allowlist.jsonc")
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: src}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fsys := facts.MapFS{"/home/u/repo/id_rsa": "file"}
	cached, _ := runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(fsys))
	plain, _ := runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(fsys), runtime.WithCacheSize(0))
	calls := mixedCalls(t)
	for round := 0; round < 2; round++ {
		for _, c := range calls {
			a, errA := cached.Decide(ctx, c)
			b, errB := plain.Decide(ctx, c)
			if errA != nil || errB != nil || a != b {
				t.Fatalf("round %d %v: cached %+v (%v), uncached %+v (%v)", round, c, a, errA, b, errB)
			}
		}
	}
}

// TestCacheInvalidation: an approval, or a change on disk, is seen by the
// very next decision even when the same call was cached before it.
func TestCacheInvalidation(t *testing.T) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(
		`{"permission": {"*": "allow", "bash": {"*": "ask"}, "path": {"id_rsa": "deny"}}}`)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fsys := facts.MapFS{}
	e, _ := runtime.New(ctx, out, runtime.WithCwd("/r"), runtime.WithFS(fsys))
	call := facts.Call{Tool: "bash", Input: map[string]any{"command": "cat id_rsa"}}
	decide := func() runtime.Decision {
		t.Helper()
		d, err := e.Decide(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := decide(); d.Action != "ask" || d.Matched != "*" {
		t.Fatalf("before: %+v", d)
	}
	if err := e.Session().Approve(compiler.Approval{Surface: "bash", Pattern: "cat *"}); err != nil {
		t.Fatal(err)
	}
	if d := decide(); d.Action != "allow" || d.Layer != "session" {
		t.Fatalf("after the approval the cached ask was served: %+v", d)
	}
	fsys["/r/id_rsa"] = "file" // id_rsa now exists: a bare token the path rule names
	if d := decide(); d.Action != "deny" || d.Matched != "id_rsa" {
		t.Fatalf("after id_rsa appeared the cached allow was served: %+v", d)
	}
}

// TestCacheKeysStrictFacts: two calls whose facts differ only in what strict
// mode floors (a check's Strict) get their own decisions, in either order;
// the cache once keyed by hand left Strict out, so the allow of the first
// answered the second.
func TestCacheKeysStrictFacts(t *testing.T) {
	src := []byte(`{"strict": true, "permission": {"*": "ask", "bash": {"*": "ask", "ls *": "allow"}}}`)
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: src}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plain := func() *facts.Input {
		return &facts.Input{Tool: "bash", Checks: []facts.Check{{Surface: "bash", Value: "ls -la", Forms: [][]string{{"ls -la"}}}}}
	}
	floored := plain()
	floored.Checks[0].Strict = "an environment that changes what runs"
	for _, order := range [][]*facts.Input{{plain(), floored}, {floored, plain()}} {
		eng, err := runtime.New(ctx, out, runtime.WithCwd("/repo"))
		if err != nil {
			t.Fatal(err)
		}
		got := map[bool]action.Action{}
		for _, in := range order {
			d, err := eng.DecideFacts(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			got[in.Checks[0].Strict != ""] = d.Action
		}
		if got[false] != "allow" || got[true] != "ask" {
			t.Errorf("plain %s, strict-floored %s; want allow and ask whatever the order", got[false], got[true])
		}
	}
}
