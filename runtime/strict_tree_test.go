package runtime_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/matchkey"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestStrictTreeReads: under the bundled default policy (strict on), the
// paths a recursive read of a folder reaches (facts' tree checks: one
// strict-only check whose forms are the paths found, Within the folder)
// make the call ask when a rule denies one of them, and leave it allowed
// otherwise; without strict mode the spec's decision stands. Until the
// argument models mark a folder operand as a tree, the row's within check
// is built here as facts/tree.go builds it (TestTreeChecks holds the walk
// to the same paths). Each row is first run in the real program (grep in
// bash; rg where it is installed) in a scratch project and home, to prove
// what it reads.
func TestStrictTreeReads(t *testing.T) {
	engines := newDefaultEngines(t, facts.MapFS{
		"/home/u/repo/.env": "file", "/home/u/repo/src/a.go": "file", "/home/u/.ssh/id_rsa": "file",
	})
	repo := func(rels ...string) [][]string {
		var out [][]string
		for _, r := range rels {
			out = append(out, []string{r, "/home/u/repo/" + r})
		}
		return out
	}
	project := repo(".env", "src", "src/a.go")
	visible := repo("src", "src/a.go")
	home := [][]string{{"/home/u/.ssh"}, {"/home/u/repo"}, {"/home/u/.ssh/id_rsa"}, {"/home/u/repo/.env"}, {"/home/u/repo/src"}, {"/home/u/repo/src/a.go"}}

	for _, c := range []struct {
		cmd, program string
		folder       string
		reached      [][]string
		prints       string // what the real program's output holds ("" for no match)
		want         string
		matched      string
	}{
		{"grep -r SECRET .", "grep", ".", project, ".env:SECRET", "ask", "*.env"},
		{"grep -r TODO src", "grep", "src", repo("src/a.go"), "", "allow", "grep *"},
		{"rg SECRET", "rg", ".", visible, "", "allow", "rg *"},
		{"rg --hidden SECRET", "rg", ".", project, ".env:SECRET", "ask", "*.env"},
		{"grep -r PRIVATE ~", "grep", "~", home, "id_rsa:PRIVATE", "ask", "~/.ssh/*"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			proveTreeRead(t, c.program, c.cmd, c.prints)
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			// The walk's check as facts lists it (with the candidate keys
			// of its groups: one lookup each) and as a document written by
			// hand (the Rego computes them).
			keyed := facts.Check{Surface: "path", Value: c.folder, Forms: c.reached, StrictOnly: true, Within: c.folder}
			for _, grp := range c.reached {
				keyed.Keys = append(keyed.Keys, matchkey.AppendGroup(nil, matchkey.Path, grp))
			}
			unkeyed := keyed
			unkeyed.Keys = nil
			for i, run := range []struct {
				eng    *runtime.Engine
				within facts.Check
			}{{engines.strict, keyed}, {engines.strict, unkeyed}, {engines.plain, keyed}} {
				eng := run.eng
				in := eng.Facts(call)
				in.Checks = append(in.Checks, run.within)
				d, err := eng.DecideFacts(context.Background(), in)
				want, matched := c.want, c.matched
				if eng == engines.plain {
					want, matched = "allow", d.Matched // without strict mode
				}
				if err != nil || string(d.Action) != want || d.Matched != matched {
					t.Errorf("engine %d: %s (%s, %v); want %s (%s)", i, d.Action, d.Matched, err, want, matched)
				}
				if want == "ask" && (d.Value != c.folder || !strings.Contains(d.Reason, "reading the folder "+c.folder)) {
					t.Errorf("engine %d: value %q, reason %q; want the folder named", i, d.Value, d.Reason)
				}
			}
		})
	}
}

// TestStrictTreeReadYolo: yolo does not approve the ask a denied path
// inside a folder raises (yolo never lifts a deny).
func TestStrictTreeReadYolo(t *testing.T) {
	src, err := fs.ReadFile(policies.FS, "default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	policy := strings.Replace(string(src), `"strict": true,`, `"strict": true, "yoloMode": true,`, 1)
	fsys := facts.MapFS{"/home/u/repo/.env": "file"}
	for _, eng := range []*runtime.Engine{
		newEngine(t, policy, runtime.WithFS(fsys)),
	} {
		in := eng.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": "grep -r SECRET ."}})
		in.Checks = append(in.Checks, facts.Check{Surface: "path", Value: ".", StrictOnly: true, Within: ".",
			Forms: [][]string{{".env", "/home/u/repo/.env"}}})
		if d, err := eng.DecideFacts(context.Background(), in); err != nil || d.Action != "ask" || d.Yolo {
			t.Errorf("%s (yolo %v, %v); want ask", d.Action, d.Yolo, err)
		}
	}
}

// proveTreeRead runs cmd (a recursive read by program) in bash in a scratch
// project holding .env and src/a.go, with a scratch home holding
// .ssh/id_rsa, and checks what it prints. Skipped where bash or the
// program is absent.
func proveTreeRead(t *testing.T, program, cmd, prints string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		return
	}
	if _, err := exec.LookPath(program); err != nil {
		t.Logf("%s is not installed: the row's claim is not run", program)
		return
	}
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "home", "repo")
	for name, text := range map[string]string{
		filepath.Join(proj, ".env"):           "SECRET=1\n",
		filepath.Join(proj, "src", "a.go"):    "package a // TODO\n",
		filepath.Join(home, ".ssh", "id_rsa"): "PRIVATE KEY\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = proj
	run.Env = append(os.Environ(), "HOME="+home)
	out, _ := run.CombinedOutput() // grep exits 1 when nothing matches
	if prints == "" && strings.Contains(string(out), "SECRET") || prints != "" && !strings.Contains(string(out), prints) {
		t.Fatalf("%s printed %q; the row says it prints %q", cmd, out, prints)
	}
}
