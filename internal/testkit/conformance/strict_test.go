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

// examinedOnly are the cases strict mode decides less restrictively, on
// purpose: the command only examines a file the case's path rule denies
// (its name, size and times), which strict mode does not count as reading
// it (the "stat" role, docs/strict.md). Strict mode must allow each one;
// without strict mode the case holds as written.
var examinedOnly = map[string]string{
	"ro-stat-env-local-denied": "stat prints .env.local's name, size and times, never its contents",
}

// TestStrictNeverLoosens: with strict mode switched on in the policy, every
// permission case decides at least as restrictively as without it, but for
// examinedOnly. Cases run as parallel subtests.
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
	ids := map[string]bool{}
	for _, c := range cases {
		ids[c.ID] = true
	}
	for id := range examinedOnly {
		if !ids[id] {
			t.Errorf("examinedOnly names %s, which is not a case any more", id)
		}
	}
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
			if why, ok := examinedOnly[c.ID]; ok {
				if b.Action != "allow" {
					t.Errorf("strict mode: %s (%s); want allow: %s", b.Action, b.Matched, why)
				}
				return
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
