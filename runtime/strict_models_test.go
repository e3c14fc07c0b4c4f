package runtime_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// modelFixture is the scratch project the argument-model tables run their
// commands in: a README, a secret .env and a lock file.
var modelFixture = map[string]string{
	"README":       "a\n",
	"README.md":    "see .env.example\n",
	".env":         "X=SECRET\n",
	".env.example": "X=example\n",
	"pnpm.lock":    "lock a\n",
	"src/main.go":  "package main // TODO\n",
}

// modelFS is modelFixture as the engines see it, at /home/u/repo.
func modelFS() facts.MapFS {
	fsys := facts.MapFS{}
	for name := range modelFixture {
		fsys["/home/u/repo/"+name] = "file"
	}
	return fsys
}

// bashEffect is what a command did when run in real bash in a fresh copy
// of modelFixture: its output and exit status, and the files it created
// or changed.
type bashEffect struct {
	out     string
	failed  bool
	changed []string
}

// runInFixture runs cmd in real bash in a fresh copy of modelFixture.
func runInFixture(t *testing.T, bash, cmd string) bashEffect {
	t.Helper()
	dir := t.TempDir()
	for name, body := range modelFixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = dir
	run.Stdin = strings.NewReader("")
	out, err := run.CombinedOutput()
	eff := bashEffect{out: string(out), failed: err != nil}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		b, _ := os.ReadFile(p)
		if body, ok := modelFixture[rel]; !ok || body != string(b) {
			eff.changed = append(eff.changed, rel)
		}
		return nil
	})
	return eff
}

// Proofs of what a row's command does, checked on its run in real bash.
type proof struct {
	says  string
	holds func(bashEffect) bool
}

var (
	printsSecret = proof{"prints .env", func(e bashEffect) bool { return strings.Contains(e.out, "SECRET") }}
	keepsSecret  = proof{"does not print .env", func(e bashEffect) bool { return !strings.Contains(e.out, "SECRET") }}
	rejected     = proof{"is rejected by the program", func(e bashEffect) bool { return e.failed }}
)

func writes(files ...string) proof {
	return proof{"writes " + strings.Join(files, ", "), func(e bashEffect) bool {
		return strings.Join(e.changed, ",") == strings.Join(files, ",")
	}}
}

// TestStrictArgumentModels: under the bundled default policy (strict on), a
// command is read as its program parses it (docs/strict.md, "Argument
// models"): a path hidden by a GNU abbreviation, an empty pattern or a
// brace is read, and a write by tee, cp, sort -o or sed -i meets the write
// rules ("*.lock": deny). An option the model does not understand asks.
// Each row runs in real bash first (where there is one) to prove what it
// does; without strict mode the spec's decision stands, which the rows
// record too.
func TestStrictArgumentModels(t *testing.T) {
	engines := newDefaultEngines(t, modelFS())
	bash, _ := exec.LookPath("bash")

	for _, c := range []struct {
		cmd         string
		does        proof
		want, plain string
	}{
		{"cat .env", printsSecret, "deny", "deny"},
		{"grep X .env", printsSecret, "deny", "deny"},
		{"grep --regex=X .env", printsSecret, "deny", "allow"},
		{"grep --regexp X .env", printsSecret, "deny", "deny"},
		{"grep '' .env", printsSecret, "deny", "allow"},
		{`grep "" README .env`, printsSecret, "deny", "deny"},
		{"grep {X,.env}", printsSecret, "deny", "allow"},
		{"grep -e X -- .env", printsSecret, "deny", "deny"},
		{"grep -h -e X .env", printsSecret, "deny", "deny"},
		{"head -n1 .env", printsSecret, "deny", "deny"},
		{"head -1 .env", printsSecret, "deny", "deny"},
		{"sed -n p .env", printsSecret, "deny", "deny"},
		{"sed --quiet --exp=p .env", printsSecret, "deny", "allow"},
		{"tail +1 .env", printsSecret, "deny", "deny"},
		{"sort .env", printsSecret, "deny", "deny"},
		{"tee pnpm.lock < README", writes("pnpm.lock"), "deny", "ask"},
		{"tee pnpm.l?ck < README", writes("pnpm.lock"), "deny", "ask"}, // the glob is the file it matches
		// grep's filters, as grep matches them: * matches a leading dot.
		{"grep -r X --include='*' .", printsSecret, "ask", "allow"},
		{"grep -r X --include='*env' .", printsSecret, "ask", "allow"},
		{"grep -r X --exclude='*.go' .", printsSecret, "ask", "allow"},
		{"grep -r X --exclude-dir=src .", printsSecret, "ask", "allow"},
		{"tee -a pnpm.lock < README", writes("pnpm.lock"), "deny", "ask"},
		{"cp README x.lock", writes("x.lock"), "deny", "ask"},
		// Into a folder: the file written is the folder/NAME.
		{"cp pnpm.lock src/", writes("src/pnpm.lock"), "deny", "ask"},
		{"cp pnpm.lock src", writes("src/pnpm.lock"), "deny", "ask"},
		{"cp -t src pnpm.lock", writes("src/pnpm.lock"), "deny", "ask"},
		{"cp -t src README && cp README yarn.lock", writes("src/README", "yarn.lock"), "deny", "ask"},
		{"sed -i s/a/b/ pnpm.lock", writes("pnpm.lock"), "deny", "allow"},
		{"sed -ie. s/a/b/ pnpm.lock", writes("pnpm.lock", "pnpm.locke."), "deny", "allow"},
		{"sed --in-place=.bak s/a/b/ pnpm.lock", writes("pnpm.lock", "pnpm.lock.bak"), "deny", "allow"},
		{"sort -o yarn.lock README", writes("yarn.lock"), "deny", "allow"},
		{"sort --output=yarn.lock README", writes("yarn.lock"), "deny", "allow"},
		{"uniq README go.lock", writes("go.lock"), "deny", "allow"},
		{"mv pnpm.lock old", writes("old"), "deny", "ask"},
		// Not understood: the program rejects it, or it is not a word
		// regate can read; strict mode asks.
		{"grep --exp=X .env", rejected, "ask", "allow"},
		{"grep --ex=X README", rejected, "ask", "allow"},
		{"grep --frob X README", rejected, "ask", "allow"},
		{"grep -d frob X README", rejected, "ask", "allow"},
		{`p=-r; grep $p X .`, printsSecret, "ask", "allow"},
		{"ls --frob", rejected, "ask", "allow"},
		{"sort --compress-program=sh README", proof{"runs", func(bashEffect) bool { return true }}, "ask", "allow"},
		// Understood and harmless: allowed as before.
		{"grep -rn TODO src", keepsSecret, "allow", "allow"},
		{"grep -n '\\.env' README.md", keepsSecret, "allow", "allow"},
		{"cat README.md", keepsSecret, "allow", "allow"},
		{"ls -la", keepsSecret, "allow", "allow"},
		{"ls -la src", keepsSecret, "allow", "allow"},
		{"grep -c a README", keepsSecret, "allow", "allow"},
		{"cat -- README", keepsSecret, "allow", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if bash != "" {
				if eff := runInFixture(t, bash, c.cmd); !c.does.holds(eff) {
					t.Fatalf("bash -c %q does not do what the row says (%s): %+v", c.cmd, c.does.says, eff)
				}
			}
			engines.check(t, c.cmd, c.want, c.plain)
		})
	}
}
