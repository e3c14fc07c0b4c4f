package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestOverBudgetAsks: a call past the runtime's work budget is decided,
// quickly and cheaply, as ask, even under a policy that allows everything
// (an error status would block the call outright; an ask lets the person
// decide, which is the budget's promise: no real call meets it).
func TestOverBudgetAsks(t *testing.T) {
	_, _, ts := newServer(t, `{"permission": {"*": "allow", "bash": {"*": "allow"}, "mcp": {"*": "allow"}}}`, "")
	paths := make([]any, facts.MaxChecks+1)
	for i := range paths {
		paths[i] = fmt.Sprintf("/p/%d", i)
	}
	for _, c := range []struct {
		name  string
		input map[string]any
	}{
		{"200 KB of words", map[string]any{"tool": "bash", "input": map[string]any{"command": "ls " + strings.Repeat("a ", 100_000)}}},
		{"200 KB of brace groups", map[string]any{"tool": "bash", "input": map[string]any{"command": "echo " + strings.Repeat("{a,b}", 40_000)}}},
		{"a path past PATH_MAX", map[string]any{"tool": "read", "input": map[string]any{"path": "/" + strings.Repeat("a/", 3000)}}},
		{"an MCP list of paths past the checks", map[string]any{"tool": "mcp", "input": map[string]any{"server": "s", "tool": "t", "arguments": map[string]any{"path": paths}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"input": c.input})
			code, out := post(t, ts, "/v1/data/regate/decision", string(body), "")
			if code != 200 || action(out) != "ask" {
				t.Fatalf("%d %.300v", code, out)
			}
		})
	}
	// Under the budget the same policy allows.
	code, out := post(t, ts, "/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "ls a b c"}}}`, "")
	if code != 200 || action(out) != "allow" {
		t.Fatalf("%d %v", code, out)
	}
}

// TestScopeLimits: a session id or working directory past its bound, or a
// relative working directory, is refused with 400; at the bound it is
// served.
func TestScopeLimits(t *testing.T) {
	_, _, ts := newServer(t, policy, "")
	call := func(session, cwd string) int {
		body, _ := json.Marshal(map[string]any{"input": map[string]any{"tool": "bash", "input": map[string]any{"command": "ls"}, "session": session, "cwd": cwd}})
		code, _ := post(t, ts, "/v1/data/regate/decision", string(body), "")
		return code
	}
	longCwd := "/" + strings.Repeat("d", 4095)
	for _, c := range []struct {
		session, cwd string
		want         int
	}{
		{strings.Repeat("s", 256), "/repo", 200},
		{strings.Repeat("s", 257), "/repo", 400},
		{"s", longCwd, 200},
		{"s", longCwd + "d", 400},
		{"s", "repo", 400},
	} {
		if got := call(c.session, c.cwd); got != c.want {
			t.Errorf("session of %d bytes, cwd of %d bytes (%.8q…): %d, want %d", len(c.session), len(c.cwd), c.cwd, got, c.want)
		}
	}
}
