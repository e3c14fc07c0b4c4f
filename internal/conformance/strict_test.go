package conformance_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/conformance"
	"github.com/regate/regate/runtime"
)

// strictOn turns strict mode on in a compiled policy, as "strict": true in
// policy.jsonc would.
func strictOn(out *compiler.Output) {
	rules := out.Data["regate"].(map[string]any)["rules"].(map[string]any)
	rules["policy"].(map[string]any)["strict"] = true
	out.Knobs.Strict = true
}

// TestStrictNeverLoosens: with strict mode switched on, every permission
// case decides at least as restrictively as without it, and the Go fast
// path and the pure Rego agree on every strict decision, message included.
// Cases run as parallel subtests.
func TestStrictNeverLoosens(t *testing.T) {
	t.Parallel()
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lib := newPureLibrary(t)
	var tightened atomic.Int64
	t.Cleanup(func() {
		t.Logf("%d of %d cases decide more restrictively under strict mode", tightened.Load(), len(cases))
	})
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			// Pools of its own: the rules the strict engine holds are the
			// ones the pure library reads, in this goroutine only.
			plainPool, strictPool := runtime.NewPool(), runtime.NewPool()
			plain, call, err := c.Engine(ctx, plainPool)
			if err != nil {
				t.Fatal(err)
			}
			var out *compiler.Output
			strict, _, err := c.EngineWith(ctx, strictPool, func(o *compiler.Output) { strictOn(o); out = o })
			if err != nil {
				t.Fatal(err)
			}
			a, errA := plain.Decide(ctx, call)
			b, errB := strict.Decide(ctx, call)
			if errA != nil || errB != nil {
				t.Fatalf("%v %v", errA, errB)
			}
			doc, err := strict.Input(call)
			if err != nil {
				t.Fatal(err)
			}
			p, err := lib.response(ctx, out, doc)
			if err != nil {
				t.Fatal(err)
			}
			if a.Action.Stricter(b.Action) {
				t.Errorf("strict mode loosened %s (%s) to %s (%s)", a.Action, a.Matched, b.Action, b.Matched)
			}
			if b != p {
				t.Errorf("under strict: fast %+v\n pure %+v", b, p)
			}
			if b.Action.Stricter(a.Action) {
				tightened.Add(1)
			}
		})
	}
}
