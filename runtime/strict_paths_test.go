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

// pathsFixture is the tree the path rows decide on: a home holding an SSH
// key and a folder of keys, a project holding .env, README.md, a folder and
// a link into the keys folder. The engines see it as a MapFS under /home/u;
// the bash proofs run in a real copy of it.
var pathsFixture = map[string]string{
	"/home/u/.ssh/id_rsa":      "file",
	"/home/u/.ssh/keys/a":      "file",
	"/home/u/repo/.env":        "file",
	"/home/u/repo/README.md":   "file",
	"/home/u/repo/list.txt":    "file",
	"/home/u/repo/key.pem":     "file",
	"/home/u/repo/sub/main.go": "file",
	"/home/u/repo/link":        "link:/home/u/.ssh/keys",
	"/home/u/repo/x .env y":    "file",
}

// TestStrictKernelPaths: under the bundled default policy a path is
// decided as the kernel resolves it (link/.. is the folder of the link's
// target; /proc/self is the command's own process), the places bash
// expands that the spec does not (~+, ~-, $OLDPWD, ${HOME:-…}) are spelt
// as the paths they name, and under strict mode a path that depends on an
// expansion regate does not know, or names a file descriptor, asks. Each
// row that claims what bash does first runs in real bash, in a copy of the
// fixture with HOME pointing at its home, to prove it (it prints the key,
// the .env or the README). The last column is the decision without strict
// mode: the kernel's form is the spec's canonical (symlink-resolved) form,
// so it holds there too; the expansions are strict mode's alone (R15).
func TestStrictKernelPaths(t *testing.T) {
	engines := newDefaultEngines(t, facts.MapFS(pathsFixture))
	bash, _ := exec.LookPath("bash")

	key := func(out string) bool { return strings.Contains(out, "PRIVATE KEY") }
	secret := func(out string) bool { return strings.Contains(out, "SECRET=1") }
	readme := func(out string) bool { return strings.Contains(out, "README TEXT") }
	for _, c := range []struct {
		cmd         string
		oldpwd      string // OLDPWD in bash's environment, relative to the fixture's root
		proof       func(out string) bool
		want, plain string
	}{
		// The kernel walks link/.. from the link's target.
		{cmd: "cat link/../id_rsa", proof: key, want: "deny", plain: "deny"},
		{cmd: "cat ./link/./../id_rsa", proof: key, want: "deny", plain: "deny"},
		{cmd: "head -c 100 link/../keys/../id_rsa", proof: key, want: "deny", plain: "deny"},
		// /proc/self is the command's process: its cwd and root.
		{cmd: "cat /proc/self/cwd/../.ssh/id_rsa", proof: key, want: "deny", plain: "deny"},
		{cmd: "cat /proc/thread-self/cwd/../.ssh/id_rsa", proof: key, want: "deny", plain: "deny"},
		{cmd: "cat /proc/self/cwd/.env", proof: secret, want: "deny", plain: "deny"},
		// Descriptors: a redirect gives /dev/fd/N its file.
		{cmd: "cat /dev/fd/3 3<README.md", proof: readme, want: "ask", plain: "allow"},
		{cmd: "cat /proc/self/fd/3 3<README.md", proof: readme, want: "ask", plain: "allow"},
		{cmd: "cat /dev/fd/3 3<.env", proof: secret, want: "deny", plain: "deny"},
		{cmd: "cat /dev/stdin 0<README.md", proof: readme, want: "ask", plain: "allow"},
		{cmd: "cat /dev/stdin", want: "allow", plain: "allow"},
		{cmd: "cat /proc/1/root/etc/hostname", want: "ask", plain: "allow"},
		// ~+ is the working directory, ~- and $OLDPWD the previous one.
		{cmd: "cat ~+/../.ssh/id_rsa", proof: key, want: "deny", plain: "allow"},
		{cmd: "cd sub && cat ~-/../.ssh/id_rsa", proof: key, want: "deny", plain: "allow"}, // cd asks
		{cmd: `cd sub && cat "$OLDPWD"/.env`, proof: secret, want: "deny", plain: "allow"},
		{cmd: "cd sub; cd ~-; cat ../.ssh/id_rsa", proof: key, want: "deny", plain: "deny"}, // a cd is followed in every mode
		{cmd: "cd sub && cd - >/dev/null && cat ../.ssh/id_rsa", proof: key, want: "deny", plain: "deny"},
		{cmd: "cat ~-/.ssh/id_rsa", oldpwd: "home", proof: key, want: "ask", plain: "allow"},
		{cmd: "cat $OLDPWD/.ssh/id_rsa", oldpwd: "home", proof: key, want: "ask", plain: "allow"},
		// HOME with an operator is still the home (it is set and not empty).
		{cmd: "cat ${HOME:-/tmp}/.ssh/id_rsa", proof: key, want: "deny", plain: "allow"},
		{cmd: "cat ${HOME-x}/.ssh/id_rsa", proof: key, want: "deny", plain: "allow"},
		{cmd: "cat ${HOME:=x}/.ssh/id_rsa", proof: key, want: "deny", plain: "allow"},
		{cmd: `cat "${HOME%/}/.ssh/id_rsa"`, proof: key, want: "deny", plain: "allow"},
		{cmd: "cat ${HOME:+.}/.env", proof: secret, want: "deny", plain: "allow"},
		{cmd: "cat ${PWD:-x}/.env", proof: secret, want: "deny", plain: "allow"},
		// Any other expansion in a path-like word asks under strict.
		{cmd: "cat $D/.ssh/id_rsa", want: "ask", plain: "allow"},
		{cmd: "cat .en$V", want: "ask", plain: "allow"},
		{cmd: `cat "${X}"/id_rsa`, want: "ask", plain: "allow"},
		// A variable the command sets itself is what it holds: a literal
		// value is gated, any other asks.
		{cmd: "D=..; cat $D/.ssh/id_rsa", proof: key, want: "deny", plain: "allow"},
		{cmd: "X=~/.ssh; cat \"${X}\"/id_rsa", proof: key, want: "deny", plain: "allow"},
		{cmd: "V=v; cat .en$V", proof: secret, want: "deny", plain: "allow"},
		{cmd: "X=.env; cat $X", proof: secret, want: "deny", plain: "allow"},
		{cmd: "X=.env && cat \"$X\"", proof: secret, want: "deny", plain: "allow"},
		{cmd: "X=.env; cat < $X", proof: secret, want: "deny", plain: "allow"},
		// A glob beside a variable: the word is a pattern.
		{cmd: "X=.en; cat $X*", proof: secret, want: "deny", plain: "allow"},
		{cmd: `X=.en; cat "$X"?`, proof: secret, want: "deny", plain: "allow"},
		{cmd: `X=.e; cat "$X*"`, want: "allow", plain: "allow"}, // a quoted star is a star
		// A loop variable is one of the loop's words: a literal as it is,
		// a glob as the paths it matches in the loop's directory.
		{cmd: `for f in *.md; do cat "$f"; done`, proof: readme, want: "allow", plain: "allow"},
		{cmd: `for f in README.md .env; do cat "$f"; done`, proof: secret, want: "deny", plain: "allow"},
		{cmd: `for f in .e*; do cat "$f"; done`, proof: secret, want: "deny", plain: "allow"},
		{cmd: `for f in *; do cat "$f" 2>/dev/null; done`, proof: key, want: "deny", plain: "allow"}, // key.pem
		{cmd: `for d in ../.ss?; do cat "$d/id_rsa"; done`, proof: key, want: "deny", plain: "allow"},
		{cmd: `for f in {README,.env}; do cat $f; done`, proof: secret, want: "deny", plain: "allow"},
		{cmd: `for f in *.md; do cd sub; cat "../$f"; done`, proof: readme, want: "ask", plain: "allow"}, // a cd in the body (and cd asks)
		{cmd: `for f; do cat "$f"; done`, want: "ask", plain: "allow"},
		{cmd: `for f in $(cat list.txt); do cat "$f"; done`, proof: key, want: "ask", plain: "allow"},
		// Unquoted, each path is split at blanks and globbed again:
		// "x .env y" is x, .env and y.
		{cmd: `for f in x*; do cat $f 2>/dev/null; done`, proof: secret, want: "ask", plain: "allow"},
		{cmd: `for f in x*; do cat "$f"; done`, want: "allow", plain: "allow"},
		{cmd: `for f in *.md; do wc -l $f; done`, want: "allow", plain: "allow"},
		{cmd: "X=.e*; cat $X", proof: secret, want: "ask", plain: "allow"},
		{cmd: "X=$(cat list.txt); cat $X", proof: key, want: "ask", plain: "allow"},
		{cmd: "X=README.md; X=../.ssh/id_rsa; cat $X", proof: key, want: "deny", plain: "allow"},
		{cmd: "X=README.md; cat $X", proof: readme, want: "allow", plain: "allow"},
		{cmd: "cat $(cat list.txt)", proof: key, want: "ask", plain: "allow"},
		{cmd: `cat "$(cat list.txt)"`, proof: key, want: "ask", plain: "allow"},
		{cmd: "cat `cat list.txt`", proof: key, want: "ask", plain: "allow"},
		{cmd: "cat ${HOME#/}/x", want: "ask", plain: "allow"},
		{cmd: "cat < $D/.ssh/id_rsa", want: "ask", plain: "allow"},
		{cmd: "grep -r --file=$D/x .", want: "ask", plain: "allow"},
		// A denied word as written still denies.
		{cmd: "cat $D/.env", want: "deny", plain: "allow"},
		{cmd: "cat $(echo .env)", proof: secret, want: "deny", plain: "deny"},
		// A cd regate cannot follow: to an unknown place, or to a folder
		// that does not exist (the cd fails, the command stays). A bare
		// name is still met by a rule naming it; a relative path asks.
		{cmd: "cd nowhere; cat key.pem", proof: key, want: "deny", plain: "allow"},
		{cmd: `cd "$X"; cat key.pem`, proof: key, want: "deny", plain: "allow"},
		{cmd: "cd nowhere; cat ../.ssh/id_rsa", proof: key, want: "ask", plain: "allow"},
		// Not widened: harmless calls stay allowed.
		{cmd: `cat "$f"`, want: "allow", plain: "allow"},
		{cmd: `grep -n "$pattern" README.md`, want: "allow", plain: "allow"},
		{cmd: "cat ~+/README.md", proof: readme, want: "allow", plain: "allow"},
		{cmd: "ls -la", want: "allow", plain: "allow"},
		{cmd: "git status", want: "allow", plain: "allow"},
		{cmd: "cat README.md", proof: readme, want: "allow", plain: "allow"},
		{cmd: "grep -rn foo sub", want: "allow", plain: "allow"},
		{cmd: "ls 2>/dev/null", want: "allow", plain: "allow"},
		{cmd: "cat < <(ls)", want: "allow", plain: "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if bash != "" && c.proof != nil {
				out := runInPathsFixture(t, bash, c.cmd, c.oldpwd)
				if !c.proof(out) {
					t.Fatalf("bash -c %q does not do what the row says: %s", c.cmd, out)
				}
			}
			engines.check(t, c.cmd, c.want, c.plain)
		})
	}
}

// runInPathsFixture writes pathsFixture under a scratch folder (the key, .env
// and README with their contents, the link as a real symbolic link), runs
// cmd in real bash in its repo with HOME at its home, and returns what it
// printed.
func runInPathsFixture(t *testing.T, bash, cmd, oldpwd string) string {
	t.Helper()
	root := t.TempDir()
	contents := map[string]string{
		"/home/u/.ssh/id_rsa":    "-----BEGIN PRIVATE KEY-----\n",
		"/home/u/repo/.env":      "SECRET=1\n",
		"/home/u/repo/README.md": "README TEXT\n",
		"/home/u/repo/list.txt":  "../.ssh/id_rsa\n",
		"/home/u/repo/key.pem":   "-----BEGIN PRIVATE KEY-----\n",
	}
	for p, v := range pathsFixture {
		real := filepath.Join(root, strings.TrimPrefix(p, "/home/u"))
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(v, "link:"); ok {
			err = os.Symlink(filepath.Join(root, strings.TrimPrefix(target, "/home/u")), real)
		} else {
			err = os.WriteFile(real, []byte(contents[p]), 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = filepath.Join(root, "repo")
	run.Env = []string{"HOME=" + root, "PATH=" + os.Getenv("PATH"), "PWD=" + run.Dir}
	if oldpwd != "" {
		run.Env = append(run.Env, "OLDPWD="+filepath.Join(root, strings.TrimPrefix(oldpwd, "home")))
	}
	out, _ := run.CombinedOutput()
	return string(out)
}

// TestStrictCaseFolding: on a file system that folds case (a fake one
// here: Linux's folds none, so these rows cannot run in real bash) .ENV is
// .env and RM is rm. Paths are decided in their on-disk spelling in every
// mode (it is what the kernel opens: the canonical form); the lower-case
// program name is a spelling strict mode decides. The policy's
// "caseInsensitive" overrides the probe.
func TestStrictCaseFolding(t *testing.T) {
	fold := facts.FoldMapFS{
		"/home/u/.ssh/id_rsa":     "file",
		"/home/u/repo/.env":       "file",
		"/home/u/repo/build/x.o":  "file",
		"/home/u/repo/README.md":  "file",
		"/home/u/repo/Keys/s.pem": "file",
	}
	engines := newDefaultEngines(t, fold)
	for _, c := range []struct{ cmd, want, plain string }{
		{"cat .ENV", "deny", "deny"},
		{"cat .Env", "deny", "deny"},
		{"cat ~/.SSH/ID_RSA", "deny", "deny"},
		{"cat keys/S.PEM", "deny", "deny"},
		{"RM -rf build", "deny", "ask"},
		{"Rm -fr build", "deny", "ask"},
		{"/BIN/RM -rf build", "deny", "ask"},
		{"cat readme.md", "allow", "allow"},
		{"CAT README.md", "ask", "ask"}, // a spelling no allow names: the catch-all
	} {
		t.Run(c.cmd, func(t *testing.T) { engines.check(t, c.cmd, c.want, c.plain) })
	}

	// The knob overrides the probe, both ways.
	src, err := os.ReadFile("../policies/default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	off := strings.Replace(string(src), `"strict": true,`, `"strict": true, "caseInsensitive": false,`, 1)
	on := strings.Replace(string(src), `"strict": true,`, `"strict": true, "caseInsensitive": true,`, 1)
	for _, c := range []struct {
		policy string
		fsys   facts.FS
		cmd    string
		want   string
	}{
		{off, fold, "cat .ENV", "allow"},
		{off, fold, "RM -rf build", "ask"},
		{on, facts.MapFS{"/home/u/repo/build/x.o": "file"}, "RM -rf build", "deny"},
	} {
		e := newEngine(t, c.policy, runtime.WithFS(c.fsys))
		d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
		if err != nil || string(d.Action) != c.want {
			t.Errorf("%q: %s (%s, %v); want %s", c.cmd, d.Action, d.Matched, err, c.want)
		}
	}
}
