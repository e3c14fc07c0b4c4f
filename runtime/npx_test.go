package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestNpxLocalBin: strict mode floors npx, which may fetch a package from
// the registry and run it, unless the program is installed in the project
// the command runs in (node_modules/.bin/NAME): then npx runs that, and the
// wrapped command is decided by its own rules, as npm run is.
func TestNpxLocalBin(t *testing.T) {
	policy := `{"strict": true, "permission": {"*": "ask", "path": {"*": "allow"},
	    "bash": {"*": "ask", "npx *": "allow", "tsc *": "allow", "cd *": "allow", "rm -rf *": "deny"}}}`
	fsys := facts.MapFS{
		"/home/u/repo/node_modules/.bin/tsc":     "link:../typescript/bin/tsc",
		"/home/u/repo/node_modules/.bin/rm":      "file",
		"/home/u/repo/web/node_modules/.bin/tsc": "file",
		"/tmp/x/node_modules/.bin/tsc":           "file",
	}
	e := newEngine(t, policy, runtime.WithFS(fsys))
	for _, c := range []struct{ cmd, want string }{
		{"npx tsc --noEmit", "allow"},
		{"npx --yes tsc --noEmit", "allow"},
		{"cd web && npx tsc", "allow"},
		// Fetched from the registry, or run from outside the project.
		{"npx cowsay hi", "ask"},
		{"npx -p typescript tsc", "ask"},
		{"npx --package=typescript tsc", "ask"},
		{"npx tsc@5 --noEmit", "ask"},
		{"npx -c 'tsc --noEmit'", "ask"},
		{"cd /tmp/x && npx tsc", "ask"},
		{"cd .. && npx tsc", "ask"},
		{`npx "$T"`, "ask"},
		// What npx runs is decided by its own rules.
		{"npx rm -rf build", "deny"},
		{"npx tsc --noEmit && npx cowsay", "ask"},
	} {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
		d, err := e.Decide(context.Background(), call)
		if err != nil || string(d.Action) != c.want {
			t.Errorf("%s: %s (%s: %s, %v); want %s", c.cmd, d.Action, d.Matched, d.Reason, err, c.want)
		}
	}
}
