package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
)

// TestMCPNameCollisions: a rule on an MCP operation (mcp_list, mcp_status,
// and the discovery baseline that allows them) does not allow a tool or a
// server that happens to carry the operation's name: under the default
// policy, which allows mcp_status and mcp_list, a tool called mcp_list
// asks as every other tool does, while listing and status stay allowed.
func TestMCPNameCollisions(t *testing.T) {
	e := newDefaultEngines(t, facts.MapFS{}).strict
	for _, c := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{}, "allow"},                                   // mcp_status
		{map[string]any{"server": "github"}, "allow"},                 // mcp_list
		{map[string]any{"tool": "mcp_list"}, "ask"},                   // a tool named mcp_list
		{map[string]any{"tool": "mcp_status", "server": "gh"}, "ask"}, // on a server
		{map[string]any{"tool": "mcp_list:delete_repo"}, "ask"},       // a server named mcp_list
		{map[string]any{"connect": "mcp_status"}, "allow"},            // connecting is itself a baseline operation (R6)
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "mcp", Input: c.input})
		if err != nil || string(d.Action) != c.want {
			t.Errorf("mcp %v: %s (%s, %v); want %s", c.input, d.Action, d.Matched, err, c.want)
		}
	}
}
