package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// filterFS is a repository with a secret at the top, one further down, a
// key in the home and sources.
var filterFS = facts.MapFS{
	"/home/u/.ssh/id_rsa":            "file",
	"/home/u/repo/.env":              "file",
	"/home/u/repo/.env.example":      "file",
	"/home/u/repo/main.go":           "file",
	"/home/u/repo/src/a.go":          "file",
	"/home/u/repo/src/deep/.env":     "file",
	"/home/u/repo/docs/readme.md":    "file",
	"/home/u/repo/node_modules/x.js": "file",
}

// decideBoth decides a call from its document as facts builds it and from
// the same document without candidate keys (the Rego library computes
// them, as for a document written by hand), and requires the two to agree.
func decideBoth(t *testing.T, engines []*runtime.Engine, call facts.Call) runtime.Decision {
	t.Helper()
	e := engines[0]
	in := e.Facts(call)
	a, errA := e.DecideFacts(context.Background(), in)
	for i := range in.Checks {
		in.Checks[i].Keys = nil
	}
	b, errB := e.DecideFacts(context.Background(), in)
	if errA != nil || errB != nil {
		t.Fatalf("%v: %v / %v", call, errA, errB)
	}
	if a != b {
		t.Fatalf("%v: keys from facts %+v\nkeys from Rego %+v", call, a, b)
	}
	return a
}

func enginesFor(t *testing.T, policy string, opts ...runtime.Option) []*runtime.Engine {
	return []*runtime.Engine{newEngine(t, policy, append(opts, runtime.WithCacheSize(0))...)}
}

func call(tool, input string) facts.Call {
	c := facts.Call{Tool: tool, Input: map[string]any{}}
	if err := json.Unmarshal([]byte(input), &c.Input); err != nil {
		panic(err)
	}
	return c
}

// TestMalformedPathAsks: a file tool whose path is missing, empty or not a
// string asks (<malformed-input>) where the same tool on a real path is
// allowed; a deny on a string inside the argument, or on the tool, still
// denies; yolo and a session approval do not lift it.
func TestMalformedPathAsks(t *testing.T) {
	const rules = `"permission": {"*": "ask", "read": "allow", "write": "allow", "edit": "allow", "ls": "allow",
		"grep": "allow", "find": "allow", "lsp": "allow", "mcp": {"*": "allow"},
		"path": {"*": "allow", ".env": "deny"}}`
	for _, policy := range []string{`{` + rules + `}`, `{"yoloMode": true, ` + rules + `}`} {
		engines := enginesFor(t, policy, runtime.WithFS(filterFS))
		for _, c := range []struct {
			tool, input, want, matched string
		}{
			{"read", `{"path": "main.go"}`, "allow", "*"},
			{"read", `{"path": [".env"]}`, "deny", ".env"},
			{"read", `{"path": ["main.go"]}`, "ask", "<malformed-input>"},
			{"read", `{}`, "ask", "<malformed-input>"},
			{"read", `{"path": null}`, "ask", "<malformed-input>"},
			{"read", `{"path": ""}`, "ask", "<malformed-input>"},
			{"write", `{"path": 7, "content": "x"}`, "ask", "<malformed-input>"},
			{"edit", `{"path": {"file": ".env"}}`, "ask", "<malformed-input>"},
			{"edit", `{"path": true}`, "ask", "<malformed-input>"},
			// Search tools keep "." for a path left out, not for a wrong one.
			{"ls", `{}`, "allow", "*"},
			{"ls", `{"path": ""}`, "allow", "*"},
			{"ls", `{"path": null}`, "allow", "*"},
			{"ls", `{"path": ["src"]}`, "ask", "<malformed-input>"},
			{"grep", `{"pattern": "x", "path": 3}`, "ask", "<malformed-input>"},
			{"find", `{"pattern": "*.go", "path": [".env", "src"]}`, "deny", ".env"},
			// Any other tool: a path that is not a string is malformed.
			{"lsp", `{"path": ["main.go"]}`, "ask", "<malformed-input>"},
			{"lsp", `{}`, "allow", "*"},
			// mcp: an array of paths is the server's own schema, gated path by path.
			{"mcp", `{"tool": "fs:read", "arguments": {"path": ["main.go", "src/a.go"]}}`, "allow", "*"},
			{"mcp", `{"tool": "fs:read", "arguments": {"path": ["main.go", ".env"]}}`, "deny", ".env"},
			{"mcp", `{"tool": "fs:read", "arguments": {"path": 5}}`, "ask", "<malformed-input>"},
			{"mcp", `{"tool": "fs:read", "arguments": {"path": ["main.go", 5]}}`, "ask", "<malformed-input>"},
		} {
			d := decideBoth(t, engines, call(c.tool, c.input))
			if string(d.Action) != c.want || d.Matched != c.matched || d.Yolo {
				t.Errorf("%s %s %s: got %s (matched %q, yolo %v, reason %q), want %s (matched %q)",
					policy[:12], c.tool, c.input, d.Action, d.Matched, d.Yolo, d.Reason, c.want, c.matched)
			}
			if d.Matched == "<malformed-input>" && (d.Reason == "" || d.Value != "" || d.Layer != "floor") {
				t.Errorf("%s %s: the malformed floor reports %+v", c.tool, c.input, d)
			}
		}
	}
}

// TestMalformedPathDenyStands: a deny rule on the tool's surface denies a
// malformed call outright, as a deny on an unparseable command does.
func TestMalformedPathDenyStands(t *testing.T) {
	engines := enginesFor(t, `{"permission": {"*": "allow", "write": {"*": "deny"}}}`)
	if d := decideBoth(t, engines, call("write", `{"path": ["a.txt"]}`)); d.Action != "deny" || d.Matched != "*" {
		t.Errorf("write with an array path under write: deny: %+v", d)
	}
}

// TestMalformedPathNotApprovedForSession: an approval of the tool's empty
// value (which the prompt never offers, as the value is empty) does not
// lift the floor either.
func TestMalformedPathNotApprovedForSession(t *testing.T) {
	for _, e := range enginesFor(t, `{"permission": {"*": "allow"}}`) {
		if err := e.Session().Approve(compiler.Approval{Surface: "read", Pattern: "*"}); err != nil {
			t.Fatal(err)
		}
		d, err := e.Decide(context.Background(), call("read", `{"path": 1}`))
		if err != nil || d.Action != "ask" || d.Matched != "<malformed-input>" {
			t.Errorf("read {path: 1} after approving read *: %+v (%v)", d, err)
		}
	}
}

// TestSearchFilterGatedAsPath: a grep filter is gated as the paths it
// names, as written and as expanded below the search path, so a filter
// cannot read what a path rule denies, however it is spelled; ordinary
// filters stay allowed.
func TestSearchFilterGatedAsPath(t *testing.T) {
	const rules = `"permission": {"*": "ask", "grep": "allow",
		"path": {"*": "allow", "*.env": "deny", "*.env.*": "deny", "*.env.example": "allow", "~/.ssh/*": "deny"}}`
	for _, policy := range []string{`{` + rules + `}`, `{"strict": true, ` + rules + `}`, `{"yoloMode": true, ` + rules + `}`} {
		engines := enginesFor(t, policy, runtime.WithFS(filterFS))
		for _, c := range []struct {
			input, want string
		}{
			{`{"pattern": "KEY"}`, "allow"},
			{`{"pattern": "KEY", "glob": "*.go"}`, "allow"},
			{`{"pattern": "KEY", "glob": "**/*.go"}`, "allow"},
			{`{"pattern": "KEY", "glob": "*.{go,md}"}`, "allow"},
			{`{"pattern": "KEY", "glob": ["*.go", "*.md"]}`, "allow"},
			{`{"pattern": "KEY", "glob": ".env.example"}`, "allow"},
			{`{"pattern": "KEY", "glob": ""}`, "allow"},
			{`{"pattern": "KEY", "glob": "*.env"}`, "deny"},
			{`{"pattern": "KEY", "glob": ".env"}`, "deny"},
			{`{"pattern": "KEY", "glob": "**/.env*"}`, "deny"},
			{`{"pattern": "KEY", "glob": "{.env,x}"}`, "deny"},
			{`{"pattern": "KEY", "glob": ".en?"}`, "deny"},
			{`{"pattern": "KEY", "glob": "[.]env"}`, "deny"},
			{`{"pattern": "KEY", "glob": ".[^x]nv"}`, "deny"},
			{`{"pattern": "KEY", "glob": "*"}`, "deny"},
			{`{"pattern": "KEY", "glob": ["*.go", ".e*"]}`, "deny"},
			{`{"pattern": "KEY", "path": "src", "glob": "*"}`, "deny"},
			{`{"pattern": "KEY", "path": "src", "glob": "deep/.e??"}`, "deny"},
			{`{"pattern": "KEY", "path": "docs", "glob": "*"}`, "allow"},
			{`{"pattern": "KEY", "path": "/home/u", "glob": ".ssh/*"}`, "deny"},
			{`{"pattern": "KEY", "glob": "~/.ssh/*"}`, "deny"},
			// Claude Code splits a filter at white space and commas.
			{`{"pattern": "KEY", "glob": "*.go .env"}`, "deny"},
			{`{"pattern": "KEY", "glob": "*.go,.e?v"}`, "deny"},
			{`{"pattern": "KEY", "glob": "*.{go,md}"}`, "allow"},
			// An exclusion names no file to read.
			{`{"pattern": "KEY", "glob": "!*.env"}`, "allow"},
			{`{"pattern": "KEY", "glob": "*.go !.env"}`, "allow"},
			{`{"pattern": "KEY", "glob": "[broken"}`, "ask"},
			{`{"pattern": "KEY", "glob": 5}`, "ask"},
			{`{"pattern": "KEY", "glob": ["*.go", 5]}`, "ask"},
		} {
			d := decideBoth(t, engines, call("grep", c.input))
			want := c.want
			if want == "ask" && strings.Contains(policy, "yolo") && d.Matched != "<malformed-input>" {
				want = "allow" // an unexpandable filter is an unresolved path, which yolo approves
			}
			if string(d.Action) != want {
				t.Errorf("%s grep %s: got %s (matched %q on %s %q, %s), want %s", policy[:12], c.input, d.Action, d.Matched, d.Surface, d.Value, d.Reason, want)
			}
		}
	}
}

// TestDefaultPolicyFilters: under the bundled default
// policy a normal filter is allowed and one reaching a secret is not.
func TestDefaultPolicyFilters(t *testing.T) {
	src, err := fs.ReadFile(policies.FS, "default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	engines := enginesFor(t, string(src), runtime.WithFS(filterFS))
	for input, want := range map[string]string{
		`{"pattern": "func", "glob": "*.go"}`:         "allow",
		`{"pattern": "func", "glob": "**/*.{go,md}"}`: "allow",
		`{"pattern": "KEY", "glob": "*.env"}`:         "deny",
		`{"pattern": "KEY", "glob": ".en?"}`:          "deny",
		`{"pattern": "KEY", "path": "src"}`:           "allow",
		`{"pattern": "KEY", "path": [".env"]}`:        "deny",
	} {
		if d := decideBoth(t, engines, call("grep", input)); string(d.Action) != want {
			t.Errorf("default policy, grep %s: %s (%s), want %s", input, d.Action, fmt.Sprint(d.Matched), want)
		}
	}
}

// TestMalformedWorkdirAsks: a shell alias whose workdir argument is not a
// string runs where regate cannot tell: it asks, and a string inside it is
// still gated as a path.
func TestMalformedWorkdirAsks(t *testing.T) {
	engines := enginesFor(t, `{"permission": {"*": "ask", "bash": {"*": "allow"}, "path": {"*": "allow", "~/.ssh/*": "deny"}},
		"shellTools": {"remote_exec": {"commandArgument": "cmd", "workdirArgument": "cwd"}}}`, runtime.WithFS(filterFS))
	for input, want := range map[string]string{
		`{"cmd": "ls", "cwd": "src"}`:          "allow",
		`{"cmd": "ls"}`:                        "allow",
		`{"cmd": "ls", "cwd": ["src"]}`:        "ask",
		`{"cmd": "ls", "cwd": 1}`:              "ask",
		`{"cmd": "ls", "cwd": ["~/.ssh/x"]}`:   "deny",
		`{"cmd": "ls", "cwd": {"dir": "src"}}`: "ask",
	} {
		d := decideBoth(t, engines, call("remote_exec", input))
		if string(d.Action) != want || (want == "ask" && d.Matched != "<malformed-input>") {
			t.Errorf("remote_exec %s: %s (matched %q), want %s", input, d.Action, d.Matched, want)
		}
	}
}
