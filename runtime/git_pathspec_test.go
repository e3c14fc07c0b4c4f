package runtime_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestGitPathspecs: git matches a pathspec against the index and the
// history, not the work tree. A glob or magic pathspec that reads contents
// asks in strict mode (regate does not expand it), and a plain one is a
// path whether or not the work tree still has it. Each row first runs in
// real git, in a repository whose .env was committed with a secret and
// then deleted, to prove the secret is printed.
func TestGitPathspecs(t *testing.T) {
	policy := `{"strict": true, "permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow"},
	    "path": {"*": "allow", "*.env": "deny"}}}`
	e := newEngine(t, policy, runtime.WithFS(facts.MapFS{"/home/u/repo/src/a.go": "file"}))
	dir := ""
	if _, err := exec.LookPath("git"); err == nil {
		dir = deletedSecretRepo(t)
	}
	for _, c := range []struct {
		cmd, want string
		prints    bool
	}{
		{"git log -p -- .env", "deny", true},
		// The word itself matches "*.env": denied as written.
		{"git log -p -- '*.env'", "deny", true},
		{"git log -p -- '.en?'", "ask", true},
		{"git log -p -- '[.]env'", "ask", true},
		{"git log -p -- ':(glob)**/*.env'", "deny", true},
		{"git show HEAD~1 -- '*env'", "ask", true},
		{"git diff HEAD~2 HEAD~1 -- '*.env'", "deny", true},
		{"git diff HEAD~2 HEAD~1 -- ':!src'", "ask", true},
		// Without a patch the history names .env, it does not print it.
		{"git log --oneline -- '*.env'", "allow", false},
		{"git log -p -- src/a.go", "allow", false},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if dir != "" {
				if got := showsSecret(t, dir, c.cmd); got != c.prints {
					t.Fatalf("%s: the secret printed: %v, want %v", c.cmd, got, c.prints)
				}
			}
			d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil || string(d.Action) != c.want {
				t.Errorf("%s (%s: %s, %v); want %s", d.Action, d.Matched, d.Reason, err, c.want)
			}
		})
	}
}

// deletedSecretRepo commits src/a.go, then a .env holding a secret, then
// deletes .env: the work tree no longer has it, the history does.
func deletedSecretRepo(t *testing.T) string {
	t.Helper()
	return gitFixture(t, `git init -q && mkdir src && echo 'package a' > src/a.go && git add -A && git commit -qm one &&
echo 'TOKEN=SECRET' > .env && git add .env && git commit -qm two && git rm -q .env && git commit -qm three`)
}
