package runtime_test

import (
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestWritesNamedByOptions: a file an option names for writing (tree -o,
// find -fprint, git --output, strace -o) is a write the write rules
// decide, in strict mode, rather than a floor that asks whatever they
// say: the developer policy allows a write in the project and asks for
// one to a dot-file of the home, and the path rules' deny of .env holds;
// the bundled default asks for every write.
func TestWritesNamedByOptions(t *testing.T) {
	fsys := facts.MapFS{"/home/u/repo/f": "file", "/home/u/repo/.env": "file", "/home/u/repo/a.orig": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	rows := []policyRow{
		{"tree -o out.txt", "allow", "ask"},
		{"tree -o ~/.bashrc", "ask", "ask"},
		{"tree -o .env", "deny", "deny"},
		{"find . -fprint list.txt", "allow", "ask"},
		{"find . -fprint0 ~/.profile", "ask", "ask"},
		{"find . -fprintf .env '%p'", "deny", "deny"},
		{"git diff --output=out.patch", "allow", "ask"},
		{"git log -p --output=.env", "deny", "deny"},
		{"find . -name '*.orig' -delete", "allow", "ask"},
	}
	decideUnderBoth(t, developer, def, rows)
}
