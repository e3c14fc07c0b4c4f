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

// TestGitGlobalOptions: git's global options do not hide the subcommand
// from the rules. The ones that change only how git shows what it does
// (--no-pager, -P, --no-optional-locks, -c core.pager=cat and the other
// values -c's inert_values lists) leave the command what it is in
// every mode: git --no-pager push meets "git push *": deny, and git
// --no-pager log meets the default policy's "git log *": allow (both were
// decided by "git *" or "*" before). Strict mode decides the subcommand
// spelt without any global option by the rules that name it too (git
// --bare push, git --paginate push). Real git first shows that git -P and
// git --bare push do push.
func TestGitGlobalOptions(t *testing.T) {
	if _, err := exec.LookPath("git"); err == nil {
		proveGlobalPushes(t)
	}
	policy := `{"permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow", "git push *": "deny"}}}`
	engines := map[string]*runtime.Engine{
		"plain":   newEngine(t, policy),
		"strict":  newEngine(t, strings.Replace(policy, `{"permission"`, `{"strict": true, "permission"`, 1)),
		"default": newDefaultEngines(t, facts.MapFS{}).strict,
	}
	for _, c := range []struct {
		cmd                       string
		plain, strict, defaultWay string
	}{
		{"git --no-pager push origin main", "deny", "deny", "ask"},
		{"git -P push", "deny", "deny", "ask"},
		{"git --no-optional-locks --no-pager push --force", "deny", "deny", "deny"},
		{"git --no-pager log", "allow", "allow", "allow"},
		{"git -P log --oneline", "allow", "allow", "allow"},
		{"git --no-optional-locks status", "allow", "allow", "allow"},
		// -c with a value that only changes what git shows (sixth stop of
		// 2026-12-07); any other value runs or reads what regate does not see.
		{"git -c core.pager=cat log", "allow", "allow", "allow"},
		{"git -c color.ui=always -c core.quotePath=false diff", "allow", "allow", "allow"},
		{"git -c 'core.pager=less -R' -P show HEAD", "allow", "allow", "allow"},
		{"git -c core.pager=cat push", "deny", "deny", "ask"},
		{"git -c 'core.pager=sh -c id' log", "allow", "ask", "ask"},
		{"git -c core.fsmonitor=./x.sh status", "allow", "ask", "ask"},
		{"git -c core.pager=cat -c alias.l='!id' l", "allow", "ask", "ask"},
		// Not inert (it pages; --bare changes the repository's shape): the
		// base rules see them as written, strict mode sees the push.
		{"git --paginate push", "allow", "deny", "ask"},
		{"git --bare push", "allow", "deny", "ask"},
		{"git --namespace=x push", "allow", "deny", "ask"},
	} {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
		for name, want := range map[string]string{"plain": c.plain, "strict": c.strict, "default": c.defaultWay} {
			d, err := engines[name].Decide(context.Background(), call)
			if err != nil || string(d.Action) != want {
				t.Errorf("%s: %s: %s (%s, %v); want %s", name, c.cmd, d.Action, d.Matched, err, want)
			}
		}
	}
}

// proveGlobalPushes pushes to a local bare repository with git -P push and
// git --bare push (from inside the work tree's .git, where --bare is what
// git would guess anyway) and checks that the remote received the commit.
func proveGlobalPushes(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
	run := func(cwd, cmd string) string {
		c := exec.Command("bash", "-c", cmd)
		c.Dir, c.Env = cwd, env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		return string(out)
	}
	run(dir, "git init -q --bare remote.git && git init -q work")
	work := filepath.Join(dir, "work")
	run(work, "git -c user.email=a@b -c user.name=a commit -q --allow-empty -m one && git remote add origin "+filepath.Join(dir, "remote.git"))
	run(work, "git -P push -q origin HEAD:refs/heads/one")
	run(filepath.Join(work, ".git"), "git --bare push -q origin HEAD:refs/heads/two")
	if got := run(dir, "git -C remote.git branch --format='%(refname:short)'"); !strings.Contains(got, "one") || !strings.Contains(got, "two") {
		t.Fatalf("the remote's branches after git -P push and git --bare push: %q", got)
	}
}

// TestGlobalOptionsOfEveryProgram: strict mode decides a subcommand spelt
// with the global options of any program with subcommands (those its
// argument model lists before them) by the rules that name it, as it does
// git's. Before, kubectl --context=prod delete pod x was allowed by
// "kubectl *" where "kubectl delete *" denies, and docker --context x rm
// likewise. Without strict mode the specification's reading (the text as
// written) stands.
func TestGlobalOptionsOfEveryProgram(t *testing.T) {
	policy := `{"permission": {"*": "ask", "bash": {"*": "ask",
	  "kubectl *": "allow", "kubectl delete *": "deny",
	  "docker *": "allow", "docker rm *": "deny",
	  "npm *": "allow", "npm publish": "deny", "npm publish *": "deny"}}}`
	plain := newEngine(t, policy)
	strict := newEngine(t, strings.Replace(policy, `{"permission"`, `{"strict": true, "permission"`, 1))
	for _, c := range []struct{ cmd, plain, strict string }{
		{"kubectl --context=prod delete pod x", "allow", "deny"},
		{"kubectl -n prod delete pod x", "allow", "deny"},
		{"kubectl --kubeconfig ./k delete pod x", "allow", "deny"},
		{"docker --context x rm c", "allow", "deny"},
		{"docker -D rm c", "allow", "deny"},
		{"npm -s publish", "allow", "deny"},
		{"kubectl --context=prod get pods", "allow", "allow"},
		{"docker --debug ps", "allow", "allow"},
		{"kubectl delete pod x", "deny", "deny"},
	} {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
		for e, want := range map[*runtime.Engine]string{plain: c.plain, strict: c.strict} {
			d, err := e.Decide(context.Background(), call)
			if err != nil || string(d.Action) != want {
				t.Errorf("%s (strict %v): %s (%s, %v); want %s", c.cmd, e == strict, d.Action, d.Matched, err, want)
			}
		}
	}
}
