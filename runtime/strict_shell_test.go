package runtime_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// shellFS is the virtual twin of the scratch home every row of
// TestStrictShellState runs in: a key, a project with a secret, a file
// named *, a key deep in the tree, a start-up file that shadows ls, a
// script, and git configuration that runs a command.
var shellFS = facts.MapFS{
	"/home/u/.ssh/id_rsa":               "file",
	"/home/u/repo/.env":                 "file",
	"/home/u/repo/README.md":            "file",
	"/home/u/repo/*":                    "file",
	"/home/u/repo/sub/deeper/key.pem":   "file",
	"/home/u/repo/rc.sh":                "file",
	"/home/u/repo/tool.sh":              "file",
	"/home/u/repo/.gitconfig":           "file",
	"/home/u/repo/git/config":           "file",
	"/home/u/repo/sub/deeper/notes.txt": "file",
}

// writeShellFixture builds shellFS's twin under a scratch home and returns
// the home.
func writeShellFixture(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	gitHook := "[core]\n\tfsmonitor = touch pwned; false\n"
	for name, text := range map[string]string{
		".ssh/id_rsa":               "KEY-PRIVATE\n",
		"repo/.env":                 "SECRET=1\n",
		"repo/README.md":            "readme\n",
		"repo/*":                    "STAR\n",
		"repo/sub/deeper/key.pem":   "PEM-KEY\n",
		"repo/sub/deeper/notes.txt": "DEEP\n",
		"repo/rc.sh":                "ls() { cat .env; }\n",
		"repo/tool.sh":              "#!/bin/sh\ncat .env\n",
		"repo/.gitconfig":           gitHook,
		"repo/git/config":           gitHook,
	} {
		p := filepath.Join(home, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// shellPolicies are the policies of TestStrictShellState's rows, strict on
// (the plain engines switch it off). "default" is the bundled default
// policy; "user" a typical user policy that allows reading programs and
// the shell's own harmless-looking builtins; "open" allows every command
// and keeps only secrets and rm out of reach.
var shellPolicies = map[string]string{
	"user": `{"strict": true, "permission": {"*": "ask",
		"path": {"*": "allow", "*.env": "deny", "*.pem": "deny", "~/.ssh/*": "deny"},
		"bash": {"*": "ask", "cat *": "allow", "ls *": "allow", "echo *": "allow", "grep *": "allow",
			"printf *": "allow", "test *": "allow", "[ *": "allow", "read *": "allow", "cd *": "allow",
			"pushd *": "allow", "popd *": "allow", "shopt *": "allow", "set *": "allow", "alias *": "allow",
			"export *": "allow", "source *": "allow", "git status": "allow"}}}`,
	"open": `{"strict": true, "permission": {"*": "allow",
		"path": {"*": "allow", "*.env": "deny", "*.pem": "deny", "~/.ssh/*": "deny"},
		"bash": {"*": "allow", "rm *": "deny"}}}`,
}

// shellEngines returns the engines of one policy at one working directory.
func shellEngines(t *testing.T, policy, cwd string) defaultEngines {
	t.Helper()
	src, ok := shellPolicies[policy]
	if policy == "default" {
		b, err := fs.ReadFile(policies.FS, "default.jsonc")
		if err != nil {
			t.Fatal(err)
		}
		src, ok = string(b), true
	}
	if !ok {
		t.Fatalf("no policy %q", policy)
	}
	plain := strings.Replace(src, `"strict": true`, `"strict": false`, 1)
	opts := []runtime.Option{runtime.WithFS(shellFS), runtime.WithCwd(cwd)}
	return defaultEngines{
		strict: newEngine(t, src, opts...),
		plain:  newEngine(t, plain, opts...),
	}
}

// Proofs: what a row's command does in real bash, seen from its output
// and the scratch home.
var (
	printsEnv  = shellProof{"prints .env", func(_, out string) bool { return strings.Contains(out, "SECRET=1") }}
	printsKey  = shellProof{"prints the private key", func(_, out string) bool { return strings.Contains(out, "KEY-PRIVATE") }}
	printsPem  = shellProof{"prints the .pem key", func(_, out string) bool { return strings.Contains(out, "PEM-KEY") }}
	printsStar = shellProof{"reads the file named *, not what * matches", func(_, out string) bool {
		return strings.Contains(out, "STAR") && !strings.Contains(out, "readme")
	}}
	printsDeep = shellProof{"reads a file two folders down", func(_, out string) bool { return strings.Contains(out, "DEEP") }}
	runsTouch  = shellProof{"runs the command hidden in a value", func(dir, _ string) bool {
		_, err := os.Stat(filepath.Join(dir, "pwned"))
		return err == nil
	}}
)

type shellProof struct {
	does string
	ok   func(dir, out string) bool
}

// TestStrictShellState: under strict mode, bash's own glob rules and the
// shell state a command sets before a unit decide as bash does, or ask.
// Every row first runs in real bash (where there is one) in a scratch
// home, to prove that the command does what the row says; the row then
// records the decision with strict mode and without it. Before this
// table's change each row was allowed with strict mode on.
func TestStrictShellState(t *testing.T) {
	bash, _ := exec.LookPath("bash")
	_, gitErr := exec.LookPath("git")
	engines := map[string]defaultEngines{}
	for _, c := range []struct {
		policy, cmd string
		inHome      bool // run at the home rather than the project
		shellProof  shellProof
		want, plain string
	}{
		// Globs matched as bash matches them.
		{"default", `cat .en[!x]`, false, printsEnv, "deny", "allow"},
		{"default", `cat .e[[:lower:]]v`, false, printsEnv, "deny", "allow"},
		{"default", `cat .en[[:alpha:]]`, false, printsEnv, "deny", "allow"},
		{"default", `cat ~/.ss[!x]/id_rsa`, false, printsKey, "deny", "allow"},
		{"default", `grep {S,.env}`, false, printsEnv, "deny", "allow"},
		{"user", "shopt -s extglob\ncat @(.env|README.md)", false, printsEnv, "deny", "allow"},
		{"user", "shopt -s extglob\ncat ?(.)env", false, printsEnv, "deny", "allow"},
		// Shell options that change what a glob matches.
		{"user", `shopt -s dotglob; cat *`, false, printsEnv, "ask", "allow"},
		{"user", `shopt -s nocaseglob; cat .ENV*`, false, printsEnv, "ask", "allow"},
		{"user", `shopt -s nullglob; grep -r SECRET *.nomatch`, false, printsEnv, "ask", "allow"},
		{"user", `shopt -s globstar; cat **/key.p?m`, false, printsPem, "ask", "allow"},
		{"user", `shopt -s globstar; cat **/notes.txt`, false, printsDeep, "ask", "allow"},
		{"default", `GLOBIGNORE=x; cat *`, false, printsEnv, "ask", "allow"},
		{"user", `set -f; cat *`, false, printsStar, "ask", "allow"},
		// Aliases, functions, files sourced, hashed commands.
		{"user", "shopt -s expand_aliases\nalias ls='cat .env'\nls", false, printsEnv, "ask", "allow"},
		{"user", "set -o posix\nalias ls='cat .env'\nls", false, printsEnv, "ask", "allow"},
		{"open", `f() { cat .ssh/id_rsa; }; cd ..; f`, false, printsKey, "ask", "allow"},
		{"user", `source ./rc.sh; ls`, false, printsEnv, "ask", "allow"},
		{"open", `hash -p ./tool.sh ls; ls`, false, printsEnv, "ask", "allow"},
		{"default", `BASH_CMDS[ls]=./tool.sh; ls`, false, printsEnv, "ask", "allow"},
		{"user", `PS4='$(cat .env)'; set -x; ls`, false, printsEnv, "ask", "allow"},
		// Variables that move the home, the working directory, the
		// configuration programs read.
		{"default", `HOME=.ssh; cat ~/id_rsa`, true, printsKey, "ask", "allow"},
		{"default", `PWD=.ssh; cat $PWD/id_rsa`, true, printsKey, "ask", "allow"},
		{"user", `printf -v HOME %s%s . ssh; cat ~/id_rsa`, true, printsKey, "ask", "allow"},
		{"user", `read HOME <<< .ssh; cat ~/id_rsa`, true, printsKey, "ask", "allow"},
		{"open", `for HOME in .ssh; do cat ~/id_rsa; done`, true, printsKey, "ask", "allow"},
		{"default", `HOME=. git status`, false, runsTouch, "ask", "allow"},
		{"default", `XDG_CONFIG_HOME=. git status`, false, runsTouch, "ask", "allow"},
		// Directories changed by pushd and popd (the spec follows cd only).
		{"user", `pushd .. >/dev/null && cat .ssh/id_rsa`, false, printsKey, "ask", "allow"},
		{"user", `pushd .. >/dev/null; pushd repo >/dev/null; popd >/dev/null; cat .ssh/id_rsa`, false, printsKey, "ask", "allow"},
		// Expansions that evaluate a stored string.
		{"user", `x='a[$(touch pwned)]'; echo $((x))`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; echo $(($x))`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; echo ${!x}`, false, runsTouch, "ask", "allow"},
		{"user", `x='$(touch pwned)'; echo ${x@P}`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; echo ${a[x]}`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; echo ${PATH:x:1}`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; y=$((x)); echo done`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; test -v "$x"`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; printf -v "$x" 1`, false, runsTouch, "ask", "allow"},
		{"user", `x='a[$(touch pwned)]'; read "$x" <<< 1`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; ((x))`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; let y=x`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; [[ $x -eq 1 ]]`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; declare -i n=x`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; declare -i n; n=$x`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; for ((i=x; i<0; i++)); do :; done`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; a[x]=1`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; a=(1); unset 'a[x]'`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; declare -n r=$x; echo $r`, false, runsTouch, "ask", "allow"},
		{"open", `x='$(touch pwned)'; declare -a "b=($x)"`, false, runsTouch, "ask", "allow"},
		{"open", `x='a[$(touch pwned)]'; for f in 1; do echo $((f + x)); done`, false, runsTouch, "ask", "allow"},
		// Not widened: what bash reads here is what regate gates.
		{"default", `cat *`, false, shellProof{}, "allow", "allow"},
		{"default", `cat '*'`, false, shellProof{}, "allow", "allow"},
		{"default", `ls -la`, false, shellProof{}, "allow", "allow"},
		{"default", `git status`, false, shellProof{}, "allow", "allow"},
		// sub/deeper holds key.pem: a recursive read of sub asks
		// (docs/strict.md, "Recursive reads").
		{"default", `grep -rn readme sub`, false, shellProof{}, "ask", "allow"},
		{"default", `cat README.md`, false, shellProof{}, "allow", "allow"},
		{"user", `set -euo pipefail; ls`, false, shellProof{}, "allow", "allow"},
		{"user", `[ -f README.md ] && cat README.md`, false, shellProof{}, "allow", "allow"},
		{"user", `i=2; echo $((i + 1)) ${#PATH} $#`, false, shellProof{}, "allow", "allow"},
		{"user", `x=HOME; echo ${!x}`, false, shellProof{}, "allow", "allow"},
		{"open", `for ((i = 0; i < 3; i++)); do echo $i; done`, false, shellProof{}, "allow", "allow"},
		{"open", `f() { ls; }; f`, false, shellProof{}, "ask", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if strings.Contains(c.cmd, "git ") && gitErr != nil {
				t.Skip("no git")
			}
			if bash != "" && c.shellProof.ok != nil {
				dir := filepath.Join(writeShellFixture(t), "repo")
				if c.inHome {
					dir = filepath.Dir(dir)
				}
				if strings.Contains(c.cmd, "git ") {
					gitInit := exec.Command("git", "init", "-q", ".")
					gitInit.Dir = filepath.Join(filepath.Dir(dir), "repo")
					if out, err := gitInit.CombinedOutput(); err != nil {
						t.Fatalf("git init: %v\n%s", err, out)
					}
				}
				out := runShell(t, bash, dir, c.cmd)
				if !c.shellProof.ok(dir, out) {
					t.Fatalf("bash -c %q does not do what the row says (%s): %s", c.cmd, c.shellProof.does, out)
				}
			}
			key := c.policy + "@repo"
			cwd := "/home/u/repo"
			if c.inHome {
				key, cwd = c.policy+"@home", "/home/u"
			}
			e, ok := engines[key]
			if !ok {
				e = shellEngines(t, c.policy, cwd)
				engines[key] = e
			}
			e.check(t, c.cmd, c.want, c.plain)
		})
	}
}

// runShell runs cmd in real bash, without start-up files, at dir, with
// the scratch home as HOME, and returns what it printed.
func runShell(t *testing.T, bash, dir, cmd string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	run := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = dir
	home := dir
	if filepath.Base(dir) == "repo" {
		home = filepath.Dir(dir)
	}
	run.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	out, _ := run.CombinedOutput()
	return string(out)
}
