package conformance_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/conformance"
	"github.com/regate/regate/runtime"
)

var severity = map[string]int{"allow": 0, "ask": 1, "deny": 2}

// strictOn turns strict mode on in a compiled policy, as "strict": true in
// policy.jsonc would.
func strictOn(out *compiler.Output) {
	rules := out.Data["regate"].(map[string]any)["rules"].(map[string]any)
	rules["policy"].(map[string]any)["strict"] = true
	out.Knobs.Strict = true
}

// TestStrictNeverLoosens: with strict mode switched on, every permission
// case decides at least as restrictively as without it, and the Go fast
// path and the pure Rego agree on every strict decision.
func TestStrictNeverLoosens(t *testing.T) {
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plainPool, strictPool := runtime.NewPool(), runtime.NewPool()
	tightened := 0
	for _, c := range cases {
		plain, call, err := c.Engine(ctx, plainPool)
		if err != nil {
			t.Fatal(err)
		}
		strict, _, err := c.EngineWith(ctx, strictPool, strictOn)
		if err != nil {
			t.Fatal(err)
		}
		pure, _, err := c.EngineWith(ctx, strictPool, strictOn, runtime.WithPureRego())
		if err != nil {
			t.Fatal(err)
		}
		a, errA := plain.Decide(ctx, call)
		b, errB := strict.Decide(ctx, call)
		p, errP := pure.Decide(ctx, call)
		if errA != nil || errB != nil || errP != nil {
			t.Fatalf("%s: %v %v %v", c.ID, errA, errB, errP)
		}
		if severity[b.Action] < severity[a.Action] {
			t.Errorf("%s: strict mode loosened %s (%s) to %s (%s)", c.ID, a.Action, a.Matched, b.Action, b.Matched)
		}
		if b != p {
			t.Errorf("%s under strict: fast %+v\n pure %+v", c.ID, b, p)
		}
		if severity[b.Action] > severity[a.Action] {
			tightened++
		}
	}
	t.Logf("%d of %d cases decide more restrictively under strict mode", tightened, len(cases))
}
