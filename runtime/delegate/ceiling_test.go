package delegate_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

func ceilingOf(t testing.TB, policies map[string]string) *delegate.Ceiling {
	t.Helper()
	decoded := map[string]*delegation.Policy{}
	for name, src := range policies {
		p, err := delegation.Decode(name+".jsonc", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		decoded[name] = p
	}
	out, err := delegation.Compile(decoded)
	if err != nil {
		t.Fatal(err)
	}
	c, err := delegate.NewCeiling(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Siblings deciding at once never spend more of their parent's bucket and
// budget than it holds.
func TestCeilingSiblingsNeverOverspend(t *testing.T) {
	c := ceilingOf(t, map[string]string{
		"planner": `{"rate_limits": {"*": "10/hour"}, "amplification_budget": {"max_calls_per_run": 8}}`,
		"alpha":   `{}`,
		"beta":    `{}`,
	})
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			child := []string{"alpha", "beta"}[i%2]
			d, err := c.Decide(context.Background(), delegate.CeilingCall{
				Chain: []string{"planner", child}, Tool: fmt.Sprintf("t%d", i), Agent: child, Minute: 720, Session: "main",
			})
			if err != nil {
				t.Error(err)
				return
			}
			if d.Decision == "allow" {
				allowed.Add(1)
			} else if d.Layer != delegation.Layer || (d.Violation != "budget_exceeded" && d.Violation != "rate_limited") {
				t.Errorf("refusal %+v", d)
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != 8 {
		t.Fatalf("%d calls allowed; the budget holds 8", n)
	}
}

func TestCeilingEscalatesToTheOutermostApprover(t *testing.T) {
	c := ceilingOf(t, map[string]string{
		"planner": `{"escalate_tools": {"wire_*": "money moves"}, "approver": "treasury"}`,
		"child":   `{"escalate_tools": {"wire_*": "money moves"}}`,
	})
	d, err := c.Decide(context.Background(), delegate.CeilingCall{Chain: []string{"planner", "child"}, Tool: "wire_out", Agent: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != "escalate" || d.Approver != "treasury" || d.Policy != "planner" {
		t.Fatalf("%+v; want an escalation to treasury by planner", d)
	}
}
