package conformance_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/internal/testkit/conformance"
	"github.com/regate/regate/runtime"
)

// strictOn is the case's policy with "strict": true, or false when the
// policy is not an object (a case about a broken file).
func strictOn(policy json.RawMessage) (json.RawMessage, bool) {
	var doc map[string]json.RawMessage
	if len(policy) == 0 {
		doc = map[string]json.RawMessage{}
	} else if json.Unmarshal(policy, &doc) != nil {
		return nil, false
	}
	doc["strict"] = json.RawMessage("true")
	b, err := json.Marshal(doc)
	return b, err == nil
}

// TestStrictNeverLoosens: with strict mode switched on in the policy, every
// permission case decides at least as restrictively as without it. Cases run
// as parallel subtests.
func TestStrictNeverLoosens(t *testing.T) {
	t.Parallel()
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var tightened atomic.Int64
	t.Cleanup(func() {
		t.Logf("%d of %d cases decide more restrictively under strict mode", tightened.Load(), len(cases))
	})
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			plainPool, strictPool := runtime.NewPool(), runtime.NewPool()
			plain, call, err := c.Engine(ctx, plainPool)
			if err != nil {
				t.Fatal(err)
			}
			sc := *c
			var ok bool
			if sc.Policy, ok = strictOn(c.Policy); !ok {
				t.Skip("the case's policy is not an object")
			}
			strict, _, err := sc.Engine(ctx, strictPool)
			if err != nil {
				t.Fatal(err)
			}
			a, errA := plain.Decide(ctx, call)
			b, errB := strict.Decide(ctx, call)
			if errA != nil || errB != nil {
				t.Fatalf("%v %v", errA, errB)
			}
			if a.Action.Stricter(b.Action) {
				t.Errorf("strict mode loosened %s (%s) to %s (%s)", a.Action, a.Matched, b.Action, b.Matched)
			}
			if b.Action.Stricter(a.Action) {
				tightened.Add(1)
			}
		})
	}
}
