package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
)

// TestSearchToolTrees: in strict mode a host's search tool (Claude Grep,
// Gemini grep_search, OpenCode grep, …) reads every file below the folder
// it searches, as git grep or ripgrep --hidden do: a search of the home
// folder, or of a folder above a denied one, asks under the default policy
// (the person named the folder, not the key), while a search of a project
// whose .env is gitignored, or of a folder without secrets, is allowed.
func TestSearchToolTrees(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/.ssh/id_rsa":         "file",
		"/home/u/notes.txt":           "file",
		"/home/u/repo/.git/HEAD":      "file",
		"/home/u/repo/.gitignore":     "file:.env\n",
		"/home/u/repo/.env":           "file",
		"/home/u/repo/src/a.go":       "file",
		"/home/u/loose/.env":          "file",
		"/home/u/loose/main.go":       "file",
		"/home/u/repo/config/key.pem": "file",
		// Version-control folders are not searched (git grep, Claude's Grep).
		"/home/u/repo/.git/hooks/x.pem": "file",
	}
	e := newDefaultEngines(t, fsys).strict
	for _, c := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{"pattern": "KEY", "path": "~"}, "ask"},
		{map[string]any{"pattern": "KEY", "path": "/home/u"}, "ask"},
		{map[string]any{"pattern": "KEY", "path": ".."}, "ask"},
		{map[string]any{"pattern": "KEY", "path": "/home/u/loose"}, "ask"}, // no repository: .env is read
		{map[string]any{"pattern": "KEY", "path": "config"}, "ask"},        // key.pem is committed
		{map[string]any{"pattern": "KEY"}, "ask"},                          // the project holds config/key.pem
		{map[string]any{"pattern": "TODO", "path": "src"}, "allow"},
		// A filter names what the search reads.
		{map[string]any{"pattern": "TODO", "glob": "*.go"}, "allow"},
		{map[string]any{"pattern": "KEY", "path": "~/.ssh"}, "deny"},
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "grep", Input: c.input})
		if err != nil || string(d.Action) != c.want {
			t.Errorf("grep %v: %s (%s: %s, %v); want %s", c.input, d.Action, d.Matched, d.Reason, err, c.want)
		}
	}
	// The gitignored .env of a repository is not read.
	clean := newDefaultEngines(t, facts.MapFS{"/home/u/repo/.git/HEAD": "file", "/home/u/repo/.gitignore": "file:.env\n",
		"/home/u/repo/.env": "file", "/home/u/repo/src/a.go": "file", "/home/u/repo/.git/objects/ab/key.pem": "file"}).strict
	d, err := clean.Decide(context.Background(), facts.Call{Tool: "grep", Input: map[string]any{"pattern": "KEY"}})
	if err != nil || d.Action != "allow" {
		t.Errorf("grep in a repository whose .env is gitignored: %s (%s: %s, %v); want allow", d.Action, d.Matched, d.Reason, err)
	}
}
