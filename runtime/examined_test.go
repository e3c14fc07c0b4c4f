package runtime_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if dir != "" {
				run := exec.Command("bash", "-c", c.cmd)
				run.Dir = dir
				run.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat")
				out, err := run.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", c.cmd, err, out)
				}
				if strings.Contains(string(out), "SECRET") != c.prints {
					t.Fatalf("%s: the secret printed: %v, want %v\n%s", c.cmd, !c.prints, c.prints, out)
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
	dir := t.TempDir()
	for name, body := range map[string]string{".env": "TOKEN=SECRET\n", "keys/id": "key\n", "src/a.go": "package a\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command("bash", "-c", "git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm one")
	run.Dir = dir
	run.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return dir
}
