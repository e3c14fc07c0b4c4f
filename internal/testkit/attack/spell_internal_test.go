package attack

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestSpellingsNameTheTarget: every path spelling the generator writes is
// one bash really reads as the target: `cat WORD` (after the spelling's
// statements) prints the target's content, and `ls WORD` of the folder
// ~/.ssh lists its key, from the project and from its src folder, for
// every target it applies to. A spelling that missed would
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
	type aim struct {
		abs, program, want string // want: what the program prints of it
	}
	var aims []aim
	for _, tg := range targets {
		abs := path.Join(fix.Home, tg.rel)
		content, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		aims = append(aims, aim{abs, "cat", string(content)})
	}
	// A folder, listed: ~/.ssh, as the ls forms spell {D}.
	aims = append(aims, aim{path.Join(fix.Home, ".ssh"), "ls", "id_rsa"})
	for _, a := range aims {
		abs, want := a.abs, a.want
		rel, _ := filepath.Rel(fix.Home, abs)
		for _, cwd := range []string{fix.Project, path.Join(fix.Project, "src")} {
			for _, s := range spellers {
				g := &gen{r: rand.New(rand.NewPCG(1, 2)), l: Layout{Home: fix.Home, Project: fix.Project}, cwd: cwd}
				word, ok := s.spell(g, abs)
				if !ok {
					continue
				}
				cmd := strings.Join(g.pre, "") + a.program + " " + word
				if cwd != fix.Project {
					cmd = "cd src && " + cmd
				}
				run := exec.Command("bash", "--norc", "--noprofile", "-c", cmd)
				run.Dir, run.Env = fix.Project, fix.Env()
				out, _ := run.CombinedOutput()
				if !strings.Contains(string(out), want) {
					t.Errorf("%s: bash -c %q does not print %s: %s", s.name, cmd, rel, out)
				}
				if verbose {
					d, err := judge.Decide(context.Background(), fix.Project, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
					t.Logf("%-8s %-22s %-18s %s (%v)", d.Action, s.name, rel, judge.Redact(cmd), err)
				}
			}
		}
	}
}
