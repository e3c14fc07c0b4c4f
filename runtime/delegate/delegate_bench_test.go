package delegate_test

import (
	"context"
	"testing"

	"github.com/regate/regate/runtime/delegate"
)

// BenchmarkCeilingDecide is one call through a bare Ceiling over two named
// policies: the Rego evaluation and the state, no compilation.
func BenchmarkCeilingDecide(b *testing.B) {
	c := ceilingOf(b, map[string]string{
		"planner": `{"allowed_tools": ["read_*", "write_*"], "rate_limits": {"*": "1000000/second"}}`,
		"child":   `{"allowed_tools": ["read_*"], "rate_limits": {"*": "1000000/second"}}`,
	})
	ctx := context.Background()
	call := delegate.CeilingCall{Chain: []string{"planner", "child"}, Tool: "read_a", Agent: "c", Minute: 600, Session: "main"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Decide(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChildRunDecide is one call of a grandchild through the Go API:
// the live planner compiled again, the chain's data written, the three
// policies decided and charged.
func BenchmarkChildRunDecide(b *testing.B) {
	run := delegate.NewRun("r")
	planner := policy(b, `{"allowed_tools": ["read_*", "write_*"], "rate_limits": {"*": "1000000/second"}}`)
	mid := enter(b, run, planner, policy(b, `{"allowed_tools": ["read_*"], "rate_limits": {"*": "1000000/second"}}`), delegate.DelegateOptions{})
	lease, err := mid.Delegate(policy(b, `{"allowed_tools": ["read_*"], "rate_limits": {"*": "1000000/second"}}`), delegate.DelegateOptions{Level: 1})
	if err != nil {
		b.Fatal(err)
	}
	leaf, err := lease.Enter(run, 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	call := delegate.CeilingCall{Tool: "read_a", Minute: 600, Session: "main"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := leaf.Decide(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
}
