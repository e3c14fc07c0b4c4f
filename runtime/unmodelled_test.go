package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestUnmodelledToolPaths: under the bundled default policy, a host tool
// no table maps (Claude Code's Artifact, an invented one with nested
// fields) meets the path rules with every path it holds, and its prompt
// names the path instead of ”.
func TestUnmodelledToolPaths(t *testing.T) {
	e := newDefaultEngines(t, facts.MapFS{"/home/u/repo/.env": "file", "/home/u/repo/README.md": "file"})
	for _, c := range []struct {
		call         facts.Call
		want, naming string
	}{
		{facts.Call{Tool: "Artifact", Input: map[string]any{"file_path": ".env"}}, "deny", "'.env'"},
		{facts.Call{Tool: "Artifact", Input: map[string]any{"file_paths": []any{"README.md", "/home/u/.ssh/id_rsa"}}}, "deny", "id_rsa"},
		{facts.Call{Tool: "Invented", Input: map[string]any{"job": map[string]any{"steps": []any{map[string]any{"scriptPath": "./.env"}}}}}, "deny", ".env"},
		{facts.Call{Tool: "Artifact", Input: map[string]any{"file_path": "README.md"}}, "ask", "'README.md'"},
	} {
		d, err := e.strict.Decide(context.Background(), c.call)
		if err != nil || string(d.Action) != c.want || !strings.Contains(d.Message, c.naming) {
			t.Errorf("%s %v: %s (%s, %v); want %s naming %s", c.call.Tool, c.call.Input, d.Action, d.Message, err, c.want, c.naming)
		}
	}
}
