package runtime_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
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
	engines := newDefaultEngines(t, facts.MapFS{"/home/u/repo/.env": "file", "/home/u/repo/build/x.o": "file"})
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
		// Options spelt another way (rm -rf * is written once).
		{"rm -fr build", "removes build", removed, "deny", "ask"},
		{"rm -r -f build", "removes build", removed, "deny", "ask"},
		{"rm -R -f build", "removes build", removed, "deny", "ask"},
		{"rm --recursive --force build", "removes build", removed, "deny", "ask"},
		{"rm -rfv build", "removes build", removed, "deny", "ask"},
		{"rm -v --force -r build", "removes build", removed, "deny", "ask"},
		{"/bin/rm -fr build", "removes build", removed, "deny", "ask"},
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
			engines.check(t, c.cmd, c.want, c.plain)
		})
	}
}

// TestYoloCannotPassAHardGuardBySpelling: a hard guard on rm -rf * denies
// rm -fr and rm --recursive --force under yolo and strict mode, where yolo
// would otherwise approve the ask a pattern that misses the spelling
// leaves.
func TestYoloCannotPassAHardGuardBySpelling(t *testing.T) {
	out, err := compiler.Compile(compiler.Input{
		Policy:     &compiler.Source{Name: "policy.jsonc", Data: []byte(`{"strict": true, "yoloMode": true, "permission": {"*": "ask"}}`)},
		HardGuards: &compiler.Source{Name: "hard-guards.jsonc", Data: []byte(`{"permission": {"bash": {"rm -rf *": "deny"}}}`)},
	}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	{
		e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}))
		if err != nil {
			t.Fatal(err)
		}
		for cmd, want := range map[string]string{
			"rm -fr /":                     "deny",
			"rm --recursive --force /":     "deny",
			"rm -r -f -v /":                "deny",
			"rm -f notes.txt":              "allow", // yolo approves what no guard names
			"rm -fr --no-preserve-root /":  "deny",
			"rm --no-preserve-root -rf /":  "deny",
			"sudo rm -fr /":                "deny",
			"/usr/bin/rm --force -R /home": "deny",
		} {
			d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
			if err != nil || string(d.Action) != want {
				t.Errorf("%q: %s (%s, layer %s, %v); want %s", cmd, d.Action, d.Matched, d.Layer, err, want)
			}
		}
	}
}
