package delegate_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

// A planner hands research to a child: it narrows its own policy for the
// child, proves the child within itself, and holds the child's calls to
// the chain at the ceiling.
func Example_delegation() {
	ctx := context.Background()
	planner, err := delegation.Decode("planner.jsonc", []byte(`{
		// the planner's own policy
		"allowed_tools": ["read_*", "write_file", "spawn_agent"],
		"rate_limits": {"*": "100/hour"}
	}`))
	if err != nil {
		panic(err)
	}

	researcher, err := planner.Narrow(delegation.Request{
		AllowedTools: []string{"read_*", "search"}, // "search" is not the planner's: dropped
		DeniedTools:  []string{"read_secrets"},
		RateLimits:   map[string]string{"*": "20/hour"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("researcher may use:", researcher.AllowedTools, "except", researcher.DeniedTools)
	fmt.Println("within the planner:", researcher.IsSubsetOf(planner))

	// A request that would widen the planner is refused, naming what widens it.
	_, err = planner.Narrow(delegation.Request{RateLimits: map[string]string{"*": "10/minute"}})
	fmt.Println(err)

	out, err := delegation.Compile(map[string]*delegation.Policy{"planner": planner, "researcher": researcher})
	if err != nil {
		panic(err)
	}
	ceiling, err := delegate.NewCeiling(ctx, out)
	if err != nil {
		panic(err)
	}
	for _, tool := range []string{"read_notes", "write_file", "read_secrets"} {
		d, err := ceiling.Decide(ctx, delegate.CeilingCall{
			Chain: []string{"planner", "researcher"}, Tool: tool, Agent: "researcher", Minute: 10 * 60, Session: "run-1",
		})
		if err != nil {
			panic(err)
		}
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %s %s %s", tool, d.Decision, d.Layer, d.Violation)))
	}
	// Output:
	// researcher may use: [read_*] except [read_secrets]
	// within the planner: true
	// narrow: the request widens the policy: rate_limits["*"]: 10/minute is looser than the parent's 100/hour for "*"
	// read_notes: allow
	// write_file: deny 2.1:delegation_ceiling tool_not_allowed
	// read_secrets: deny 2.1:delegation_ceiling tool_denied
}
