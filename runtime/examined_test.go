package runtime_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestExaminedNotRead: a command that only examines a denied file (its
// name, size, times, or its place in git's index and history) is not a
// read of it in strict mode (the "stat" role, docs/strict.md), while the
// same programs spelt to print the contents, and a denied folder that ls
// or find opens and lists, stay denied. Each row first runs in real bash,
// in a repository whose committed .env holds a secret, and checks whether
// the secret is printed; then both engines decide it.
func TestExaminedNotRead(t *testing.T) {
	const rules = `"permission": {"*": "ask", "bash": {"*": "allow"},
	    "path": {"*": "allow", "*.env": "deny", "keys/*": "deny"}}`
	fsys := facts.MapFS{"/home/u/repo/.env": "file", "/home/u/repo/keys/id": "file", "/home/u/repo/src/a.go": "file"}
	plain := newEngine(t, `{`+rules+`}`, runtime.WithFS(fsys))
	strict := newEngine(t, `{"strict": true, `+rules+`}`, runtime.WithFS(fsys))
	dir := ""
	if _, err := exec.LookPath("git"); err == nil {
		dir = examinedRepo(t)
	}
	for _, c := range []struct {
		cmd           string
		prints        bool // the secret reaches the output
		strict, plain string
	}{
		{"ls -la .env", false, "allow", "deny"},
		{"stat .env", false, "allow", "deny"},
		{"find . -newer .env -name '*.go'", false, "allow", "deny"},
		{"git ls-files .env", false, "allow", "deny"},
		{"git log --oneline -- .env", false, "allow", "deny"},
		{"git shortlog -sn HEAD -- .env", false, "allow", "deny"},
		{"git rm -q --cached .env", false, "allow", "deny"},
		// The contents: denied as before.
		{"git log -p -- .env", true, "deny", "deny"},
		{"git log --cc -p -- .env", true, "deny", "deny"},
		{"cat .env", true, "deny", "deny"},
		// -S tests the contents: what it finds says what .env holds.
		{"git log -S SECRET --oneline -- .env", false, "deny", "deny"},
		// A denied folder that ls or find lists is gated as the ls tool is
		// (in strict mode, which reads a folder as "keys/" too).
		{"ls keys", false, "deny", "allow"},
		{"find keys", false, "deny", "allow"},
		{"ls -la keys/id", false, "allow", "deny"},
		// A glob ls or stat names: each match examined, a folder listed.
		{"ls -la .e*", false, "allow", "allow"},
		{"stat -c %s .e*", false, "allow", "allow"},
		{"ls -la *", false, "deny", "allow"}, // keys/ is listed
		{"ls -d k*", false, "deny", "allow"}, // -d names the folder; regate does not read -d
		{"ls src/*.go", false, "allow", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if dir != "" {
				if got := showsSecret(t, dir, c.cmd); got != c.prints {
					t.Fatalf("%s: the secret printed: %v, want %v", c.cmd, got, c.prints)
				}
				// git rm --cached leaves the file on disk.
				_ = exec.Command("git", "-C", dir, "reset", "-q").Run()
			}
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			if d, err := plain.Decide(context.Background(), call); err != nil || string(d.Action) != c.plain {
				t.Errorf("without strict mode: %s (%s, %v); want %s (the spec's path reading)", d.Action, d.Matched, err, c.plain)
			}
			if d, err := strict.Decide(context.Background(), call); err != nil || string(d.Action) != c.strict {
				t.Errorf("strict mode: %s (%s, %v); want %s", d.Action, d.Matched, err, c.strict)
			}
		})
	}
}

// examinedRepo is a repository with a committed .env that holds a secret,
// a denied folder and a source file.
func examinedRepo(t *testing.T) string {
	t.Helper()
	return gitFixture(t, `mkdir keys src && echo 'TOKEN=SECRET' > .env && echo key > keys/id &&
echo 'package a' > src/a.go && git init -q && git add -A && git commit -qm one`)
}
