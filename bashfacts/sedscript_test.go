package bashfacts

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// sedScriptCases are sed programs (each string one -e script), with
// whether sed, run on three lines, opens every file the script names: a
// file behind an address no line reaches is named but never read.
var sedScriptCases = []struct {
	scripts []string
	exact   bool
}{
	{[]string{"1r r1"}, true},
	{[]string{"1R r1"}, true},
	{[]string{"r r1"}, true},
	{[]string{"1w w1"}, true},
	{[]string{"0~3w w1"}, true},
	{[]string{"5w w1"}, true}, // w files are created when sed compiles the script
	{[]string{"s/a/b/w w1"}, true},
	{[]string{"s/a/b/gpw w1"}, true},
	{[]string{"s/a/b/2w w1"}, true},
	{[]string{"s/a/b/ ; 1r r1"}, true},
	{[]string{"s/a/b/I;s/b/c/M;1r r1"}, true},
	{[]string{"1e true"}, true},
	{[]string{"s/a/true/e"}, true},
	{[]string{"1e"}, true}, // runs the line as a command
	{[]string{"1e true;1r r1"}, true},
	{[]string{"1{r r1\n}"}, true},
	{[]string{"1{\nr r1\n}"}, true},
	{[]string{"1r r1 ;p"}, true}, // the name runs to the end of the line
	{[]string{"1 r r1"}, true},
	{[]string{"1r  r1"}, true},
	{[]string{"1r r1 "}, true},
	{[]string{"3!r r1"}, true},
	{[]string{"1,2 ! r r1"}, true},
	{[]string{"/a/r r1"}, true},
	{[]string{"/r2/r r1"}, false}, // no line holds r2
	{[]string{"\\,a,r r1"}, true},
	{[]string{"/a/I,+1r r1"}, true},
	{[]string{"$r r1"}, true},
	{[]string{"s/[/]/x/;1r r1"}, true},
	{[]string{"s/a/[/;1r r1"}, true},
	{[]string{"s/[[:alpha:]/]/x/;1r r1"}, true},
	{[]string{"s/a/\\/;1r r1/"}, false},
	{[]string{"s|a|b|;1r r1"}, true},
	{[]string{"y/abc/xyz/;1r r1"}, true},
	{[]string{"1{y/a/b/};1r r1"}, true},
	{[]string{"1!G;h;$!d"}, true},
	{[]string{":a;N;$!ba;s/\\n/ /g"}, true},
	{[]string{"1{p;q}"}, true},
	{[]string{"#n\n1r r1"}, true},
	{[]string{"# 1r r2\n1r r1"}, true},
	{[]string{"2q;1r r1"}, true},
	{[]string{"l 5;1r r1"}, true},
	{[]string{"v;1r r1"}, true},
	{[]string{"v 4.2;1r r1"}, true},
	{[]string{"F;z;1r r1"}, true},
	{[]string{"b end;1r r1;:end"}, false},
	{[]string{"1a hello", "1r r1"}, true},
	{[]string{"a\\", "1r r1"}, true},            // the second script is the text
	{[]string{"1a end\\", "1r r1"}, true},       // the text goes on into the second
	{[]string{"1a one\\\ntwo;1r r1"}, true},     // and over a newline
	{[]string{"1i\\  x;1r r1"}, true},           // text
	{[]string{"1c\\\nchanged", "1r r1"}, false}, // text, then a command c's new cycle skips
	{[]string{"1a\\", "text", "1r r1"}, true},
	{[]string{"s/a/b/w /dev/stdout"}, true},
	{[]string{"1w /dev/stderr"}, true},
	{[]string{"1k"}, true},
	{[]string{"s/a/b"}, true},
	{[]string{"1r"}, true},
	{[]string{"1w w1", "s/a/b/x"}, true}, // refused after w1 is created
	{[]string{"1r r1;p}"}, true},
}

// TestSedScriptsAsSedReadsThem runs GNU sed on each script under strace
// and requires readSed to name every file sed opens, in the role sed
// opens it, to say that a script runs a command when sed starts one, and
// to say that sed refuses a script when it does; for the exact rows,
// nothing beyond what sed does.
func TestSedScriptsAsSedReadsThem(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed")
	}
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("no strace")
	}
	if out, _ := exec.Command("sed", "--version").Output(); !strings.Contains(string(out), "GNU sed") {
		t.Skip("sed is not GNU sed")
	}
	dir := t.TempDir()
	for _, name := range []string{"in", "r1", "r2"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("a\nb\nc\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range sedScriptCases {
		got := readSed(c.scripts)
		reads, writes, runs, refused := runSed(t, dir, c.scripts, i)
		name := strings.Join(c.scripts, " -e ")
		for _, r := range reads {
			if !slices.Contains(got.reads, r) {
				t.Errorf("%q: sed reads %q; regate reads %q", name, r, got.reads)
			}
		}
		for _, w := range writes {
			if !slices.Contains(got.writes, w) {
				t.Errorf("%q: sed writes %q; regate writes %q", name, w, got.writes)
			}
		}
		if runs && got.runs == "" {
			t.Errorf("%q: sed runs a command; regate says it does not", name)
		}
		if refused != (got.problem != "") {
			t.Errorf("%q: sed refuses the script: %v; regate: %q", name, refused, got.problem)
		}
		if c.exact && !refused {
			if !sameNames(got.reads, reads) || !sameNames(got.writes, writes) || (got.runs != "") != runs {
				t.Errorf("%q: regate reads %q, writes %q, runs %q; sed reads %q, writes %q, runs %v",
					name, got.reads, got.writes, got.runs, reads, writes, runs)
			}
		}
	}
}

// runSed runs sed -n with the scripts on three lines under strace and
// returns the files of the folder it opened to read and to write, whether
// it started a command, and whether it refused the script.
func runSed(t *testing.T, dir string, scripts []string, n int) (reads, writes []string, runs, refused bool) {
	t.Helper()
	for _, f := range []string{"w1", "trace"} {
		os.Remove(filepath.Join(dir, f))
	}
	args := []string{"-f", "-qq", "-e", "trace=openat,execve", "-o", "trace", "sed", "-n"}
	for _, s := range scripts {
		args = append(args, "-e", s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "strace", append(args, "in")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("case %d: sed did not end: %s", n, out)
	}
	refused = err != nil && strings.Contains(string(out), "-e expression #")
	f, ferr := os.Open(filepath.Join(dir, "trace"))
	if ferr != nil {
		t.Fatalf("case %d: strace wrote no trace (%v): %s", n, err, out)
	}
	defer f.Close()
	execs := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "execve(") && !strings.Contains(line, "ENOENT") {
			execs++
			continue
		}
		_, call, ok := strings.Cut(line, "openat(AT_FDCWD, \"")
		if !ok {
			continue
		}
		name, flags, _ := strings.Cut(call, "\", ")
		if strings.HasPrefix(name, "/") || name == "in" {
			continue // the program's own files, and its input
		}
		if strings.Contains(flags, "O_WRONLY") || strings.Contains(flags, "O_RDWR") {
			writes = append(writes, name)
		} else {
			reads = append(reads, name)
		}
	}
	return reads, writes, execs > 1, refused
}

// sameNames reports whether two lists hold the same names, each once or
// more.
func sameNames(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// FuzzReadSed reads any scripts without panicking, and names only what the
// scripts hold.
func FuzzReadSed(f *testing.F) {
	for _, c := range sedScriptCases {
		f.Add(strings.Join(c.scripts, "\x00"))
	}
	f.Fuzz(func(t *testing.T, joined string) {
		scripts := strings.Split(joined, "\x00")
		got := readSed(scripts)
		for _, name := range slices.Concat(got.reads, got.writes) {
			if !strings.Contains(joined, name) {
				t.Fatalf("%q: names %q, which no script holds", joined, name)
			}
		}
	})
}
