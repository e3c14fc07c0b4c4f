package runtime_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestFindDeletes: find … -delete with an expression regate follows (a
// conjunction of narrowing tests, -delete last) deletes the entries the
// -name patterns match below each start point: they are decided on the
// path and write surfaces (bashfacts/finddelete.go). Under the developer
// policy deleting *.orig files is allowed, deleting .env or a lock file is
// not, and an expression regate does not follow (-delete before a test,
// -o) still asks. Each row first runs in real bash and checks which files
// are gone.
func TestFindDeletes(t *testing.T) {
	files := []string{"a.orig", "src/b.orig", "src/main.go", ".env", "deps.lock"}
	fixture := facts.MapFS{}
	for _, f := range files {
		fixture["/home/u/repo/"+f] = "file"
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fixture))
	defaults := newDefaultEngines(t, fixture)
	for _, c := range []struct {
		cmd            string
		gone           []string
		developer, def string
	}{
		{"find . -name '*.orig' -delete", []string{"a.orig", "src/b.orig"}, "allow", "ask"},
		{"find src -type f -name '*.orig' -delete", []string{"src/b.orig"}, "allow", "ask"},
		{"find . -name '.env' -delete", []string{".env"}, "deny", "deny"},
		{"find . -name '*.lock' -delete", []string{"deps.lock"}, "allow", "ask"}, // the default denies writing a lock file: capped at ask
		{"find . -delete -name '*.orig'", files, "ask", "ask"},                   // -delete first deletes everything
		{"find . -name '*.orig' -o -name '*.go' -delete", []string{"src/main.go"}, "ask", "ask"},
		{"find -L . -name '*.orig' -delete", []string{"a.orig", "src/b.orig"}, "ask", "ask"}, // follows links the walk does not
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if dir := runAmong(t, files, c.cmd); dir != "" {
				for _, f := range files {
					_, err := os.Stat(filepath.Join(dir, f))
					want := false
					for _, g := range c.gone {
						want = want || g == f
					}
					if gone := os.IsNotExist(err); gone != want {
						t.Fatalf("bash -c %q: %s deleted %v, the row says %v", c.cmd, f, gone, want)
					}
				}
			}
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			if d, err := developer.Decide(context.Background(), call); err != nil || string(d.Action) != c.developer {
				t.Errorf("developer policy: %s (%s, %v); want %s", d.Action, d.Matched, err, c.developer)
			}
			if d, err := defaults.strict.Decide(context.Background(), call); err != nil || string(d.Action) != c.def {
				t.Errorf("default policy: %s (%s, %v); want %s", d.Action, d.Matched, err, c.def)
			}
		})
	}
}

// runAmong runs cmd in real bash in a new folder holding files (empty,
// mode 0644) and returns the folder, or "" when bash is not installed.
// Whether the command succeeds is for the caller to see in the files.
func runAmong(t *testing.T, files []string, cmd string) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		return ""
	}
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = dir
	_ = run.Run()
	return dir
}
