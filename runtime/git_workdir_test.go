package runtime_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestGitWorkDir: git -C DIR, for a folder below the current one, is
// decided as cd DIR && git is (docs/strict.md): the rules that name the
// subcommand decide it, and its paths are DIR's. A -C that may lead
// outside (absolute, a home form, "..", an expansion) still asks. Real git
// first shows that -C resolves a pathspec in DIR.
func TestGitWorkDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err == nil {
		dir := gitFixture(t, `mkdir sub && cd sub && git init -q && echo 'TOKEN=SECRET' > .env && git add .env &&
git commit -qm one`)
		if !showsSecret(t, dir, "git -C sub show HEAD:.env") {
			t.Fatal("git -C sub show HEAD:.env does not print sub/.env")
		}
	}
	engines := newDefaultEngines(t, facts.MapFS{"/home/u/repo/sub/.git/HEAD": "file", "/home/u/repo/sub/keys/id": "file"})
	user := newEngine(t, `{"strict": true, "permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow", "cd *": "allow"},
	    "path": {"*": "allow", "*.env": "deny", "sub/keys/*": "deny"}}}`, runtime.WithFS(facts.MapFS{"/home/u/repo/sub/keys/id": "file"}))
	for _, c := range []struct{ cmd, defaultWay, user string }{
		{"git -C sub status", "allow", "allow"},
		{"git -C sub log --oneline -5", "allow", "allow"},
		{"cd sub && git status", "allow", "allow"},
		{"git -C sub push", "ask", "allow"},
		// The subcommand's paths are sub's.
		{"git -C sub show HEAD:.env", "deny", "deny"},
		{"git -C sub log -p -- keys/id", "allow", "deny"},
		{"git -C sub diff HEAD -- keys/", "allow", "deny"},
		// Outside the folder, or not known: asks.
		{"git -C /tmp/x status", "ask", "ask"},
		{"git -C ../x status", "ask", "ask"},
		{"git -C ~/x status", "ask", "ask"},
		{`git -C "$D" status`, "ask", "ask"},
		{`git -C sub log $(cat f)`, "ask", "ask"},
	} {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
		for name, want := range map[string]string{"default": c.defaultWay, "user": c.user} {
			e := engines.strict
			if name == "user" {
				e = user
			}
			d, err := e.Decide(context.Background(), call)
			if err != nil || string(d.Action) != want {
				t.Errorf("%s: %s: %s (%s: %s, %v); want %s", name, c.cmd, d.Action, d.Matched, d.Reason, err, want)
			}
		}
	}
}
