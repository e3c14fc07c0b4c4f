package argmodel_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// TestRuns holds where a program's commands are found: From and To, a
// command line (L), a string the program splits (S), a command in the
// option's own word (A), the option.
// A wrapper whose options are not understood still runs its likely
// command, so that a rule denying that command meets it.
func TestRuns(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		dyn  string // a word given as an expansion that may begin with "-"
		want string
	}{
		{"timeout 5 rm -rf x", "", "[1,4)"},
		{"find . -exec rm {} ; -execdir cat {} +", "", "[2,4)-exec [6,8)-execdir"},
		{"find . -exec", "", ""},
		{"fd x -Hxrm -f", "", "[1,3)A-x"},
		{"fd x --exec=rm -f", "", "[1,3)A--exec"},
		{"env -S rm x", "", "[1,3)S-S"},
		{"env A=1 rm", "", "[1,2)"},
		{"flock F -c rm", "", "[2,3)L-c"},
		{"watch -n1 ls", "", "[1,2)L"},
		{"xargs", "", ""},
		{"sudo -l rm", "", ""},
		{"parallel -j2 rm {} ::: a b :::: F", "", "[1,3)L"},
		{"parallel -q rm {} ::: a", "", "[1,3)"},
		{"parallel ::: rm ls", "", "[1,2)L [2,3)L"},
		{"rush rm -k x", "", "[0 2]L"},
		{"parallel -e rm x ::: a", "", "[2,3)L"},
		// Not understood: the words after the options and the operands
		// before the command.
		{"timeout -Z 5 rm x", "", "[2,4)"},
		{"timeout T rm x", "T", "[1,3)"},
		{"xargs -Q -n 1 rm", "", "[3,4)"},
		{"env -Q A=1 rm", "", "[2,3)"},
		{"timeout -Q -- 5 -rm", "", "[3,4)"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			words := strings.Fields(c.cmd)
			args := make([]argmodel.Arg, len(words)-1)
			for i, w := range words[1:] {
				args[i] = argmodel.Arg{Text: w, Dynamic: w == c.dyn, OpenStart: w == c.dyn}
			}
			r := argmodel.Parse(words[0], args)
			var got []string
			for _, run := range r.Runs(args) {
				s := fmt.Sprintf("[%d,%d)", run.Args[0], run.Args[len(run.Args)-1]+1)
				if len(run.Args) != run.Args[len(run.Args)-1]+1-run.Args[0] {
					s = fmt.Sprint(run.Args)
				}
				if run.Line {
					s += "L"
				}
				if run.Split {
					s += "S"
				}
				if run.Attached {
					s += "A"
				}
				got = append(got, s+run.Flag)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("runs %q; want %q (problem %q)", g, c.want, r.Problem)
			}
			if wrapper := c.cmd != "find . -name x"; !r.Wrapper && wrapper {
				t.Errorf("not read as a wrapper")
			}
		})
	}
}
