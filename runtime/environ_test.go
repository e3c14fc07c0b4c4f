package runtime_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestEnvironmentReads: the bundled policies ask before a bare printenv,
// which prints every variable, tokens included; a program's own
// /proc/self/environ prints the same (it inherits the agent's
// environment), and was allowed by cat * and tr * before the fifth stop of
// 2026-12-07. Both bundled policies ask for it now, through the path rules,
// so the read tool asks too; printenv NAME and the rest of /proc/self stay
// allowed. Real bash shows the variable printed.
func TestEnvironmentReads(t *testing.T) {
	cwd := t.TempDir()
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(facts.OSFS{}), runtime.WithCwd(cwd))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(facts.OSFS{}), runtime.WithCwd(cwd))
	decideUnderBoth(t, developer, def, []policyRow{
		{"printenv", "ask", "ask"},
		{"printenv HOME", "allow", "allow"},
		{"cat /proc/self/environ", "ask", "ask"},
		{"tr '\\0' '\\n' < /proc/self/environ", "ask", "ask"},
		{"strings /proc/thread-self/environ", "ask", "ask"},
		{"cd /proc/self && cat environ", "ask", "ask"},
		{"cat /proc/self/status", "allow", "allow"},
	})
	read := facts.Call{Tool: "read", Input: map[string]any{"path": "/proc/self/environ"}}
	for name, e := range map[string]*runtime.Engine{"developer": developer, "default": def} {
		if d, err := e.Decide(context.Background(), read); err != nil || d.Action != "ask" {
			t.Errorf("%s: read /proc/self/environ: %s (%s, %v); want ask", name, d.Action, d.Matched, err)
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return
	}
	run := exec.Command(bash, "--norc", "-c", "cat /proc/self/environ")
	run.Env = append(os.Environ(), "REGATE_PROBE_TOKEN=s3cret")
	out, err := run.Output()
	if err != nil || !strings.Contains(string(out), "REGATE_PROBE_TOKEN=s3cret") {
		t.Fatalf("/proc/self/environ did not print the environment: %v\n%s", err, out)
	}
}
