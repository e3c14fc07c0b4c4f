package delegate

import (
	"context"
	"testing"

	"github.com/regate/regate/compiler/delegation"
)

// soundnessRegressions are pairs the differential fuzzer (or the outside
// one before it) found a prover accepting while the child admitted a call
// its parent refused, each with the calls that showed it, minimised. They
// run on every `go test`, whatever the fuzzer's short run happens to draw.
var soundnessRegressions = []struct {
	name          string
	parent, child string
	request       *delegation.Request // when set, the child is Narrow(parent, request)
	calls         []CeilingCall
}{
	{
		name:   "an added rate pattern splits the parent's bucket",
		parent: `{"rate_limits": {"*": "1/hour"}}`,
		child:  `{"rate_limits": {"*": "1/hour", "read_*": "1/hour"}}`,
		calls:  []CeilingCall{{Tool: "read_a", Session: "A"}, {Tool: "write_b", Session: "A"}},
	},
	{
		name:   "a more specific added pattern beside a class pattern",
		parent: `{"rate_limits": {"[rw]*": "1/day", "x": "60/second"}}`,
		child:  `{"rate_limits": {"[rw]*": "1/day", "w*_b": "1/day", "x": "60/second"}}`,
		calls:  []CeilingCall{{Tool: "write_b", Session: "A"}, {Tool: "wire_1", Session: "A"}},
	},
	{
		name:    "narrow adds a pattern under the parent's *",
		parent:  `{"rate_limits": {"*": "1/hour"}}`,
		request: &delegation.Request{RateLimits: map[string]string{"read_[ab]": "1/hour"}},
		calls:   []CeilingCall{{Tool: "read_a", Session: "A"}, {Tool: "write_b", Session: "A"}},
	},
	{
		name:   "max_sessions 0 keeps every session, 1 forgets",
		parent: `{"amplification_budget": {"max_calls_per_run": 1, "max_sessions": 0}}`,
		child:  `{"amplification_budget": {"max_calls_per_run": 1, "max_sessions": 1}}`,
		calls:  []CeilingCall{{Tool: "t", Session: "A"}, {Tool: "t", Session: "B"}, {Tool: "t", Session: "A"}},
	},
	{
		name:    "narrow bounds the sessions under a parent's 0",
		parent:  `{"amplification_budget": {"max_calls_per_run": 5, "max_sessions": 0}}`,
		request: &delegation.Request{CallBudget: &delegation.CallBudget{MaxCalls: ptr[int64](1), MaxSessions: ptr[int64](1)}},
		calls:   []CeilingCall{{Tool: "t", Session: "A"}, {Tool: "t", Session: "B"}, {Tool: "t", Session: "A"}},
	},
}

func ptr[T any](v T) *T { return &v }

// TestSoundnessRegressions: each pair is refused by the prover (or by
// Narrow), or its calls agree.
func TestSoundnessRegressions(t *testing.T) {
	ctx := context.Background()
	h, err := newSoundHarness(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range soundnessRegressions {
		t.Run(r.name, func(t *testing.T) {
			parent, err := delegation.Decode("parent.json", []byte(r.parent))
			if err != nil {
				t.Fatal(err)
			}
			var child *delegation.Policy
			if r.request != nil {
				if child, err = parent.Narrow(*r.request); err != nil {
					return // refused: nothing to run
				}
				if ps := delegation.SubsetProblems(child, parent); len(ps) > 0 {
					t.Fatalf("Narrow's result is not proven within its parent: %v", ps)
				}
			} else {
				if child, err = delegation.Decode("child.json", []byte(r.child)); err != nil {
					t.Fatal(err)
				}
				if !child.IsSubsetOf(parent) {
					return // refused
				}
			}
			for i := range r.calls {
				r.calls[i].Minute = 720
			}
			d, err := h.replay(ctx, parent, child, r.calls, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				t.Fatalf("accepted %s within %s, and call %d (%s) is allowed by the child, %s by the parent",
					compact(docOf(child)), r.parent, d.step+1, r.calls[d.step].Tool, decisionString(d.parent))
			}
		})
	}
}
