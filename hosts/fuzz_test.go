package hosts_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/hosts"
	"github.com/regate/regate/internal/testkit/golden"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// FuzzHookInput feeds any bytes to every host's codec as its hook JSON,
// decides what decodes against the bundled default policy, and checks the
// answer: never a panic; a fault is the host's block (exit 2, or a deny on
// stdout where the host reads one); an answer on stdout is JSON; a call
// denied is never answered with an allow.
func FuzzHookInput(f *testing.F) {
	for _, script := range []string{"hook_claude.txtar", "hook_codex.txtar", "hook_copilot.txtar", "hook_gemini.txtar", "hook_opencode.txtar", "hook_state.txtar"} {
		_, files := golden.Read(f, filepath.Join("..", "cmd", "regate", "testdata", "script", script))
		for name, text := range files {
			if strings.HasPrefix(name, "in/") {
				f.Add(text)
			}
		}
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	if err != nil {
		f.Fatal(err)
	}
	eng, err := runtime.New(context.Background(), out, runtime.WithCwd("/repo"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, host := range hosts.Names() {
			codec, err := hosts.Lookup(host, hosts.Options{})
			if err != nil {
				t.Fatal(err)
			}
			req, err := codec.Decode([]byte(raw))
			if err != nil {
				if ans := codec.Fail(req, err.Error()); !isBlock(ans) {
					t.Fatalf("%s: a fault answered %+v", host, ans)
				}
				continue
			}
			var ds []runtime.Decision
			for _, c := range req.Calls {
				d, err := eng.Decide(context.Background(), c)
				if err != nil {
					if ans := codec.Fail(req, err.Error()); !isBlock(ans) {
						t.Fatalf("%s: a fault answered %+v", host, ans)
					}
					continue
				}
				ds = append(ds, d)
			}
			if len(ds) == 0 {
				continue
			}
			d := hosts.MostRestrictive(ds)
			ans := codec.Encode(req, d)
			if len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
				t.Fatalf("%s: stdout is not JSON: %q", host, ans.Stdout)
			}
			if d.Action == "deny" && ans.Exit == 0 && strings.Contains(string(ans.Stdout), `"allow"`) {
				t.Fatalf("%s: a denied call answered %s", host, ans.Stdout)
			}
		}
	})
}

// isBlock reports whether an answer blocks the call: exit 2, or exit 0 with
// a deny on stdout (Claude Code's PermissionRequest reads no exit code).
func isBlock(a hosts.Answer) bool {
	return a.Exit == 2 || (a.Exit == 0 && json.Valid(a.Stdout) && strings.Contains(string(a.Stdout), `"deny"`))
}
