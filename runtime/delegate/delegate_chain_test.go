package delegate_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

func policy(t testing.TB, src string) *delegation.Policy {
	t.Helper()
	p, err := delegation.Decode("p.jsonc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// enter delegates child (a copy of parent when nil) from parent in run and
// enters it.
func enter(t testing.TB, run *delegate.Run, parent, child *delegation.Policy, o delegate.DelegateOptions) *delegate.ChildRun {
	t.Helper()
	if child == nil {
		child = parent.Clone()
	}
	d, err := run.Delegate(parent, child, o)
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Enter(run, o.Level)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// calls decides tools in order through the child runs given, all at time
// at, and returns each decision as "allow", or the decision and violation.
func calls(t testing.TB, at float64, steps ...any) []string {
	t.Helper()
	var out []string
	var c *delegate.ChildRun
	for _, s := range steps {
		switch s := s.(type) {
		case *delegate.ChildRun:
			c = s
		case string:
			d, err := c.Decide(context.Background(), delegate.CeilingCall{Tool: s, Minute: 600, At: at, Session: "main"})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, summary(d))
		}
	}
	return out
}

func summary(d delegate.CeilingDecision) string {
	if d.Violation == "" {
		return d.Decision
	}
	return d.Decision + " " + d.Violation
}

// TestChainStateSharing: siblings share their parent's buckets by default
// and only by opting out do not; two parents never mix their buckets, in
// one run or in runs sharing a state; a child's own rate is its own.
func TestChainStateSharing(t *testing.T) {
	slow := `{"rate_limits": {"*": "1/hour"}}`
	for _, tt := range []struct {
		name string
		run  func(t *testing.T) []string
		want []string
	}{
		{"siblings share the parent's bucket", func(t *testing.T) []string {
			run, planner := delegate.NewRun("r"), policy(t, `{"rate_limits": {"*": "2/hour"}}`)
			a, b := enter(t, run, planner, nil, delegate.DelegateOptions{}), enter(t, run, planner, nil, delegate.DelegateOptions{})
			return calls(t, 0, a, "x", b, "y", a, "z")
		}, []string{"allow", "allow", "deny rate_limited"}},
		{"isolated siblings do not", func(t *testing.T) []string {
			run, planner := delegate.NewRun("r"), policy(t, `{"rate_limits": {"*": "2/hour"}}`)
			iso := delegate.DelegateOptions{Isolated: true}
			a, b := enter(t, run, planner, nil, iso), enter(t, run, planner, nil, iso)
			return calls(t, 0, a, "x", b, "y", a, "z")
		}, []string{"allow", "allow", "allow"}},
		{"two parents in one run keep their own buckets", func(t *testing.T) []string {
			run := delegate.NewRun("r")
			p1, p10 := policy(t, slow), policy(t, `{"rate_limits": {"*": "10/hour"}}`)
			c1, c10 := enter(t, run, p1, nil, delegate.DelegateOptions{}), enter(t, run, p10, nil, delegate.DelegateOptions{})
			return calls(t, 0, c1, "a", c1, "b", c10, "c", c10, "d", c10, "e")
		}, []string{"allow", "deny rate_limited", "allow", "allow", "allow"}},
		{"runs sharing a state keep their own buckets", func(t *testing.T) []string {
			state := delegate.NewMemoryCeilingState()
			r1, r2 := delegate.NewRun("r1", delegate.WithRunState(state)), delegate.NewRun("r2", delegate.WithRunState(state))
			c1 := enter(t, r1, policy(t, slow), nil, delegate.DelegateOptions{})
			c2 := enter(t, r2, policy(t, `{"rate_limits": {"*": "10/hour"}}`), nil, delegate.DelegateOptions{})
			return calls(t, 0, c1, "a", c2, "b", c2, "c", c1, "d")
		}, []string{"allow", "allow", "allow", "deny rate_limited"}},
		{"a child's own rate is its own", func(t *testing.T) []string {
			run, planner := delegate.NewRun("r"), policy(t, `{"rate_limits": {"*": "10/hour"}}`)
			a := enter(t, run, planner, policy(t, slow), delegate.DelegateOptions{})
			b := enter(t, run, planner, policy(t, slow), delegate.DelegateOptions{})
			return calls(t, 0, a, "x", a, "y", b, "z")
		}, []string{"allow", "deny rate_limited", "allow"}},
		{"a Run built without NewRun", func(t *testing.T) []string {
			run, planner := &delegate.Run{ID: "bare"}, policy(t, slow)
			c := enter(t, run, planner, nil, delegate.DelegateOptions{})
			return calls(t, 0, c, "x", c, "y")
		}, []string{"allow", "deny rate_limited"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run(t); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("%v; want %v", got, tt.want)
			}
		})
	}
}

// TestGrandchildIsCheckedAgainstEveryAncestor: a grandchild delegated from
// a child run is held to the planner as it is now (here tightened after the
// delegations), which the middle policy does not repeat, and stops when the
// middle run exits.
func TestGrandchildIsCheckedAgainstEveryAncestor(t *testing.T) {
	ctx := context.Background()
	run := delegate.NewRun("r")
	planner := policy(t, `{"allowed_tools": ["read_*"]}`)
	mid := enter(t, run, planner, nil, delegate.DelegateOptions{AgentID: "mid"})
	lease, err := mid.Delegate(policy(t, `{"allowed_tools": ["read_*"]}`), delegate.DelegateOptions{AgentID: "leaf", Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := lease.Enter(run, 1)
	if err != nil {
		t.Fatal(err)
	}
	if chain := leaf.Chain(); len(chain) != 3 || chain[0] != run.PolicyID(planner) || chain[1] != mid.Chain()[1] {
		t.Fatalf("the leaf's chain %v; want the planner's id, the mid's, its own", chain)
	}
	*planner = *policy(t, `{"allowed_tools": ["read_*"], "denied_tools": ["read_secret"]}`)
	d, err := leaf.Decide(ctx, delegate.CeilingCall{Tool: "read_secret", Minute: 600})
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != "deny" || d.Violation != "tool_denied" || d.Policy != run.PolicyID(planner) {
		t.Fatalf("%+v; want the planner's tool_denied", d)
	}
	if got := calls(t, 0, leaf, "read_a"); got[0] != "allow" {
		t.Fatalf("read_a: %v", got)
	}
	if _, err := mid.Delegate(policy(t, `{"allowed_tools": ["write_*"]}`), delegate.DelegateOptions{}); err == nil {
		t.Error("a grandchild wider than its parent was delegated")
	}
	second, err := mid.Delegate(policy(t, `{"allowed_tools": ["read_*"]}`), delegate.DelegateOptions{Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	mid.Exit()
	if got := calls(t, 0, leaf, "read_a"); got[0] != "deny not_running" {
		t.Errorf("the leaf after its parent exited: %v; want not_running", got)
	}
	if _, err := second.Enter(run, 1); !errors.Is(err, delegate.ErrEntryRefused) {
		t.Errorf("entering under an exited run: %v; want ErrEntryRefused", err)
	}
	if _, err := mid.Delegate(policy(t, `{"allowed_tools": ["read_*"]}`), delegate.DelegateOptions{}); err == nil {
		t.Error("an exited run delegated")
	}
}

// TestSiblingRunsNeverOverspend: children of one parent, deciding at once
// from many goroutines, never spend more of the parent's call budget than
// it holds (one ceiling serializes the run's decisions).
func TestSiblingRunsNeverOverspend(t *testing.T) {
	run := delegate.NewRun("r")
	planner := policy(t, `{"amplification_budget": {"max_calls_per_run": 8}}`)
	children := []*delegate.ChildRun{
		enter(t, run, planner, nil, delegate.DelegateOptions{AgentID: "a"}),
		enter(t, run, planner, nil, delegate.DelegateOptions{AgentID: "b"}),
	}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := children[i%2].Decide(context.Background(), delegate.CeilingCall{Tool: fmt.Sprint("t", i), Session: "main"})
			if err != nil {
				t.Error(err)
			}
			if d.Decision == "allow" {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != 8 {
		t.Fatalf("%d calls allowed; the parent's budget holds 8", n)
	}
}
