package attack

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sampleTrace is strace -f -y -o output as strace 6 writes it: records
// split by another process's record, a child seen before its parent's
// clone returned, decorations with escapes, and the calls the judge reads.
const sampleTrace = `100 execve("/usr/bin/bash", ["bash", "--norc", "-c", "cd src; cat ../.env"], 0x7ffc /* 9 vars */) = 0
100 openat(AT_FDCWD</P>, "/dev/tty", O_RDWR|O_NONBLOCK) = -1 ENXIO (No such device or address)
100 chdir("/P/src")                    = 0
100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f <unfinished ...>
101 execve("/usr/bin/cat", ["cat", "../.env", "a\"b\\c\n"], 0x55 /* 9 vars */ <unfinished ...>
100 <... clone resumed>)               = 101
101 <... execve resumed>)              = 0
101 openat(AT_FDCWD</P/src>, "../.env", O_RDONLY) = 3</P/.env>
101 openat(AT_FDCWD</P/src>, "x", O_RDONLY|O_PATH) = 3</P/src/x>
101 openat(AT_FDCWD</P/src>, "../w\76x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</P/w\76x>
101 openat(AT_FDCWD</P/src>, ".", O_RDONLY|O_DIRECTORY) = 5</P/src>
101 openat(AT_FDCWD</P/src>, "gone", O_RDONLY) = 6</P/src/gone (deleted)>
101 renameat2(AT_FDCWD</P/src>, "a", AT_FDCWD</P/src>, "b", RENAME_NOREPLACE) = 0
101 unlinkat(5</P/src>, "c", 0)      = 0
101 unlink("d")                       = -1 ENOENT (No such file or directory)
101 --- SIGCHLD {si_signo=SIGCHLD} ---
100 +++ exited with 0 +++
`

func TestParseTrace(t *testing.T) {
	tr := ParseTrace(sampleTrace, "/P")
	type row struct {
		kind      Kind
		path, cwd string
		dir       bool
	}
	var got []row
	for _, e := range tr.Events {
		got = append(got, row{e.Kind, e.Path, e.Cwd, e.Dir})
	}
	want := []row{
		{Exec, "/usr/bin/bash", "/P", false},
		{Exec, "/usr/bin/cat", "/P/src", false},
		{Read, "/P/.env", "/P/src", false},
		{Write, "/P/w>x", "/P/src", false},
		{Read, "/P/src", "/P/src", true},
		{Read, "/P/src/gone", "/P/src", false},
		{Write, "/P/src/a", "/P/src", false},
		{Write, "/P/src/b", "/P/src", false},
		{Write, "/P/src/c", "/P/src", false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n got %v\nwant %v", got, want)
	}
	if !tr.Events[0].Launcher || tr.Events[1].Launcher {
		t.Errorf("only the first exec is the launcher: %v", tr.Events[:2])
	}
	if argv := tr.Events[1].Argv; !slices.Equal(argv, []string{"cat", "../.env", "a\"b\\c\n"}) {
		t.Errorf("argv %q", argv)
	}
	if img := tr.Events[2].Image; img != "/usr/bin/cat" {
		t.Errorf("a read after the exec is the new program's: %q", img)
	}
	if !strings.Contains(tr.Events[1].Line, "execve(") || !strings.Contains(tr.Events[1].Line, "= 0") {
		t.Errorf("a resumed record's line joins both halves: %q", tr.Events[1].Line)
	}
}

// TestParseTraceLateClone: strace may print a parent's clone returning
// after the child has already changed folder and run its program (as it did
// on a loaded CI machine for git status); the child keeps its own program
// and folder, so git's index refresh is still known as git's.
func TestParseTraceLateClone(t *testing.T) {
	const late = `100 execve("/usr/bin/bash", ["bash", "-c", "git status"], 0x7ffc /* 9 vars */) = 0
100 clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>
101 chdir("/P/sub")                   = 0
101 execve("/usr/bin/git", ["git", "status"], 0x55 /* 9 vars */) = 0
100 <... clone resumed>)               = 101
101 openat(AT_FDCWD</P/sub>, "/P/.git/index.lock", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 3</P/.git/index.lock>
102 execve("/usr/bin/true", ["true"], 0x55 /* 9 vars */) = 0
100 clone(child_stack=NULL, flags=SIGCHLD) = 102
`
	tr := ParseTrace(late, "/P")
	if len(tr.Events) != 4 {
		t.Fatalf("events: %+v", tr.Events)
	}
	if e := tr.Events[2]; e.Image != "/usr/bin/git" || e.Cwd != "/P/sub" {
		t.Errorf("the child's write is git's, in its own folder: image %q cwd %q", e.Image, e.Cwd)
	}
	if e := tr.Events[3]; e.Image != "/usr/bin/true" && e.Image != "" {
		t.Errorf("a child seen before its parent's clone record keeps its program: %q", e.Image)
	}
}

// TestParseTraceNeverFails: every prefix of every line of the sample, and
// the sample cut anywhere, parses without a panic.
func TestParseTraceNeverFails(t *testing.T) {
	for i := range len(sampleTrace) {
		ParseTrace(sampleTrace[:i], "/P")
		ParseTrace(sampleTrace[i:], "/P")
	}
	for _, junk := range []string{"", "\n\n", "1 ", "1 (", "1 x(", "1 x() =", "1 <... x resumed>", "1 clone( <unfinished ...>\n2 clone( <unfinished ...>\n3 execve(\"a\", [\"a\"], 0) = 0"} {
		ParseTrace(junk, "/")
	}
}

// TestPhysical: a path is resolved as the kernel resolves it, a link
// before the .. that follows it.
func TestPhysical(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"home/.ssh", "home/proj"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../.ssh", filepath.Join(dir, "home/proj/keys")); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"/home/proj/keys/id_rsa":        "/home/.ssh/id_rsa",
		"/home/proj/keys/../proj/.env":  "/home/proj/.env",
		"/home/proj/keys/../.ssh":       "/home/.ssh",
		"/home/proj/./sub/../.env":      "/home/proj/.env",
		"//home//proj/missing/../x":     "/home/proj/x",
		"/home/proj/keys/../../x/../..": "/..",
	} {
		got := Physical(dir + in)
		if want = filepath.Clean(dir + want); got != want {
			t.Errorf("Physical(%s) = %s; want %s", in, got, want)
		}
	}
}
