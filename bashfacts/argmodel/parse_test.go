package argmodel_test

import (
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// parseCases: a command's words (literal unless marked), the role of each
// argument as the model reads it ("-" for an option word, "" where the
// parse stopped), and the problem's start ("" when understood). Marks:
// a word "$x" is an expansion that opens the word, "@x" a literal word
// with an unquoted glob.
type parseCase struct {
	cmd     []string
	roles   string
	problem string
}

var parseCases = []parseCase{
	// grep: the first operand is the pattern unless -e or -f gives it.
	{[]string{"grep", "x", ".env"}, "pattern read", ""},
	{[]string{"grep", "", ".env"}, "pattern read", ""},
	{[]string{"grep", "-e", "x", ".env"}, "- pattern read", ""},
	{[]string{"grep", "--regex=x", ".env"}, "pattern read", ""},
	{[]string{"grep", "--regexp", "x", ".env"}, "- pattern read", ""},
	{[]string{"grep", "-f", "pats", "a"}, "- read read", ""},
	{[]string{"grep", "-rn", "X", ".", "--exclude=.env"}, "- pattern tree pattern", ""},
	{[]string{"grep", "-rnA3", "X"}, "value pattern", ""},
	{[]string{"grep", "-d", "rec", "X", "src"}, "- value pattern tree", ""},
	{[]string{"grep", "-5", "x", "f"}, "- pattern read", ""},
	{[]string{"grep", "--", "-v", "f"}, "- pattern read", ""},
	{[]string{"grep", "x", "f", "-c"}, "pattern read -", ""},
	{[]string{"grep", "--exp=x", ".env"}, "", "grep: the option --exp is not"},
	{[]string{"grep", "--ex=x", ".env"}, "", "grep: --ex is an ambiguous abbreviation"},
	{[]string{"grep", "--frob", "x"}, "", "grep: the option --frob is not"},
	{[]string{"grep", "-e"}, "", "grep: the option -e needs a value"},
	{[]string{"grep", "--count=3", "x"}, "", "grep: the option --count takes no value"},
	{[]string{"grep", "$p", "f"}, "", "grep: $p is an expansion where grep reads options"},
	{[]string{"grep", "--", "$p", "f"}, "- pattern read", ""},
	{[]string{"grep", "@foo*", "f"}, "", "grep: bash expands the glob foo*"},
	{[]string{"grep", "-d", "frob", "x"}, "", "grep: frob is not a value of -d"},
	// sed: -i takes an optional attached suffix; the script is code.
	{[]string{"sed", "-n", "p", ".env"}, "- code read", ""},
	{[]string{"sed", "-ie.", "s/a/b/", "F"}, "value code edit", ""},
	{[]string{"sed", "-i", "s/a/b/", "F"}, "- code edit", ""},
	{[]string{"sed", "--in-place=.bak", "-e", "s/a/b/", "F"}, "value - code edit", ""},
	{[]string{"sed", "--exp=p", "F"}, "code read", ""},
	{[]string{"sed", "-ie.", "F"}, "value code", ""},
	// awk: options end at the program; NAME=value operands are not files.
	{[]string{"awk", "-F:", "{print $1}", "x=1", "/etc/passwd"}, "value code value read", ""},
	{[]string{"awk", "{print}", "-v", "f"}, "code read read", ""},
	{[]string{"awk", "-f", "p.awk", "data"}, "- read read", "awk -f runs a program regate cannot see"},
	{[]string{"sed", "-l", "5", "1r x", "F"}, "- value code read", ""},
	{[]string{"sed", "--fil=s.sed", "F"}, "read read", "sed -f runs a script regate cannot see"},
	// head, tail: -NUM first; tail +NUM.
	{[]string{"head", "-5", "f"}, "value read", ""},
	{[]string{"head", "-n1", ".env"}, "value read", ""},
	{[]string{"tail", "+2", "f"}, "value read", ""},
	{[]string{"tail", "-f", "log"}, "- read", ""},
	{[]string{"head", "f", "-5"}, "", "head: the option -5 (in -5) is not"},
	// writes: tee, cp, mv, install, sort -o, uniq's output.
	{[]string{"tee", "pnpm.lock"}, "write", ""},
	{[]string{"tee", "-a", "log"}, "- edit", ""},
	{[]string{"cp", "README", "x.lock"}, "read write", ""},
	{[]string{"cp", "-r", "src", "dst"}, "- tree write", ""},
	{[]string{"cp", "-t", "dir", "a", "b"}, "- write read read", ""},
	{[]string{"cp", "--target-directory=dir", "a"}, "write read", ""},
	{[]string{"mv", "a", "b"}, "tree-write write", ""},
	{[]string{"install", "-m", "755", "bin", "/usr/local/bin/x"}, "- value read write", ""},
	{[]string{"install", "-d", "a", "b"}, "- write write", ""},
	{[]string{"sort", "-o", "out", "in"}, "- write read", ""},
	{[]string{"sort", "--compress-program=sh", "in"}, "code read", "sort --compress-program runs a command"},
	{[]string{"uniq", "in", "out"}, "read write", ""},
	{[]string{"uniq", "in", "out", "more"}, "read write ", "uniq: the operand more is more than uniq takes"},
	// lists and strings.
	{[]string{"ls", "-la", "src"}, "- stat", ""},
	{[]string{"ls", "--hide=*.o", "-I", ".env"}, "pattern - pattern", ""},
	{[]string{"stat", ".env.local"}, "stat", ""},
	{[]string{"file", "-b", ".env"}, "- read", ""},
	{[]string{"file", "-C", "-m", "magic"}, "", "file -C compiles the magic file"},
	{[]string{"file", "-f", "names.txt"}, "", "file -f reads the names"},
	{[]string{"test", "-f", ".env"}, "string string", ""},
	{[]string{"[", "-f", ".env", "]"}, "string string string", ""},
	{[]string{"echo", ".env"}, "string", ""},
	{[]string{"echo", "-n", "@*"}, "string string", ""},
	{[]string{"printf", "%s\n", "-x"}, "string string", ""},
	{[]string{"printf", "-v", "x", "%s", "y"}, "- value string string", ""},
	{[]string{"pwd"}, "", ""},
	{[]string{"less", "+!id", "f"}, "", "less +!id runs the less commands"},
	{[]string{"less", "-t", "main"}, "- value", "less -t opens the file a tags file names"},
	{[]string{"less", "--tag=main"}, "value", "less -t opens the file a tags file names"},
	{[]string{"diff", "-u", "a", "b"}, "- read read", ""},
	{[]string{"diff", "-ru", "a", "b"}, "- tree tree", ""},
	{[]string{"cut", "-d:", "-f1", "/etc/passwd"}, "value value read", ""},
	{[]string{"wc", "-l", "--files0-from=list"}, "- read", "wc --files0-from reads the names"},
}

func TestParse(t *testing.T) {
	runParseCases(t, parseCases)
}

// runParseCases parses each case's words and checks the roles and the
// problem ("sub" stands for the word that names a subcommand).
func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) {
			args := make([]argmodel.Arg, len(c.cmd)-1)
			for i, w := range c.cmd[1:] {
				switch {
				case strings.HasPrefix(w, "$"):
					args[i] = argmodel.Arg{Text: w, Dynamic: true, OpenStart: true}
				case strings.HasPrefix(w, "@"):
					args[i] = argmodel.Arg{Text: w[1:], Glob: true}
				default:
					args[i] = argmodel.Arg{Text: w}
				}
			}
			r := argmodel.Parse(c.cmd[0], args)
			if !r.Known {
				t.Fatalf("%s has no model", c.cmd[0])
			}
			if !strings.HasPrefix(r.Problem, c.problem) || (c.problem == "" && r.Problem != "") {
				t.Errorf("problem %q; want %q…", r.Problem, c.problem)
			}
			if c.problem != "" && c.roles == "" {
				return
			}
			got := make([]string, len(r.Words))
			for i, w := range r.Words {
				got[i] = w.Role
				switch w.Role {
				case argmodel.Option:
					got[i] = "-"
				case argmodel.Subcommand:
					got[i] = "sub"
				}
			}
			if g := strings.Join(got, " "); g != c.roles {
				t.Errorf("roles %q; want %q", g, c.roles)
			}
		})
	}
}

func TestParseUnknownProgram(t *testing.T) {
	if r := argmodel.Parse("xyzzy", []argmodel.Arg{{Text: "-rf"}}); r.Known || r.Problem != "" {
		t.Errorf("xyzzy: %+v; want an unknown program", r)
	}
}

// TestProblemNamesTheProgramAsSpelt: a model shared by several names (python
// and python3, sed and gsed) gives its reasons under the name the command
// used.
func TestProblemNamesTheProgramAsSpelt(t *testing.T) {
	for _, c := range []struct{ program, arg, want string }{
		{"python3", "-c", "python3 -c runs code given inline"},
		{"python", "-c", "python -c runs code given inline"},
		{"gsed", "--frob", "gsed: the option --frob is not in regate's model of sed"},
	} {
		r := argmodel.Parse(c.program, []argmodel.Arg{{Text: c.arg}, {Text: "x"}})
		if r.Problem != c.want {
			t.Errorf("%s %s: problem %q; want %q", c.program, c.arg, r.Problem, c.want)
		}
	}
}
