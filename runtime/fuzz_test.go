package runtime_test

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// FuzzDecide decides any bash command. Under a policy that denies every
// bash command, every command must be denied, whatever its shape: no unit
// may slip through unmatched, and an unparseable command is denied by the
// rule covering its whole text. Under the bundled default policy no command
// may make Decide fail or return anything but allow, ask or deny.
func FuzzDecide(f *testing.F) {
	for _, c := range workload.Commands(workload.Seed, 200) {
		f.Add(c)
	}
	for _, c := range []string{"", " ", "# c", "echo 'x", "sudo", "eval", "bash -c", "{ }", "a=1", "> out", "$(", "cat {.env,x}", "\x00"} {
		f.Add(c)
	}
	ctx := context.Background()
	compile := func(src []byte) *runtime.Engine {
		out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: src}}, compiler.WithHome("/home/u"))
		if err != nil {
			f.Fatal(err)
		}
		e, err := runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{"/home/u/repo/id_rsa": "file"}), runtime.WithCacheSize(0))
		if err != nil {
			f.Fatal(err)
		}
		return e
	}
	denyAll := compile([]byte(`{"permission": {"*": "allow", "bash": {"*": "deny"}}}`))
	def := compile(policies.Default())
	f.Fuzz(func(t *testing.T, cmd string) {
		if !utf8.ValidString(cmd) {
			t.Skip() // a host hands commands over as JSON strings
		}
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
		d, err := denyAll.Decide(ctx, call)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		if d.Action != "deny" {
			t.Fatalf("%q under bash *: deny was %s [%s] on %s %q", cmd, d.Action, d.Matched, d.Surface, d.Value)
		}
		d, err = def.Decide(ctx, call)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		switch d.Action {
		case "allow", "ask", "deny":
		default:
			t.Fatalf("%q: action %q", cmd, d.Action)
		}
	})
}

// FuzzCall decides any tool call, given as the JSON a host sends ({"tool",
// "input", "agent", "registered"}), under the bundled default policy and
// its agents: never a Go error for a call that decodes, always allow, ask or
// deny, and the same decision whether the candidate keys come from facts or
// from the Rego library (a document without them).
func FuzzCall(f *testing.F) {
	for _, c := range workload.Calls(workload.Seed, 100) {
		b, _ := json.Marshal(c)
		f.Add(string(b))
	}
	for _, s := range []string{`{}`, `{"tool":""}`, `{"tool":"read","input":{"path":7}}`, `{"tool":"mcp","input":{"tool":{}}}`,
		`{"tool":"skill","input":{"name":null}}`, `{"tool":"write","input":{"path":"~/.ssh/../.ssh/x"},"registered":["read"]}`,
		`{"tool":"ls","input":{"path":"/home/u/.ssh"},"agent":"my-agent"}`, `{"tool":"bash","input":{"command":["ls"]}}`,
		`{"tool":"read","input":{"path":[".env",null]}}`, `{"tool":"grep","input":{"pattern":"x","glob":["*",".e?v",1]}}`,
		`{"tool":"grep","input":{"path":"link","glob":"id_*"}}`, `{"tool":"mcp","input":{"tool":"t","arguments":{"path":[".env"]}}}`} {
		f.Add(s)
	}
	ctx := context.Background()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	if err != nil {
		f.Fatal(err)
	}
	fsys := facts.MapFS{"/home/u/.ssh/id_rsa": "file", "/home/u/repo/.env": "file", "/home/u/repo/link": "link:/home/u/.ssh"}
	e, err := runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(fsys), runtime.WithCacheSize(0))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var call facts.Call
		if json.Unmarshal([]byte(raw), &call) != nil {
			t.Skip()
		}
		in := e.Facts(call)
		keyed, err := e.DecideFacts(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		switch keyed.Action {
		case "allow", "ask", "deny":
		default:
			t.Fatalf("%s: action %q", raw, keyed.Action)
		}
		for i := range in.Checks {
			in.Checks[i].Keys = nil
		}
		computed, err := e.DecideFacts(ctx, in)
		if err != nil || computed != keyed {
			t.Fatalf("%s:\n keys from facts %+v\n keys from Rego %+v (%v)", raw, keyed, computed, err)
		}
	})
}
