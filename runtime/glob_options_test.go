package runtime_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/regate/regate/facts"
)

// TestGlobMatchesAreNotOptions: a glob whose first component bash expands
// spells each match from its name, so a file named -delete in the folder
// becomes an option of the program (`for f in *; do find "$f"; done`
// deletes every file below).
// Under strict mode such a glob asks; spelt ./* the matches are paths, and
// without such a file the glob is decided by what it matches. Each row
// first runs in real bash in a copy of the folder and checks what the
// program did.
func TestGlobMatchesAreNotOptions(t *testing.T) {
	fixture := facts.MapFS{
		"/home/u/repo/-delete":    "file",
		"/home/u/repo/a.txt":      "file",
		"/home/u/repo/sub/b.txt":  "file",
		"/home/u/repo/safe/c.txt": "file",
	}
	engines := newDefaultEngines(t, fixture)
	bash, _ := exec.LookPath("bash")
	for _, c := range []struct {
		cmd     string
		deletes bool // a.txt is gone after the command ran
		want    string
		plain   string
	}{
		// find -delete a.txt safe sub: find stops at a.txt, which is no
		// expression, but -delete was read as one.
		{cmd: "find *", deletes: false, want: "ask", plain: "allow"},
		{cmd: `for f in *; do find "$f" >/dev/null; done`, deletes: true, want: "ask", plain: "allow"},
		{cmd: "find ./*", deletes: false, want: "allow", plain: "allow"},
		{cmd: "find safe/*", deletes: false, want: "allow", plain: "allow"},
		{cmd: "ls -la *.txt", deletes: false, want: "allow", plain: "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if bash != "" {
				dir := t.TempDir()
				for name := range fixture {
					p := filepath.Join(dir, name[len("/home/u/repo/"):])
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, nil, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				run := exec.Command(bash, "--norc", "--noprofile", "-c", c.cmd)
				run.Dir = dir
				_ = run.Run()
				_, err := os.Stat(filepath.Join(dir, "a.txt"))
				if gone := os.IsNotExist(err); gone != c.deletes {
					t.Fatalf("bash -c %q: a.txt deleted %v, the row says %v", c.cmd, gone, c.deletes)
				}
			}
			engines.check(t, c.cmd, c.want, c.plain)
		})
	}
}
