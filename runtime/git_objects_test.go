package runtime_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestGitRevisionPaths: a file named as REV:path is read from the
// repository, so strict mode gates it as a read of that path: git show,
// git cat-file and git diff of HEAD:.env are denied by the bundled default
// policy's *.env, while the same commands on other files stay allowed.
// Real git first shows that git diff A:x B:y prints x's contents.
func TestGitRevisionPaths(t *testing.T) {
	if _, err := exec.LookPath("git"); err == nil {
		proveDiffPrintsBlob(t)
	}
	e := newDefaultEngines(t, facts.MapFS{"/home/u/repo/README": "file", "/home/u/repo/.env": "file"}).strict
	for cmd, want := range map[string]string{
		"git show HEAD:.env":                 "deny",
		"git show :.env":                     "deny",
		"git diff HEAD:.env HEAD:README":     "deny",
		"git diff HEAD~1:README HEAD:.env":   "deny",
		"git diff HEAD:README HEAD~1:README": "allow",
		"git diff HEAD~1 HEAD":               "allow",
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
		if err != nil || string(d.Action) != want {
			t.Errorf("%s: %s (%s, %v); want %s", cmd, d.Action, d.Matched, err, want)
		}
	}
}

func proveDiffPrintsBlob(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	c := exec.Command("bash", "-c", `git init -q && echo SECRET=1 > .env && echo hi > README && git add -A &&
		git -c user.email=a@b -c user.name=a commit -qm one && git diff HEAD:.env HEAD:README`)
	c.Dir, c.Env = dir, append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
	out, err := c.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "SECRET") {
		t.Fatalf("git diff HEAD:.env HEAD:README: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "SECRET=1") {
		t.Fatalf("git diff HEAD:.env HEAD:README did not print .env: %s", out)
	}
}
