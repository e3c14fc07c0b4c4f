package runtime_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// largeProject is a project of n source files in folders of 1000 (MapFS
// lists a folder by scanning every path), with the extra files given.
func largeProject(n int, extra ...string) facts.MapFS {
	fsys := facts.MapFS{}
	for i := 0; i < n; i++ {
		fsys[fmt.Sprintf("/home/u/repo/src/d%d/f%d.go", i/1000, i)] = "file"
	}
	for _, p := range extra {
		fsys[p] = "file"
	}
	return fsys
}

// TestTreeReadLargeFolder: a recursive read under strict mode is bounded
// by the paths a non-allow rule may match, not by the folder's size
// (compiler.PathHint): grep -r in a project of 20,000 files is allowed
// (it asked past 5,000 entries before), a .env deep inside still makes it
// ask with the rule that denies it, and a folder past the walk's bound
// still asks. Under a policy whose path catch-all asks, every path
// matters and the old bound holds.
func TestTreeReadLargeFolder(t *testing.T) {
	src, err := fs.ReadFile(policies.FS, "default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	grep := facts.Call{Tool: "bash", Input: map[string]any{"command": "grep -rn TODO ."}}
	for _, c := range []struct {
		name    string
		policy  string
		fsys    facts.MapFS
		want    string
		matched string
	}{
		{"20,000 files", string(src), largeProject(20000), "allow", "grep *"},
		{"20,000 files and a .env", string(src), largeProject(20000, "/home/u/repo/src/d7/deep/.env"), "ask", "*.env"},
		{"20,000 files and a key, in capitals", string(src), largeProject(20000, "/home/u/repo/src/d9/ID.PEM"), "allow", "grep *"}, // *.pem is matched with case
		{"70,000 files", string(src), largeProject(70000), "ask", "<strict-floor>"},
		{"a path catch-all that asks", `{"strict": true, "permission": {"*": "ask", "bash": {"*": "allow"}, "path": {"*": "ask", "src/*": "allow"}}}`,
			largeProject(6000), "ask", ""}, // the walk's bound and the catch-all both ask
		{"the same, small", `{"strict": true, "permission": {"*": "ask", "bash": {"*": "allow"}, "path": {"*": "ask", "src/*": "allow"}}}`,
			largeProject(100), "ask", "*"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, c.policy, runtime.WithFS(c.fsys), runtime.WithCacheSize(0))
			d, err := e.Decide(context.Background(), grep)
			if err != nil || string(d.Action) != c.want || c.matched != "" && d.Matched != c.matched {
				t.Errorf("%s: %s (%s), %v; want %s (%s)", c.name, d.Action, d.Matched, err, c.want, c.matched)
			}
		})
	}
}

// BenchmarkTreeReadLargeFolder decides grep -rn TODO . under the default
// policy in real projects of 10, 10,000 and 50,000 files in folders of 50
// (the walk, the facts and the decision; no cache): the walk lists every
// entry, and only the paths a non-allow rule may match are decided.
func BenchmarkTreeReadLargeFolder(b *testing.B) {
	benchLargeFolder(b, "default.jsonc", "grep -rn TODO .")
}

// benchLargeFolder decides cmd, which the policy must allow, in real
// projects of 10, 10,000 and 50,000 files in folders of 50 below src (the
// walk, the facts and the decision; no cache).
func benchLargeFolder(b *testing.B, policy, cmd string) {
	src, err := fs.ReadFile(policies.FS, policy)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 10000, 50000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			for i := 0; i < n; i++ {
				p := filepath.Join(dir, "src", fmt.Sprintf("d%d", i/50), fmt.Sprintf("f%d.go", i))
				if i%50 == 0 {
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						b.Fatal(err)
					}
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			e := newEngine(b, string(src), runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir), runtime.WithCacheSize(0))
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
			b.ReportAllocs()
			for b.Loop() {
				if d, err := e.Decide(context.Background(), call); err != nil || d.Action != "allow" {
					b.Fatal(d, err)
				}
			}
		})
	}
}

// TestTreeWriteLargeFolder: a recursive change is bounded as a recursive
// read is, by the paths a non-allow path or write rule may match: under
// the developer policy rm -rf of a folder of 20,000 files is allowed, a
// .env deep inside makes it ask, a folder past the walk's bound asks, and
// under the default policy, whose write catch-all asks, every entry counts
// (past 5,000 the walk stops and asks; rm asks there anyway).
func TestTreeWriteLargeFolder(t *testing.T) {
	developer, err := fs.ReadFile(policies.FS, "developer.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	rm := facts.Call{Tool: "bash", Input: map[string]any{"command": "rm -rf src"}}
	for _, c := range []struct {
		name    string
		fsys    facts.MapFS
		want    string
		matched string
	}{
		{"20,000 files", largeProject(20000), "allow", "rm *"},
		{"20,000 files and a .env", largeProject(20000, "/home/u/repo/src/d7/deep/.env"), "ask", "*.env"},
		{"70,000 files", largeProject(70000), "ask", "<strict-floor>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, string(developer), runtime.WithFS(c.fsys), runtime.WithCacheSize(0))
			d, err := e.Decide(context.Background(), rm)
			if err != nil || string(d.Action) != c.want || d.Matched != c.matched {
				t.Errorf("%s: %s (%s), %v; want %s (%s)", c.name, d.Action, d.Matched, err, c.want, c.matched)
			}
		})
	}
}

// BenchmarkTreeWriteLargeFolder decides rm -rf src under the developer
// policy in real projects of 10, 10,000 and 50,000 files in folders of 50:
// the walk lists every entry, and only the paths a non-allow path or write
// rule may match are decided.
func BenchmarkTreeWriteLargeFolder(b *testing.B) {
	benchLargeFolder(b, "developer.jsonc", "rm -rf src")
}
