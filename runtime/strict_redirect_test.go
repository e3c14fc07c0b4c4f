package runtime_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestStrictRedirectWrites: under strict mode a redirect that writes a file
// meets the write rules (and, appending, the edit rules) the write tool
// meets, here the bundled default policy's write {"*": "ask", "*.lock":
// "deny"}; the streams that are no file stay allowed. Each row is first run
// in real bash (where there is one), in a scratch folder, to prove that the
// command writes the file the row names, or writes none. Without strict
// mode the spec's decision stands: a redirect target is gated as a path
// only (R7), so the same commands are allowed.
func TestStrictRedirectWrites(t *testing.T) {
	engines := newDefaultEngines(t, facts.MapFS{"/home/u/repo/README": "file", "/home/u/repo/notes.txt": "file"})
	bash, _ := exec.LookPath("bash")

	for _, c := range []struct {
		cmd    string
		writes string // the file bash writes, "" for none
		want   string // under strict mode
	}{
		{"cat README > pnpm.lock", "pnpm.lock", "deny"},
		{"cat README >> pnpm.lock", "pnpm.lock", "deny"},
		{"cat README >| yarn.lock", "yarn.lock", "deny"},
		{"cat README &> Cargo.lock", "Cargo.lock", "deny"},
		{"cat README >&go.lock", "go.lock", "deny"},
		{"cat <<'EOF' > poetry.lock\nx\nEOF", "poetry.lock", "deny"},
		{"ls > listing.txt", "listing.txt", "ask"},
		{"cat README >> notes.txt", "notes.txt", "ask"},
		{"ls &>> all.log", "all.log", "ask"},
		{"cat README 1<> rw.txt", "rw.txt", "ask"},
		{"ls > /dev/null", "", "allow"},
		{"ls 2>/dev/null", "", "allow"},
		{"ls 2>&1", "", "allow"},
		{"cat README >&2", "", "allow"},
		{"ls > /dev/stderr", "", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if bash != "" {
				checkBashWrites(t, bash, c.cmd, c.writes)
			}
			engines.check(t, c.cmd, c.want, "allow")
		})
	}
}

// checkBashWrites runs cmd in real bash in a scratch folder holding README
// and notes.txt and checks that it writes exactly the file named (or none).
func checkBashWrites(t *testing.T, bash, cmd, writes string) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"README", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bash, "--norc", "--noprofile", "-c", cmd)
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("bash -c %q: %v\n%s", cmd, err, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if (e.Name() != "README" && e.Name() != "notes.txt") || string(b) != "text\n" {
			changed = append(changed, e.Name())
		}
	}
	want := []string{}
	if writes != "" {
		want = []string{writes}
	}
	if strings.Join(changed, ",") != strings.Join(want, ",") {
		t.Fatalf("bash -c %q wrote %q; the row says %q", cmd, changed, want)
	}
}
