package bashfacts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// shellCases are shells given a command line, spelt as the shells accept
// them: + for -, option bundles whose values follow in the next words
// (bash -oc pipefail CMD), long options with one dash (bash -norc),
// values attached (zsh -oerrexit). want is what rec is run with as
// regate reads the payload ("-": no payload; the shell runs a script),
// opaque whether the unit is the specification's opaque wrapper, and
// real, when set, what the shell really runs rec with where that is not
// want (a shell that refuses its options, or -n, runs nothing: regate
// reading a payload there costs nothing).
var shellCases = []struct {
	cmd, want string
	opaque    bool
	real      string
}{
	{"bash -c 'rec a'", "a", true, ""},
	{"bash +c 'rec a'", "a", true, ""},
	{"bash -oc pipefail 'rec a'", "a", true, ""},
	{"bash -co pipefail 'rec a'", "a", true, ""},
	{"bash -o pipefail -c 'rec a'", "a", true, ""},
	{"bash -O extglob -c 'rec a'", "a", true, ""},
	{"bash +O extglob -c 'rec a'", "a", true, ""},
	{"bash -Oc extglob 'rec a'", "a", true, ""},
	{"bash --norc -c 'rec a'", "a", true, ""},
	{"bash -norc -c 'rec a'", "a", true, ""},
	{"bash --rcfile /dev/null -c 'rec a'", "a", true, ""},
	{"bash -rcfile /dev/null -c 'rec a'", "a", true, ""},
	{"bash --init-file /dev/null -c 'rec a'", "a", true, ""},
	{"bash --login --noprofile -c 'rec a'", "a", true, ""},
	{"bash -login -c 'REC/rec a'", "a", true, ""},
	{"bash --debugger -c 'rec a'", "a", true, ""},
	{"bash -ec 'rec a' zero b", "a", true, ""},
	{"bash -xc 'rec a'", "a", true, ""},
	{"bash -c -x 'rec a'", "a", true, ""},
	{"bash -l -c 'REC/rec a'", "a", true, ""},
	{"bash -p -c 'rec a'", "a", true, ""},
	{"bash -cs 'rec a'", "a", true, ""},
	{"bash -n -c 'rec a'", "a", true, "-"},
	{"bash -D -c 'rec a'", "a", true, "-"},
	{"bash F -c 'rec a'", "-", false, ""},
	{"bash -- F -c 'rec a'", "-", false, ""},
	{"bash - F -c 'rec a'", "-", false, ""},
	{"bash -x -- -c 'rec a'", "-", false, ""},
	{"bash -e F", "-", false, ""},
	{"bash -y -c 'rec a'", "-", true, ""},
	{"sh -c 'rec a'", "a", true, ""},
	{"sh +c 'rec a'", "a", true, ""},
	{"sh -oc errexit 'rec a'", "a", true, ""},
	{"sh -eo errexit -c 'rec a'", "a", true, ""},
	{"sh +o errexit -c 'rec a'", "a", true, ""},
	{"sh F", "-", false, ""},
	{"dash -Ic 'rec a'", "a", true, ""},
	{"dash -V -c 'rec a'", "a", true, ""},
	{"dash -l -c 'REC/rec a'", "a", true, ""},
	{"zsh -c 'rec a'", "a", true, ""},
	{"zsh +c 'rec a'", "a", true, ""},
	{"zsh -fc 'rec a'", "a", true, ""},
	{"zsh -co errexit 'rec a'", "a", true, ""},
	{"zsh -o errexit -c 'rec a'", "a", true, ""},
	{"zsh -oerrexit -c 'rec a'", "a", true, ""},
	{"zsh -oc errexit 'rec a'", "-", false, ""},
	{"zsh --norcs -c 'rec a'", "a", true, ""},
	{"zsh --no-rcs -c 'rec a'", "a", true, ""},
	{"zsh --NO_RCS -c 'rec a'", "a", true, ""},
	{"zsh --emulate sh -c 'rec a'", "a", true, ""},
	{"zsh -b -c 'rec a'", "-", false, ""},
	{"zsh F -c 'rec a'", "-", false, ""},
	{"ksh -c 'rec a'", "a", true, ""},
	{"ksh -ec 'rec a'", "a", true, ""},
	{"ksh -o errexit -c 'rec a'", "a", true, ""},
	{"ksh -oerrexit -c 'rec a'", "a", true, ""},
	{"ksh --norc -c 'rec a'", "a", true, ""},
	{"ksh --posix -c 'rec a'", "a", true, ""},
	{"ksh --errexit -c 'rec a'", "a", true, ""},
	{"ksh F -c 'rec a'", "-", false, ""},
	// Not the specification's opaque wrappers: strict mode reads what
	// they run.
	{"mksh -c 'rec a'", "a", false, ""},
	{"mksh -o errexit -c 'rec a'", "a", false, ""},
	{"mksh -ec 'rec a'", "a", false, ""},
	{"mksh +c 'rec a'", "-", false, ""},
	{"fish -c 'rec a'", "a", false, ""},
	{"fish --command 'rec a'", "a", false, ""},
	{"fish --command='rec a'", "a", false, ""},
	{"fish -Nc 'rec a'", "a", false, ""},
	{"fish -C 'rec a' -c true", "a", false, ""},
	{"fish F", "-", false, ""},
}

// TestShellsRunWhatTheShellRuns runs each shell, where it is installed,
// with rec recording the words it is run with, and requires regate to
// read the payload the shell runs: a -c regate missed would leave a
// command a deny rule names to the opaque wrapper's ask, which yolo
// mode approves, and a bash the rules allow would run it unasked.
func TestShellsRunWhatTheShellRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	out := writeRec(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "F"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range shellCases {
		cmd := strings.ReplaceAll(c.cmd, "REC/", dir+"/") // a login shell sets PATH anew
		t.Run(c.cmd, func(t *testing.T) {
			if got := recRun(t, cmd); got != c.want {
				t.Errorf("regate reads rec's words as %q; the row says %q", got, c.want)
			}
			f, err := bashfacts.Extract(cmd)
			if err != nil {
				t.Fatal(err)
			}
			if opaque := f.Units[0].Wrapper == bashfacts.Opaque; opaque != c.opaque {
				t.Errorf("the unit is the opaque wrapper: %v; the row says %v", opaque, c.opaque)
			}
			shell := strings.Fields(c.cmd)[0]
			if _, err := exec.LookPath(shell); err != nil {
				return // the reading is checked; the shell is not here to run
			}
			os.Remove(out)
			run := exec.Command(bash, "-c", cmd)
			run.Dir, run.Stdin = dir, strings.NewReader("")
			run.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "HOME="+dir)
			msg, _ := run.CombinedOutput()
			real := recorded(out, 0)
			want := c.want
			if c.real != "" {
				want = c.real
			}
			if real != want {
				t.Errorf("%s ran rec with %q; the row says %q\n%s", shell, real, want, msg)
			}
		})
	}
}
