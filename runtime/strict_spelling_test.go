package runtime_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestStrictOtherSpellings: under the bundled default policy (strict on), a
// program given as a path meets the rules of its base name (rm -rf *:
// deny), and $PWD, ${PWD}, $(pwd) and ~user spell the places they name.
// Each row first runs in real bash (where there is one) in a scratch folder
// holding .env and build/, to prove the command does what the row says.
// Without strict mode the spec's decision stands (R15: only ~, $HOME and
// ${HOME} are expanded), which the rows record too.
func TestStrictOtherSpellings(t *testing.T) {
	src, err := fs.ReadFile(policies.FS, "default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	strictPolicy := string(src)
	plainPolicy := strings.Replace(strictPolicy, `"strict": true`, `"strict": false`, 1)
	fsys := facts.MapFS{"/home/u/repo/.env": "file", "/home/u/repo/build/x.o": "file"}
	strict := []*runtime.Engine{
		newEngine(t, strictPolicy, runtime.WithFS(fsys)),
		newEngine(t, strictPolicy, runtime.WithFS(fsys), runtime.WithPureRego()),
	}
	plain := newEngine(t, plainPolicy, runtime.WithFS(fsys))
	bash, _ := exec.LookPath("bash")

	secret := func(dir, out string) bool { return strings.Contains(out, "SECRET") }
	removed := func(dir, out string) bool {
		_, err := os.Stat(filepath.Join(dir, "build"))
		return os.IsNotExist(err)
	}
	for _, c := range []struct {
		cmd         string
		does        string
		proof       func(dir, out string) bool
		want, plain string
	}{
		{"/bin/rm -rf build", "removes build", removed, "deny", "ask"},
		{`"/bin/rm" -rf build`, "removes build", removed, "deny", "ask"},
		{"cd .. && cd - >/dev/null && /bin/rm -rf build", "removes build", removed, "deny", "ask"},
		{`cat "$PWD/.env"`, "prints .env", secret, "deny", "allow"},
		{`cat ${PWD}/.env`, "prints .env", secret, "deny", "allow"},
		{`cat $(pwd)/.env`, "prints .env", secret, "deny", "allow"},
		{`cat "$(pwd -P)/.env"`, "prints .env", secret, "deny", "ask"},
		{`cat < "$PWD/.env"`, "prints .env", secret, "deny", "allow"},
		{`ls -d ~root`, "lists root's home", func(_, out string) bool { return strings.HasPrefix(out, "/") }, "ask", "allow"},
		// Not widened: a program at another path is not the one a rule
		// allows by name, and a path-spelt program no rule names still asks.
		{"/usr/bin/cat .env.example", "", nil, "ask", "ask"},
		{"ls -la", "", nil, "allow", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if bash != "" && c.proof != nil {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
					t.Fatal(err)
				}
				run := exec.Command(bash, "--norc", "--noprofile", "-c", c.cmd)
				run.Dir = dir
				out, _ := run.CombinedOutput()
				if !c.proof(dir, string(out)) {
					t.Fatalf("bash -c %q does not do what the row says (%s): %s", c.cmd, c.does, out)
				}
			}
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			for i, e := range strict {
				if d, err := e.Decide(context.Background(), call); err != nil || d.Action != c.want {
					t.Errorf("strict (pure=%v): %s (%s, %v); want %s", i == 1, d.Action, d.Matched, err, c.want)
				}
			}
			if d, err := plain.Decide(context.Background(), call); err != nil || d.Action != c.plain {
				t.Errorf("without strict mode: %s (%s, %v); want %s", d.Action, d.Matched, err, c.plain)
			}
		})
	}
}
