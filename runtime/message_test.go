package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestSessionApprovalMessage: when a session approval decides, the agent's
// message says so, and the plain document an OPA server answers carries
// the same; any other layer keeps the plain "matched" note.
func TestSessionApprovalMessage(t *testing.T) {
	const policy = `{"permission": {"*": "ask", "bash": {"*": "ask", "make deploy": "deny", "git status": "allow"}}}`
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(policy)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct {
		name, command, layer, want string
	}{
		{"a session approval lifts an ordinary deny", "make deploy", "session",
			"[regate] the agent may run 'bash' command 'make deploy' (matched 'make deploy', approved for this session)."},
		{"the policy's own allow", "git status", "policy",
			"[regate] the agent may run 'bash' command 'git status' (matched 'git status')."},
		{"no approval, no rule", "ls", "policy",
			"[regate] the agent needs approval to run 'bash' command 'ls' (matched '*')."},
	}
	{
		e, err := runtime.New(ctx, out, runtime.WithCwd("/repo"), runtime.WithFS(facts.MapFS{}))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Session().Approve(compiler.Approval{Surface: "bash", Pattern: "make deploy"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.command}}
			d, err := e.Decide(ctx, call)
			if err != nil {
				t.Fatal(err)
			}
			if d.Layer != c.layer || d.Message != c.want {
				t.Errorf("%s: layer %q, message\n got %q\nwant %q", c.name, d.Layer, d.Message, c.want)
			}
			resp, err := e.Response(ctx, call)
			if err != nil {
				t.Fatal(err)
			}
			if resp["message"] != c.want {
				t.Errorf("%s: the plain document says\n %q\nwant %q", c.name, resp["message"], c.want)
			}
		}
	}
}
