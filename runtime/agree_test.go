package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestCandidateKeysAgreeOnWorkload decides a workload (the bashfacts table
// of commands, the sample calls, path and mcp calls and the whole generated
// benchmark workload) under every bundled policy and the workload's own
// twice: with the candidate keys facts lists in the document, and without
// them, so that the Rego library computes them (regate.lib.decide.keys),
// as it does for a document written by hand. The keys are the one input
// feature the lookups trust to be complete: a key missing from facts' list
// would hide a rule; the two must give the same whole decision.
func TestCandidateKeysAgreeOnWorkload(t *testing.T) {
	calls := mixedCalls(t)
	if len(calls) < 900 {
		t.Fatalf("the workload has %d calls; want at least 900", len(calls))
	}
	names, _ := fs.Glob(policies.FS, "*.jsonc")
	names = append(names, "workload-33", "tree")
	if len(names)*len(calls) < 10000 {
		t.Errorf("%d policies and %d calls give %d decisions to compare; the workload should give at least 10,000", len(names), len(calls), len(names)*len(calls))
	}
	ctx := context.Background()
	fsys := facts.MapFS{"/home/u/repo/id_rsa": "file", "/home/u/repo/keys": "dir", "/home/u/repo/link": "link:/etc",
		"/home/u/repo/loop1": "link:loop2", "/home/u/repo/loop2": "link:loop1",
		// A tree for recursive reads: a within check of many spelling
		// groups, decided by one lookup per group when keys are listed.
		"/home/u/repo/keys/a.go": "file", "/home/u/repo/keys/.env": "file", "/home/u/repo/keys/sub/id_rsa": "file",
		"/home/u/repo/keys/sub/b.pem": "file", "/home/u/repo/keys/z.lock": "file"}
	// Each policy is its own parallel subtest, with its own engines.
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, _ := fs.ReadFile(policies.FS, name)
			switch name {
			case "workload-33":
				src = []byte(workload.Policy(33))
			case "tree":
				// Groups of a walk that meet different rules of one
				// severity: the first group's rule is the one reported.
				// A bare spelling of a unit counts only under a rule that
				// names it (rm -fr), never under the catch-all.
				src = []byte(`{"strict": true, "permission": {"bash": {"*": "allow", "rm -fr *": "deny"},
					"path": {"*": "allow", "*.lock": "ask", "*.pem": "ask", "keys/sub/*": "ask", "*.env": "allow", "*.go": "allow"}}}`)
			}
			in := compiler.Input{Policy: &compiler.Source{Name: name, Data: src}}
			if name == "hard-guards.jsonc" {
				in = compiler.Input{HardGuards: &compiler.Source{Name: name, Data: src}}
			}
			out, err := compiler.Compile(in, compiler.WithHome("/home/u"))
			if err != nil {
				t.Fatal(err)
			}
			e, err := runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(fsys), runtime.WithCacheSize(0))
			if err != nil {
				t.Fatal(err)
			}
			keyed := 0
			for _, c := range calls {
				in := e.Facts(c)
				a, errA := e.DecideFacts(ctx, in)
				for i := range in.Checks {
					if in.Checks[i].Keys != nil {
						keyed++
					}
					in.Checks[i].Keys = nil
				}
				b, errB := e.DecideFacts(ctx, in)
				if errA != nil || errB != nil || a != b {
					t.Errorf("%v: keys from facts %+v (%v)\n keys from Rego %+v (%v)", c, a, errA, b, errB)
				}
			}
			if keyed == 0 {
				t.Error("facts listed no keys")
			}
		})
	}
}

func mixedCalls(t testing.TB) []facts.Call {
	var calls []facts.Call
	f, err := os.Open("../bashfacts/testdata/extract.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if q, ok := strings.CutPrefix(sc.Text(), "=== "); ok {
			var cmd string
			if json.Unmarshal([]byte(q), &cmd) == nil {
				calls = append(calls, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
			}
		}
	}
	for _, p := range []string{".env", "src/.env", ".env.example", "~/.ssh/id_rsa", "certs/a.pem", "link/hosts", "yarn.lock", "src/a.ts", "/etc/passwd", "id_rsa", "keys", "loop1"} {
		for _, tool := range []string{"read", "write", "edit", "ls", "grep"} {
			calls = append(calls, facts.Call{Tool: tool, Input: map[string]any{"path": p}})
		}
	}
	for _, in := range []map[string]any{{}, {"server": "exa"}, {"tool": "exa:search"}, {"tool": "github:create_issue"}, {"connect": "github"}, {"search": "x"}, {"describe": "a:b"}} {
		calls = append(calls, facts.Call{Tool: "mcp", Input: in})
	}
	// Malformed inputs and search filters (facts/args.go, facts/filter.go).
	for _, in := range []string{`{"path": [".env"]}`, `{"path": 5}`, `{}`, `{"path": ""}`, `{"pattern": "x", "glob": "*"}`,
		`{"pattern": "x", "glob": ".e?v"}`, `{"pattern": "x", "glob": ["*.go", 1]}`, `{"pattern": "x", "path": "keys", "glob": "id_*"}`} {
		for _, tool := range []string{"read", "write", "grep", "ls", "TodoWrite"} {
			calls = append(calls, call(tool, in))
		}
	}
	calls = append(calls, call("mcp", `{"tool": "fs:read", "arguments": {"path": [".env", 2]}}`))
	calls = append(calls, sampleCalls...)
	calls = append(calls, facts.Call{Tool: "bash", Input: map[string]any{"command": "cat loop1 id_rsa keys && ls link/"}})
	for _, cmd := range []string{"grep -r x keys", "grep -r x keys/sub", "rg x .", "ls -R keys", "sudo grep -r x keys", "du -a keys/sub", "find keys -name '*.go'", "rm -rf build", "rm -r -f build"} {
		calls = append(calls, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
	}
	// The generated benchmark workload of issue 5, whole.
	calls = append(calls, workload.Calls(workload.Seed, 1000)...)
	return calls
}
