package runtime_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The real-git fixtures of the strict tables: a repository built by a
// script, and a command run in it that may print the secret the fixture
// holds ("SECRET").

// gitEnv is the environment of a fixture whose folder is also its home:
// no system or user configuration, a fixed identity, no pager.
func gitEnv(dir string) []string {
	return append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
}

// gitFixture runs script in bash in a new folder and returns the folder.
func gitFixture(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	run := exec.Command("bash", "-c", script)
	run.Dir, run.Env = dir, gitEnv(dir)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return dir
}

// showsSecret runs cmd in bash in dir and reports whether its output holds
// the fixture's secret; a command that fails fails the test.
func showsSecret(t *testing.T, dir, cmd string) bool {
	t.Helper()
	run := exec.Command("bash", "-c", cmd)
	run.Dir, run.Env = dir, gitEnv(dir)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	return strings.Contains(string(out), "SECRET")
}
