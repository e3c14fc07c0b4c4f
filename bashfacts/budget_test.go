package bashfacts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestWorkLimits: a command at each work limit is decomposed; one just past
// it is refused with ErrLimit (the caller asks), and so are the commands
// of issue 20 that took hundreds of megabytes or never finished.
func TestWorkLimits(t *testing.T) {
	words := func(n int, w string) string { return strings.TrimSpace(strings.Repeat(w+" ", n)) }
	braces := func(n int) string { return "echo x" + strings.Repeat("{a,b}", n) }
	dir := func(n int) string { return "cd /" + strings.Repeat("a", n-1) + " && cat x" }
	for _, c := range []struct {
		name string
		cmd  string
		over bool
	}{
		{"words at the limit", "echo " + words(bashfacts.MaxWords-1, "a"), false},
		{"words past it", "echo " + words(bashfacts.MaxWords, "a"), true},
		// A wrapper's command is walked again: sudo X counts X's words twice.
		{"wrapped words at the limit", "sudo echo " + words(bashfacts.MaxWords/2-2, "a"), false},
		{"wrapped words past it", "sudo echo " + words(bashfacts.MaxWords/2, "a"), true},
		// Each ./{a,b} is two tokens: the words stay below MaxWords.
		{"path tokens at the limit", "cat " + words(bashfacts.MaxTokens/2-1, "./{a,b}") + " ./c", false},
		{"path tokens past it", "cat " + words(bashfacts.MaxTokens/2, "./{a,b}") + " ./c", true},
		{"brace groups at the limit", "echo " + strings.Repeat("{a,", bashfacts.MaxBraceGroups) + "b" + strings.Repeat("}", bashfacts.MaxBraceGroups), false},
		// Words are counted as bash makes them: 30 groups of {a,b} are 2^30
		// words, which would exhaust the host's memory.
		{"brace words at the limit", braces(14), false},
		{"brace words past it", braces(15), true},
		{"brace sequence past it", "echo {1..20000} x", true},
		{"brace sequence at the limit", "echo {1..19998} x", false},
		{"2^30 brace words", braces(30), true},
		{"brace groups past it", braces(bashfacts.MaxBraceGroups + 1), true},
		{"nested brace groups past it", "echo " + strings.Repeat("{a,", bashfacts.MaxBraceGroups+1) + "b" + strings.Repeat("}", bashfacts.MaxBraceGroups+1), true},
		{"a directory at the limit", dir(bashfacts.MaxDirBytes), false},
		{"a directory past it", dir(bashfacts.MaxDirBytes + 1), true},
		{"a cd chain past it", strings.Repeat("cd aaaaaaa; ", bashfacts.MaxDirBytes/8+1) + "cat x", true},
		// Issue 20's findings, each 200 KB.
		{"200 KB of words", "ls " + words(100_000, "a"), true},
		{"200 KB of paths", "cat " + words(34_000, "./a/b"), true},
		{"200 KB of brace groups", "echo " + strings.Repeat("{a,b}", 40_000), true},
		{"200 KB of cds", strings.Repeat("cd a; ", 34_000) + "ls", true},
		{"200 KB of wrappers", strings.Repeat("sudo ", 40_000) + "ls", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := bashfacts.Extract(c.cmd)
			switch {
			case c.over && !errors.Is(err, bashfacts.ErrLimit):
				t.Fatalf("%d bytes: err %v; want ErrLimit", len(c.cmd), err)
			case !c.over && err != nil:
				t.Fatalf("%d bytes: refused at the limit: %v", len(c.cmd), err)
			}
		})
	}
}

// TestWorkLimitsKeepRealCommands: long commands of the kinds agents write
// stay well inside the budget.
func TestWorkLimitsKeepRealCommands(t *testing.T) {
	var files []string
	for i := 0; i < 500; i++ {
		files = append(files, "src/module"+strings.Repeat("x", i%7)+"/file.go")
	}
	for _, cmd := range []string{
		"git add " + strings.Join(files, " ") + " && git commit -m 'many files'",
		"cat > big.py <<'EOF'\n" + strings.Repeat("print('hello world, this is a line of a file')\n", 20_000) + "EOF",
		"for f in " + strings.Join(files, " ") + "; do gofmt -l \"$f\"; done",
		"echo {a,b,c}{1,2,3}{x,y,z}.txt",
	} {
		if _, err := bashfacts.Extract(cmd); err != nil {
			t.Errorf("%.60q…: %v", cmd, err)
		}
	}
}
