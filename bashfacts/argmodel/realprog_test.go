package argmodel_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// realCases tie a model's reading to what the real program does: each
// command runs in a scratch folder holding F ("a\nx line\n"), G, D/ and
// D/sub.txt, and the row's claim about the run must hold; then the model
// must read the words as the row says ("" for a command it does not
// understand, which the program rejects too or which regate asks for).
var realCases = []struct {
	cmd   []string
	claim string
	holds func(dir, out string, failed bool) bool
	roles string
}{
	{[]string{"grep", "--regex=x", "F"}, "--regex is --regexp: F is read", printed("x line"), "pattern read"},
	{[]string{"grep", "--exp=x", "F"}, "--exp is no option of grep", rejects, ""},
	{[]string{"grep", "--ex=x", "F"}, "--ex is ambiguous", rejects, ""},
	{[]string{"grep", "", "F"}, "the empty word is the pattern: F is read", printed("x line"), "pattern read"},
	{[]string{"grep", "-d", "rec", "sub", "D"}, "-d rec is -d recurse: D is read recursively", printed("D/sub.txt"), "- value pattern tree"},
	{[]string{"grep", "x", "F", "-c"}, "options after operands (GNU permutation)", printed("1"), "pattern read -"},
	{[]string{"grep", "-hA1", "a", "F"}, "-A takes the rest of the bundle", printed("x line"), "value pattern read"},
	{[]string{"grep", "-e", "x", "--", "-f"}, "-- ends options: -f is a file", rejects, "- pattern - read"},
	{[]string{"sed", "-ie.", "s/a/b/", "F"}, "-i takes e. as its suffix: F is edited, Fe. is its backup", wrote("Fe."), "value code edit"},
	{[]string{"sed", "-ie.", "F"}, "F is the script (sed's F command): no input file", rejects, "value code"},
	{[]string{"sed", "-n", "--exp=p", "F"}, "--exp is --expression: F is read", printed("x line"), "- code read"},
	{[]string{"sed", "--in-place=.bak", "s/a/b/", "G"}, "--in-place takes its suffix after =", wrote("G.bak"), "value code edit"},
	{[]string{"head", "-1", "F"}, "-1 first is -n 1", printed("a"), "value read"},
	{[]string{"head", "F", "-1"}, "-NUM is read only first", rejects, ""},
	{[]string{"tail", "+2", "F"}, "+2 first is -n +2", printed("x line"), "value read"},
	{[]string{"awk", "{print}", "-v", "F"}, "options end at the program: -v is a file", rejects, "code read read"},
	{[]string{"awk", "{print}", "x=1", "F"}, "NAME=value is an assignment, not a file", printed("x line"), "code value read"},
	{[]string{"tee", "-a", "G"}, "tee -a appends to G", wrote("G"), "- edit"},
	{[]string{"cp", "-t", "D", "F"}, "-t names the folder written", wrote("D/F"), "- write read"},
	{[]string{"cp", "F", "H"}, "the last operand is written", wrote("H"), "read write"},
	{[]string{"uniq", "F", "O", "-c"}, "uniq's second operand is written (options may follow)", wrote("O"), "read write -"},
	{[]string{"sort", "-o", "O", "F"}, "-o names the file written", wrote("O"), "- write read"},
	{[]string{"sort", "--out=O", "F"}, "--out is --output", wrote("O"), "write read"},
	{[]string{"ls", "--hide=F", "-I", "G"}, "--hide and -I take patterns, not files", func(_, out string, _ bool) bool { return !strings.Contains(out, "F") && strings.Contains(out, "D") }, "pattern - pattern"},
	{[]string{"printf", "%s\n", "-x"}, "printf's options end at the format", printed("-x"), "string string"},
	{[]string{"cut", "-d", " ", "-f1", "F"}, "-d takes the next word", printed("x"), "- value value read"},
	{[]string{"diff", "-ru", "D", "D"}, "-r compares folders", func(_, _ string, failed bool) bool { return !failed }, "- tree tree"},
	{[]string{"wc", "--li", "F"}, "--li is --lines", printed("2 F"), "- read"},
}

func printed(s string) func(string, string, bool) bool {
	return func(_, out string, failed bool) bool { return strings.Contains(out, s) }
}

func rejects(_, _ string, failed bool) bool { return failed }

func wrote(name string) func(string, string, bool) bool {
	return func(dir, _ string, _ bool) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
}

func TestModelsAgainstRealPrograms(t *testing.T) {
	for _, c := range realCases {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) {
			if bin, err := exec.LookPath(c.cmd[0]); err == nil {
				dir := t.TempDir()
				for name, body := range map[string]string{"F": "a\nx line\n", "G": "a\n", "D/sub.txt": "sub\n"} {
					p := filepath.Join(dir, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				run := exec.Command(bin, c.cmd[1:]...)
				run.Dir, run.Stdin = dir, strings.NewReader("")
				run.Env = append(slicesWithout(os.Environ(), "POSIXLY_CORRECT="), "LC_ALL=C")
				out, err := run.CombinedOutput()
				if !c.holds(dir, string(out), err != nil) {
					t.Fatalf("%q does not do what the row says (%s): %v\n%s", c.cmd, c.claim, err, out)
				}
			}
			args := make([]argmodel.Arg, len(c.cmd)-1)
			for i, w := range c.cmd[1:] {
				args[i] = argmodel.Arg{Text: w}
			}
			r := argmodel.Parse(c.cmd[0], args)
			if c.roles == "" {
				if r.Problem == "" {
					t.Errorf("the model understands %q; the row says it is not understood", c.cmd)
				}
				return
			}
			if r.Problem != "" {
				t.Fatalf("not understood: %s", r.Problem)
			}
			got := make([]string, len(r.Words))
			for i, w := range r.Words {
				got[i] = w.Role
				if w.Role == argmodel.Option {
					got[i] = "-"
				}
			}
			if g := strings.Join(got, " "); g != c.roles {
				t.Errorf("roles %q; want %q", g, c.roles)
			}
		})
	}
}

// slicesWithout drops the environment entries that start with prefix: the
// rows describe GNU programs without POSIXLY_CORRECT.
func slicesWithout(env []string, prefix string) []string {
	out := env[:0]
	for _, e := range env {
		if !strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	return out
}
