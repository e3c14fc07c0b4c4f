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

// writesAllowedPolicy allows writes and edits, and the echo, printf and
// cat a row writes with, the way a user who trusts the agent with the
// project's files would: under strict mode a write to a file that
// configures execution asks all the same.
const writesAllowedPolicy = `{
  "strict": true,
  "permission": {
    "*": "ask",
    "read": "allow",
    "write": "allow",
    "edit": "allow",
    "path": {"*": "allow", "*.env": "deny", "~/.ssh/*": "deny"},
    "bash": {"*": "ask", "echo *": "allow", "printf *": "allow", "cat *": "allow", "git status": "allow", "make": "allow"}
  }
}`

// execConfigEngines are writesAllowedPolicy with strict on and off.
func execConfigEngines(t *testing.T, fsys facts.MapFS) defaultEngines {
	t.Helper()
	plain := strings.Replace(writesAllowedPolicy, `"strict": true`, `"strict": false`, 1)
	return defaultEngines{
		strict: newEngine(t, writesAllowedPolicy, runtime.WithFS(fsys)),
		plain:  newEngine(t, plain, runtime.WithFS(fsys)),
	}
}

// TestStrictExecConfigWrites: under strict mode a write to a file that
// configures execution (a git hook, ~/.bashrc, a Makefile, package.json,
// the list in facts/execconfig.go) asks although the policy allows writes;
// an ordinary file stays allowed and a deny still denies. Each bash row is
// first run in real bash (where there is one) with a scratch project and
// home, to prove it writes the file the row names. Without strict mode the
// spec's decision stands.
func TestStrictExecConfigWrites(t *testing.T) {
	engines := execConfigEngines(t, facts.MapFS{
		"/home/u/repo/.git/hooks/pre-commit.sample": "file",
		"/home/u/repo/notes.txt":                    "file",
		"/home/u/.bashrc":                           "link:dotfiles/bashrc",
		"/home/u/dotfiles/bashrc":                   "file",
	})
	bash, _ := exec.LookPath("bash")

	for _, c := range []struct {
		cmd         string
		writes      string // the file bash writes, below the scratch project (~/ for the home)
		want, plain string
	}{
		{"echo x > .git/hooks/pre-commit", ".git/hooks/pre-commit", "ask", "allow"},
		{`printf '[core]\n\tfsmonitor = "touch pwned; false"\n' >> .git/config`, ".git/config", "ask", "allow"},
		{"echo 'x' >> ~/.bashrc", "~/.bashrc", "ask", "allow"},
		{"echo 'x' >> $HOME/.zshenv", "~/.zshenv", "ask", "allow"},
		{`printf 'all:\n\ttouch made\n' > Makefile`, "Makefile", "ask", "allow"},
		{`printf 'all:\n\ttouch made\n' > sub/GNUmakefile`, "sub/GNUmakefile", "ask", "allow"},
		{`echo '{"scripts":{"test":"id"}}' > package.json`, "package.json", "ask", "allow"},
		{"cat notes.txt > .envrc", ".envrc", "ask", "allow"},
		{"echo 'Host *' >> ~/.ssh/config", "~/.ssh/config", "deny", "deny"},
		{"echo x > notes.txt", "notes.txt", "allow", "allow"},
		{"echo x > Makefile.notes", "Makefile.notes", "allow", "allow"},
		{"echo x > docs/package.json.md", "docs/package.json.md", "allow", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if bash != "" {
				checkBashWritesFile(t, bash, c.cmd, c.writes)
			}
			engines.check(t, c.cmd, c.want, c.plain)
		})
	}

	// The write and edit tools meet the same list.
	for _, c := range []struct {
		tool, path  string
		want, plain string
	}{
		{"write", "package.json", "ask", "allow"},
		{"write", "web/package.json", "ask", "allow"},
		{"edit", "Makefile", "ask", "allow"},
		{"edit", "makefile", "ask", "allow"},
		{"edit", "rules.mk", "ask", "allow"},
		{"write", ".git", "ask", "allow"}, // a .git file points git at another folder
		{"write", ".git/hooks/pre-push", "ask", "allow"},
		{"edit", "~/.config/git/config", "ask", "allow"},
		{"edit", "~/.gitconfig", "ask", "allow"},
		{"write", "~/.local/bin/git", "ask", "allow"},
		{"write", ".claude/settings.json", "ask", "allow"},
		{"write", "/etc/profile.d/x.sh", "ask", "allow"},
		{"edit", "~/dotfiles/bashrc", "ask", "allow"}, // ~/.bashrc is a link to it
		{"edit", "~/dotfiles/vimrc.txt", "allow", "allow"},
		{"write", "src/main.go", "allow", "allow"},
		{"write", ".env", "deny", "deny"},
	} {
		t.Run(c.tool+" "+c.path, func(t *testing.T) {
			call := facts.Call{Tool: c.tool, Input: map[string]any{"path": c.path}}
			d, err := engines.strict.Decide(context.Background(), call)
			if err != nil || string(d.Action) != c.want {
				t.Errorf("strict: %s (%s, %v); want %s", d.Action, d.Matched, err, c.want)
			}
			if c.want == "ask" && (d.Matched != "<strict-floor>" || !strings.Contains(d.Reason, "configures code that")) {
				t.Errorf("strict: matched %q, reason %q; want the strict floor's reason", d.Matched, d.Reason)
			}
			if d, err := engines.plain.Decide(context.Background(), call); err != nil || string(d.Action) != c.plain {
				t.Errorf("without strict mode: %s (%s, %v); want %s", d.Action, d.Matched, err, c.plain)
			}
		})
	}
}

// TestExecConfigThreat proves in real programs what the floor is for: one
// write to a file that configures execution, then an allowed git status or
// make runs the command the file names.
func TestExecConfigThreat(t *testing.T) {
	bash, errBash := exec.LookPath("bash")
	for _, c := range []struct {
		program, write, then string
	}{
		{"git", `git init -q . && printf '[core]\n\tfsmonitor = "touch pwned; false"\n' >> .git/config`, "git status"},
		{"make", `printf 'all:\n\ttouch pwned\n' > Makefile`, "make"},
	} {
		t.Run(c.program, func(t *testing.T) {
			if _, err := exec.LookPath(c.program); err != nil || errBash != nil {
				t.Skip(c.program + " or bash is not installed")
			}
			dir := t.TempDir()
			for _, cmd := range []string{c.write, c.then} {
				run := exec.Command(bash, "--norc", "--noprofile", "-c", "{ "+cmd+"; } >/dev/null 2>&1; true")
				run.Dir = dir
				run.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
				if out, err := run.CombinedOutput(); err != nil {
					t.Fatalf("bash -c %q: %v\n%s", cmd, err, out)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "pwned")); err != nil {
				t.Fatalf("%s after the write did not run the command it names: %v", c.then, err)
			}
		})
	}
}

// checkBashWritesFile runs cmd in real bash in a scratch project (holding
// notes.txt, sub/, docs/ and .git/hooks/) with a scratch home and checks
// that the file named exists afterwards.
func checkBashWritesFile(t *testing.T, bash, cmd, writes string) {
	t.Helper()
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(proj, "sub"), filepath.Join(proj, "docs"), filepath.Join(proj, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "notes.txt"), []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = proj
	run.Env = append(os.Environ(), "HOME="+home)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("bash -c %q: %v\n%s", cmd, err, out)
	}
	file := filepath.Join(proj, writes)
	if rest, ok := strings.CutPrefix(writes, "~/"); ok {
		file = filepath.Join(home, rest)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
		t.Fatalf("bash -c %q did not write %s: %v", cmd, writes, err)
	}
}
