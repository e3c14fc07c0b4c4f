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

// TestProgramsPrintingTheEnvironment: jq's $ENV and env, and awk's
// ENVIRON read other than by a name, print every variable as a bare
// printenv does (allowed by jq * and awk * before the sixth stop of
// 2026-12-07); one variable read by its name stays allowed, as printenv
// NAME is. gawk's indirect call @f() can name system(), and a program
// that sets ARGV reads files no operand names. Each row whose
// program is installed runs in real bash first, with a token in its
// environment, and must print it exactly when the row says so.
func TestProgramsPrintingTheEnvironment(t *testing.T) {
	cwd := t.TempDir()
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(facts.OSFS{}), runtime.WithCwd(cwd))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(facts.OSFS{}), runtime.WithCwd(cwd))
	for _, c := range []struct {
		cmd         string
		printsToken bool
		want        string // under both policies
	}{
		{`jq -n env`, true, "ask"},
		{`jq -n '$ENV'`, true, "ask"},
		{`jq -n '$ENV | to_entries[] | "\(.key)=\(.value)"'`, true, "ask"},
		{`jq -n '"\(env)"'`, true, "ask"},
		{`jq -n '"x" | env'`, true, "ask"},
		{`jq -nr '"\("a") \(1)" as $x | [env] | .[0].REGATE_PROBE_TOKEN'`, true, "ask"},
		{`jq -n '# env` + "\n" + `env'`, true, "ask"},
		{`jq -n 'env.HOME'`, false, "allow"},
		{`jq -n '$ENV.PATH'`, false, "allow"},
		{`jq -n 'env["HOME"]'`, false, "allow"},
		{`jq -n '"env" | {env: .}'`, false, "ask"}, // a key named env: read as the builtin, errs on asking
		{`jq -n '"env \(1)"'`, false, "allow"},
		{`jq -n '{a: 1} | .env'`, false, "allow"},
		{`echo env > p.jq && jq -n -f p.jq`, true, "ask"},
		{`awk 'BEGIN { for (k in ENVIRON) print k "=" ENVIRON[k] }'`, true, "ask"},
		{`awk 'BEGIN { print ENVIRON["HOME"] }'`, false, "allow"},
		{`gawk 'BEGIN { f = "sys" "tem"; @f("echo REGATE_PROBE_TOKEN=$REGATE_PROBE_TOKEN") }'`, true, "ask"},
		// ARGV names the files awk reads: a program can add one.
		{`echo REGATE_PROBE_TOKEN=$REGATE_PROBE_TOKEN > t.txt && awk 'BEGIN { ARGV[1] = "t.txt"; ARGC = 2 } { print }'`, true, "ask"},
		{`echo REGATE_PROBE_TOKEN=$REGATE_PROBE_TOKEN > t.txt && awk 'BEGIN { ARGV[ARGC++] = "t.txt" } 1'`, true, "ask"},
	} {
		prog := strings.Fields(c.cmd)[0]
		if path, err := exec.LookPath(prog); err == nil {
			run := exec.Command("bash", "--norc", "-c", c.cmd)
			run.Dir, run.Env = cwd, append(os.Environ(), "REGATE_PROBE_TOKEN=s3cret")
			out, _ := run.CombinedOutput()
			if printed := strings.Contains(string(out), "s3cret"); printed != c.printsToken {
				t.Errorf("%s (%s): printed the token %v, the row says %v\n%s", c.cmd, path, printed, c.printsToken, out)
			}
		}
		decideUnderBoth(t, developer, def, []policyRow{{c.cmd, c.want, c.want}})
	}
}
