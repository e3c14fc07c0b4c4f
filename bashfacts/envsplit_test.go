package bashfacts

import (
	"os/exec"
	"strings"
	"testing"
)

// envSplitCases are env -S strings and the words env runs, as
// printf '[%s]' prints them; "!" for a string env refuses.
var envSplitCases = []struct{ s, want string }{
	{`a\_b "c d" e\tf`, "[a][b][c d][e\tf]"},
	{`'x y' "p\_q" #comment`, "[x y][p q]"},
	{`a\cb c`, "[a]"},
	{`a#b #c`, "[a#b]"},
	{`x '' y`, "[x][][y]"},
	{`'a\'b' 'x\\y' "q\"r"`, "[a'b][x\\y][q\"r]"},
	{`'a\nb' "a\nb"`, "[a\\nb][a\nb]"},
	{`\#x \$y`, "[#x][$y]"},
	{`'$HOME' "\${X}"`, "[$HOME][${X}]"},
	{`a$HOME`, "!"},
	{`a\x`, "!"},
	{`"a\cb"`, "!"},
	{`'open`, "!"},
	{`a\`, "!"},
	{"  lead\ttab", "[lead][tab]"},
}

// TestEnvSplitAsEnvSplits runs GNU env -S on each string (printf printing
// the words it gets) and requires envSplit to give the same words, or to
// refuse the strings env refuses; the words envSplit gives, read back by
// bash, are the words env runs.
func TestEnvSplitAsEnvSplits(t *testing.T) {
	env, err := exec.LookPath("env")
	if err != nil {
		t.Skip("no env")
	}
	for _, c := range envSplitCases {
		got, ok := envSplit(c.s)
		printed := "!"
		if ok {
			out, err := exec.Command("bash", "-c", "printf '[%s]' "+strings.Join(got, " ")).Output()
			if err != nil {
				t.Fatalf("%q: bash: %v", c.s, err)
			}
			printed = string(out)
			if len(got) == 0 {
				printed = ""
			}
		}
		if printed != c.want {
			t.Errorf("envSplit(%q) = %q (%q); want %q", c.s, got, printed, c.want)
		}
		out, err := exec.Command(env, "-S", "printf [%s] "+c.s).Output()
		real := string(out)
		if err != nil {
			real = "!"
		}
		if real != c.want {
			t.Errorf("env -S %q printed %q; the row says %q", c.s, real, c.want)
		}
	}
}

// FuzzEnvSplit splits any string without panicking.
func FuzzEnvSplit(f *testing.F) {
	for _, c := range envSplitCases {
		f.Add(c.s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		envSplit(s)
	})
}
