package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/hosts"
)

// TestMCPResourceReads: Claude Code's ReadMcpResourceTool is a call of its
// MCP server (mcp "fs:resources/read"), and a file: uri meets the path
// rules as the path it names, in every spelling a URI has (localhost,
// percent escapes, an upper-case scheme): a policy that allows the server
// still cannot read ~/.ssh through it. A uri of another host or scheme
// names no local file.
func TestMCPResourceReads(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "ask", "mcp": {"fs:*": "allow"},
		"path": {"*": "allow", "~/.ssh/*": "deny"}}}`)
	claude, err := hosts.Lookup("claude", hosts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for uri, want := range map[string]string{
		"file:///home/u/.ssh/id_rsa":           "deny",
		"file://localhost/home/u/.ssh/id_rsa":  "deny",
		"FILE:///home/u/%2Essh/id_rsa":         "deny",
		"file:///home/u/.ssh/../.ssh/id_rsa":   "deny",
		"file:/home/u/.ssh/id_rsa":             "deny", // no authority (RFC 8089)
		"file:///home/u/repo/README.md":        "allow",
		"file://fileserver/home/u/.ssh/id_rsa": "allow", // not this machine's file
		"repo://github/home/u/.ssh/id_rsa":     "allow",
	} {
		req, err := claude.Decode([]byte(`{"hook_event_name":"PreToolUse","tool_name":"ReadMcpResourceTool","tool_input":{"server":"fs","uri":"` + uri + `"}}`))
		if err != nil || len(req.Calls) != 1 || req.Calls[0].Tool != "mcp" {
			t.Fatalf("%s: %+v, %v", uri, req.Calls, err)
		}
		d, err := e.Decide(context.Background(), req.Calls[0])
		if err != nil || string(d.Action) != want {
			t.Errorf("ReadMcpResourceTool %s: %s (%s), %v; want %s", uri, d.Action, d.Matched, err, want)
		}
	}
	// Without a server, the listing keeps its own name: the fallback asks.
	d, err := e.Decide(context.Background(), facts.Call{Tool: "ListMcpResourcesTool", Input: map[string]any{}})
	if err != nil || d.Action != "ask" {
		t.Errorf("ListMcpResourcesTool: %s, %v; want ask", d.Action, err)
	}
}

// TestMCPServerForms: a rule written with the server's configured name
// ("dev-radius", "my.srv") meets the calls of every host: Pi 1.6 sends the
// server of a tool call as "dev_radius" (every character outside
// [A-Za-z0-9_] replaced) and of a resource read as configured, Claude Code
// "my_srv" (it keeps "-"). A rule on another server does not reach it.
func TestMCPServerForms(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "ask", "mcp": {"*": "ask",
		"dev-radius:*": "deny", "my.srv:read": "allow", "other:*": "allow"}}}`)
	for _, c := range []struct {
		server, tool, want string
	}{
		{"dev-radius", "delete", "deny"}, // as configured: Pi's resource tools, Codex, OpenCode
		{"dev_radius", "delete", "deny"}, // Pi's mcp__dev_radius__delete
		{"dev-radius", "resources/read", "deny"},
		{"my_srv", "read", "allow"},    // Claude Code's and Pi's mcp__my_srv__read
		{"my.srv", "read", "allow"},    // as configured
		{"my_srv", "write", "ask"},     // another tool
		{"devradius", "delete", "ask"}, // not a form of dev-radius
		{"other", "x", "allow"},
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "mcp", Input: map[string]any{"server": c.server, "tool": c.tool}})
		if err != nil || string(d.Action) != c.want {
			t.Errorf("%s:%s: %s (%s), %v; want %s", c.server, c.tool, d.Action, d.Matched, err, c.want)
		}
	}
}
