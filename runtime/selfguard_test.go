package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/stockopa"
	"github.com/regate/regate/runtime"
)

// selfGuarded are the places the self-floor tests guard: a project policy,
// a user-level rule folder, the state folder, a decision log and host
// settings of both levels.
var selfGuarded = []compiler.Guarded{
	{Path: "/home/u/repo/policy.jsonc", What: "the policy file regate decides with"},
	{Path: "~/.config/regate", What: "the folder of regate's rule files", Folder: true},
	{Path: "~/.cache/regate", What: "regate's state folder", Folder: true},
	{Path: "~/.cache/regate/key", What: "the key that signs regate's approvals", Secret: true},
	{Path: "/var/log/regate/decisions.jsonl", What: "regate's decision log"},
	{Path: "~/.claude/settings.json", What: "Claude Code's user settings, which register regate's hook"},
	{Path: "*/.claude/settings.json", What: "Claude Code's project settings, which may register regate's hook"},
}

// selfEngine is an engine and what it was compiled from, which stock OPA
// evaluates too.
type selfEngine struct {
	*runtime.Engine
	out *compiler.Output
}

// selfEngines are engines under policies that allow everything: plain,
// strict and yolo.
func selfEngines(t *testing.T, fsys facts.FS) map[string]selfEngine {
	t.Helper()
	policies := map[string]string{
		"allow-all":        `{"permission": {"*": "allow", "bash": {"*": "allow"}, "write": {"*": "allow"}, "edit": {"*": "allow"}, "path": {"*": "allow"}}}`,
		"allow-all strict": `{"strict": true, "permission": {"*": "allow", "bash": {"*": "allow"}, "write": {"*": "allow"}, "edit": {"*": "allow"}, "path": {"*": "allow"}}}`,
		"yolo":             `{"yoloMode": true, "permission": {"*": "ask"}}`,
	}
	engines := map[string]selfEngine{}
	for name, p := range policies {
		out, err := compiler.Compile(compiler.Input{
			Policy:  &compiler.Source{Name: "policy.jsonc", Data: []byte(p)},
			Guarded: selfGuarded,
		}, compiler.WithHome("/home/u"))
		if err != nil {
			t.Fatal(err)
		}
		if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
			t.Fatal(fatal)
		}
		e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(fsys))
		if err != nil {
			t.Fatal(err)
		}
		engines[name] = selfEngine{e, out}
	}
	return engines
}

// TestSelfFloor: a write or edit of a guarded place asks under a policy
// that allows everything, under yolo and with a session approval of the
// exact call, by the write and edit tools and by the shell's spellings; the
// message names the place. What is not a guarded place stays allowed.
func TestSelfFloor(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/repo/policy.jsonc":              "{}",
		"/home/u/repo/.claude/settings.json":     "{}",
		"/home/u/.config/regate/policy.jsonc":    "{}",
		"/home/u/.cache/regate/key":              "k",
		"/home/u/repo/README":                    "text",
		"/home/u/repo/link-to-policy":            "link:/home/u/repo/policy.jsonc",
		"/home/u/.claude/settings.json":          "{}",
		"/home/u/repo/sub/.claude/settings.json": "{}",
	}
	engines := selfEngines(t, fsys)
	checkSelfFloor(t, engines, "")
	// A session approval of the exact call, as a host records one: the
	// decision's surface and value (and a bash call's whole command).
	exact := selfEngines(t, fsys)
	for _, c := range selfFloorCalls {
		if c.what == "" {
			continue
		}
		call := facts.Call{Tool: c.tool, Input: c.input}
		for name, e := range exact {
			d, err := e.Decide(context.Background(), call)
			if err != nil {
				t.Fatal(err)
			}
			approvals := []compiler.Approval{{Surface: d.Surface, Pattern: d.Value}}
			if cmd, ok := c.input["command"].(string); ok {
				approvals = append(approvals, compiler.Approval{Surface: "bash", Pattern: cmd})
			}
			if err := e.Session().Approve(approvals...); err != nil {
				t.Fatal(err)
			}
			if again, err := e.Decide(context.Background(), call); err != nil || again.Action != "ask" || again.Layer != "self-guard" {
				t.Errorf("%s: %s %v approved exactly (%v): %s in %s (%v); want the self floor's ask", name, c.tool, c.input, approvals, again.Action, again.Layer, err)
			}
		}
	}
	// A session approval of every call on every surface lifts nothing.
	for _, e := range engines {
		if err := e.Session().Approve(
			compiler.Approval{Surface: "write", Pattern: "*"}, compiler.Approval{Surface: "edit", Pattern: "*"},
			compiler.Approval{Surface: "bash", Pattern: "*"}, compiler.Approval{Surface: "path", Pattern: "*"},
		); err != nil {
			t.Fatal(err)
		}
	}
	checkSelfFloor(t, engines, "approved: ")
}

var selfFloorCalls = []struct {
	tool  string
	input map[string]any
	what  string // the place the message names; "" for a call that stays allowed
}{
	{"write", map[string]any{"path": "policy.jsonc"}, "the policy file"},
	{"edit", map[string]any{"path": "/home/u/repo/policy.jsonc"}, "the policy file"},
	{"edit", map[string]any{"path": "link-to-policy"}, "the policy file"},
	{"write", map[string]any{"path": "~/.config/regate/agents/x.md"}, "inside the folder of regate's rule files"},
	{"write", map[string]any{"path": "/home/u/.cache/regate/sessions/s.jsonl"}, "inside regate's state folder"},
	{"write", map[string]any{"path": ".claude/settings.json"}, "Claude Code's project settings"},
	{"edit", map[string]any{"path": "~/.claude/settings.json"}, "Claude Code's user settings"},
	{"bash", map[string]any{"command": "echo '{}' > policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "echo x >> ~/.cache/regate/sessions/s.jsonl"}, "inside regate's state folder"},
	{"bash", map[string]any{"command": "sed -i s/ask/allow/ policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "cat README | tee -a /var/log/regate/decisions.jsonl"}, "regate's decision log"},
	{"bash", map[string]any{"command": "cp README sub/.claude/settings.json"}, "Claude Code's project settings"},
	{"bash", map[string]any{"command": "mv ~/.config ~/old-config"}, "a folder that holds the folder of regate's rule files"},
	{"bash", map[string]any{"command": "rm policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "rm -rf ~/.cache"}, "a folder that holds regate's state folder"},
	{"bash", map[string]any{"command": "rm --recur -f /home/u/.cache/regate/"}, "regate's state folder"},
	{"bash", map[string]any{"command": "chmod 777 policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "chmod -w ~/.claude/settings.json"}, "Claude Code's user settings"},
	{"bash", map[string]any{"command": "chown -R u:u ~/.config/regate"}, "the folder of regate's rule files"},
	{"bash", map[string]any{"command": "ln -sf /tmp/open.jsonc policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "ln -sfn /tmp/x ~/.claude"}, "a folder that holds Claude Code's user settings"},
	{"bash", map[string]any{"command": "touch .claude/settings.json"}, "Claude Code's project settings"},
	{"bash", map[string]any{"command": "truncate -s0 policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "dd if=/dev/null of=policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "shred -u policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "unlink link-to-policy"}, "the policy file"},
	{"bash", map[string]any{"command": "mkdir -p ~/.config/regate/agents"}, "inside the folder of regate's rule files"},
	{"bash", map[string]any{"command": "install -m 600 README ~/.claude/settings.json"}, "Claude Code's user settings"},
	{"bash", map[string]any{"command": "git checkout -- policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "git restore policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "npm --cache ~/.cache/regate install"}, "regate's state folder"},
	{"bash", map[string]any{"command": "go test -outputdir=/home/u/.cache/regate/x ./..."}, "inside regate's state folder"},
	{"bash", map[string]any{"command": "cat README | sudo tee policy.jsonc"}, "the policy file"},
	{"bash", map[string]any{"command": "cd ~/.config/regate && echo '{}' > policy.jsonc"}, "inside the folder of regate's rule files"},
	{"bash", map[string]any{"command": "echo '{}' > $HOME/.claude/settings.json"}, "Claude Code's user settings"},
	{"bash", map[string]any{"command": "echo '{}' > sub/../policy.jsonc"}, "the policy file"},
	{"mcp", map[string]any{"tool": "fs:write_file", "arguments": map[string]any{"path": "/home/u/repo/policy.jsonc", "content": "{}"}}, "the policy file"},
	{"mcp", map[string]any{"tool": "edit_file", "server": "fs", "arguments": map[string]any{"path": "~/.claude/settings.json"}}, "Claude Code's user settings"},
	{"mcp", map[string]any{"tool": "fs:move_file", "arguments": map[string]any{"source": "README", "destination": ".claude/settings.json"}}, "Claude Code's project settings"},
	{"mcp", map[string]any{"tool": "fs:move_file", "arguments": map[string]any{"source": "policy.jsonc", "destination": "old.jsonc"}}, "the policy file"},
	{"mcp", map[string]any{"tool": "fs:read_text_file", "arguments": map[string]any{"path": "policy.jsonc"}}, ""},
	{"write", map[string]any{"path": "notes.txt"}, ""},
	{"bash", map[string]any{"command": "echo x > notes.txt"}, ""},
	{"bash", map[string]any{"command": "cat policy.jsonc"}, ""},
	{"read", map[string]any{"path": "~/.cache/regate/key"}, "the key that signs"},
	{"bash", map[string]any{"command": "base64 < ~/.cache/regate/key"}, "the key that signs"},
	{"bash", map[string]any{"command": "ls ~/.cache/regate"}, ""},
}

// checkSelfFloor decides every call of selfFloorCalls with every engine
// and, without approvals (label ""), in stock OPA on the bundle as well.
func checkSelfFloor(t *testing.T, engines map[string]selfEngine, label string) {
	t.Helper()
	for _, c := range selfFloorCalls {
		call := facts.Call{Tool: c.tool, Input: c.input}
		for name, e := range engines {
			d, err := e.Decide(context.Background(), call)
			if err != nil {
				t.Fatalf("%s %v: %v", c.tool, c.input, err)
			}
			if label == "" {
				in, err := e.Input(call)
				if err != nil {
					t.Fatal(err)
				}
				got, err := stockopa.Eval(context.Background(), e.out, "regate/lib/permission/decision", in)
				stock, _ := got.(map[string]any)
				if err != nil || stock["action"] != string(d.Action) || stock["layer"] != d.Layer {
					t.Errorf("%s: %s %v: stock OPA %v (%v); embedded %s in %s", name, c.tool, c.input, stock, err, d.Action, d.Layer)
				}
			}
			switch {
			case c.what == "" && d.Action != "allow":
				t.Errorf("%s%s: %s %v: %s (%s); want allow", label, name, c.tool, c.input, d.Action, d.Message)
			case c.what != "" && (d.Action != "ask" || d.Layer != "self-guard" || !strings.Contains(d.Message, c.what)):
				t.Errorf("%s%s: %s %v: %s in %s (%s); want ask naming %q", label, name, c.tool, c.input, d.Action, d.Layer, d.Message, c.what)
			}
		}
	}
}

// TestSelfFloorDenyAndOptOut: a deny of a guarded place stays a deny (the
// floor only raises), the hard guards' "guardSelf": false turns the floor
// off, and the same key in the policy turns nothing off: a project's policy
// is a file the agent may have written.
func TestSelfFloorDenyAndOptOut(t *testing.T) {
	allowAll := `{"permission": {"*": "allow", "bash": {"*": "allow"}, "write": {"*": "allow", "*.jsonc": "deny"}}}`
	for _, c := range []struct {
		name, policy, hardGuards string
		call                     facts.Call
		want, layer              string
	}{
		{"a policy deny stays", allowAll, "", facts.Call{Tool: "write", Input: map[string]any{"path": "policy.jsonc"}}, "deny", "policy"},
		{"a hard guard stays", allowAll, `{"permission": {"bash": {"sed -i *": "deny"}}}`,
			facts.Call{Tool: "bash", Input: map[string]any{"command": "sed -i s/a/b/ .claude/settings.json"}}, "deny", "hard-guard"},
		{"the floor asks", allowAll, `{"guardSelf": true}`,
			facts.Call{Tool: "write", Input: map[string]any{"path": ".claude/settings.json"}}, "ask", "self-guard"},
		{"hard guards turn it off", allowAll, `{"guardSelf": false}`,
			facts.Call{Tool: "write", Input: map[string]any{"path": ".claude/settings.json"}}, "allow", "policy"},
		{"a policy does not", `{"guardSelf": false, "permission": {"*": "allow"}}`, "",
			facts.Call{Tool: "write", Input: map[string]any{"path": ".claude/settings.json"}}, "ask", "self-guard"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(c.policy)}, Guarded: selfGuarded}
			if c.hardGuards != "" {
				in.HardGuards = &compiler.Source{Name: "hard-guards.jsonc", Data: []byte(c.hardGuards)}
			}
			out, err := compiler.Compile(in, compiler.WithHome("/home/u"))
			if err != nil {
				t.Fatal(err)
			}
			if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
				t.Fatal(fatal)
			}
			e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}))
			if err != nil {
				t.Fatal(err)
			}
			d, err := e.Decide(context.Background(), c.call)
			if err != nil || string(d.Action) != c.want || d.Layer != c.layer {
				t.Errorf("%s in %s (%s, %v); want %s in %s", d.Action, d.Layer, d.Message, err, c.want, c.layer)
			}
		})
	}
}

// TestMCPFileTools: the filesystem server's tools that take files in
// other fields than arguments.path have them gated on the path surface
// (the bundled default policy denies .env).
func TestMCPFileTools(t *testing.T) {
	e := newDefaultEngines(t, facts.MapFS{"/home/u/repo/.env": "file", "/home/u/repo/README": "file"}).plain
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"tool": "fs:read_multiple_files", "arguments": map[string]any{"paths": []any{"README", ".env"}}}, "deny"},
		{map[string]any{"tool": "fs:move_file", "arguments": map[string]any{"source": ".env", "destination": "x"}}, "deny"},
		{map[string]any{"tool": "fs:move_file", "arguments": map[string]any{"source": "x", "destination": ".env"}}, "deny"},
		{map[string]any{"tool": "fs:move_file", "arguments": map[string]any{"source": "README", "destination": 7}}, "ask"},
		{map[string]any{"tool": "fs:read_multiple_files", "arguments": map[string]any{"paths": []any{"README"}}}, "ask"},
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "mcp", Input: c.args})
		if err != nil || string(d.Action) != c.want {
			t.Errorf("%v: %s (%s, %v); want %s", c.args, d.Action, d.Message, err, c.want)
		}
	}
}
