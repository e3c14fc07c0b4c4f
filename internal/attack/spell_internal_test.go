package attack

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestSpellingsNameTheTarget: every path spelling the generator writes is
// one bash really reads as the target: `cat WORD` (after the spelling's
// statements) prints the target's content, from the project and from its
// src folder, for every target it applies to. A spelling that missed would
// make the attack family weaker than it looks. The default policy's
// decision of each is logged (REGATE_ATTACK_VERBOSE=1), for sorting
// disagreements into classes.
func TestSpellingsNameTheTarget(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is absent")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is absent")
	}
	fix, err := NewFixture(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	judge, err := NewJudge(fix)
	if err != nil {
		t.Fatal(err)
	}
	verbose := os.Getenv("REGATE_ATTACK_VERBOSE") != ""
	for _, tg := range targets {
		abs := path.Join(fix.Home, tg.rel)
		want, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		for _, cwd := range []string{fix.Project, path.Join(fix.Project, "src")} {
			for _, s := range spellers {
				g := &gen{r: rand.New(rand.NewPCG(1, 2)), l: Layout{Home: fix.Home, Project: fix.Project}, cwd: cwd}
				word, ok := s.spell(g, abs)
				if !ok {
					continue
				}
				cmd := strings.Join(g.pre, "") + "cat " + word
				if cwd != fix.Project {
					cmd = "cd src && " + cmd
				}
				run := exec.Command("bash", "--norc", "--noprofile", "-c", cmd)
				run.Dir, run.Env = fix.Project, fix.Env()
				out, _ := run.CombinedOutput()
				if !strings.Contains(string(out), string(want)) {
					t.Errorf("%s: bash -c %q does not print %s: %s", s.name, cmd, tg.rel, out)
				}
				if verbose {
					d, err := judge.Decide(context.Background(), fix.Project, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
					t.Logf("%-8s %-22s %-18s %s (%v)", d.Action, s.name, tg.rel, judge.Redact(cmd), err)
				}
			}
		}
	}
}
