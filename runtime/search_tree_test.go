package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
)

// TestSearchToolTrees: in strict mode a host's search tool (Claude Grep,
// Gemini grep_search, OpenCode grep, …) that searches beyond the project
// reads every file below the folder, as git grep or ripgrep --hidden do: a
// search of the home folder, of a parent, or of a link in the project that
// leads there asks under the default policy (the person named the folder,
// not the key). A search inside the project is left to the path rules.
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
		"/home/u/repo/homelink":         "link:/home/u",
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
		{map[string]any{"pattern": "KEY", "path": "homelink"}, "ask"},      // a link to the home folder
		// Inside the project: the path rules alone (a walk's bound would
		// ask in every large repository).
		{map[string]any{"pattern": "KEY", "path": "config"}, "allow"},
		{map[string]any{"pattern": "KEY"}, "allow"},
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
	// Outside the project, a repository's gitignored .env and its .git are
	// not read.
	clean := newDefaultEngines(t, facts.MapFS{"/home/u/other/.git/HEAD": "file", "/home/u/other/.gitignore": "file:.env\n",
		"/home/u/other/.env": "file", "/home/u/other/src/a.go": "file", "/home/u/other/.git/objects/ab/key.pem": "file"}).strict
	d, err := clean.Decide(context.Background(), facts.Call{Tool: "grep", Input: map[string]any{"pattern": "KEY", "path": "../other"}})
	if err != nil || d.Action != "allow" {
		t.Errorf("grep of a repository whose .env is gitignored: %s (%s: %s, %v); want allow", d.Action, d.Matched, d.Reason, err)
	}
}
