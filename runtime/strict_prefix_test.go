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
)

// TestStrictApprovalNamesThePrefix: a session approval of a command that
// strict mode floors for its own environment prefix records the command
// with that prefix (issue 19, point 10), so approving PAGER=most git log
// does not approve PAGER='sh -c …' git log, which runs the pager's
// command. (PAGER=cat is inert, bashfacts/envtable.go: git log under it
// is the policy's allow without an approval.) The approval is given the way the hosts give it: the decision's
// value as an exact pattern on its surface. Real bash and git first show
// that the second prefix runs a command under git log.
func TestStrictApprovalNamesThePrefix(t *testing.T) {
	if _, err := exec.LookPath("git"); err == nil {
		proveThePagerRuns(t)
	}
	ctx := context.Background()
	{
		engines := newDefaultEngines(t, facts.MapFS{"/home/u/repo/README": "file"})
		e := engines.strict
		decide := func(cmd string) (string, string) {
			d, err := e.Decide(ctx, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
			if err != nil {
				t.Fatal(err)
			}
			return string(d.Action), d.Value
		}
		if action, _ := decide("PAGER=cat git log"); action != "allow" {
			t.Errorf("PAGER=cat git log: %s; want allow (an inert pager)", action)
		}
		action, value := decide("PAGER=most git log")
		if action != "ask" || value != "PAGER=most git log" {
			t.Fatalf("PAGER=most git log: %s with value %q; want ask with the prefix in the value", action, value)
		}
		if err := e.Session().Approve(compiler.Approval{Surface: "bash", Pattern: value}); err != nil {
			t.Fatal(err)
		}
		for cmd, want := range map[string]string{
			"PAGER=most git log":                "allow", // what the person approved
			"PAGER='sh -c \"touch x\"' git log": "ask",   // another prefix: asked again
			"git log":                           "allow", // no prefix: the policy's allow
		} {
			if got, _ := decide(cmd); got != want {
				t.Errorf("after approving %q, %s: %s; want %s", value, cmd, got, want)
			}
		}
	}
}

// proveThePagerRuns runs git log with a PAGER that touches a file, in a
// scratch repository: git pages only to a terminal, which script(1) gives
// it (skipped where script is absent).
func proveThePagerRuns(t *testing.T) {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Log("script(1) is absent: the pager's run is not proven here")
		return
	}
	dir := t.TempDir()
	setup := "git init -q && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m one"
	if out, err := exec.Command("bash", "-c", "cd "+dir+" && "+setup).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", setup, err, out)
	}
	cmd := `PAGER='sh -c "touch pwned"' git log`
	run := exec.Command(script, "-qec", cmd, "/dev/null")
	run.Dir = dir
	run.Env = append(os.Environ(), "HOME="+dir)
	if out, err := run.CombinedOutput(); err != nil && !strings.Contains(string(out), "pwned") {
		t.Logf("%s: %v\n%s", cmd, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err != nil {
		t.Fatalf("%s did not run the pager's command: %v", cmd, err)
	}
}
