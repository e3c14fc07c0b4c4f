package facts

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPathspecMatcherAgreesWithGit: the paths pathspecMatcher keeps are the
// ones git ls-files lists for the same pathspec, from the work tree's root
// and from a folder below it, for literal and glob pathspecs (git matches
// a glob against the whole path, * and ? crossing "/").
func TestPathspecMatcherAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	files := []string{".env", "README.md", "docs/x.md", "src/a.go", "src/.env.local", "src/sub/b.go", "src/sub/c.ts", "src/sub/d[1].txt"}
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(dir string, args ...string) (string, bool) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		return string(out), err == nil
	}
	if _, ok := git(root, "init", "-q"); !ok {
		t.Fatal("git init failed")
	}
	if _, ok := git(root, "add", "-A"); !ok {
		t.Fatal("git add failed")
	}
	specs := []string{"sr?", "src", "src/", "*.go", "src/*.go", "*", ".e*", "*.env*", "s*b", "src/s*", "[sd]*", "docs",
		"*/b.go", "**/b.go", "sub", "?EADME.md", "*.[gt]?", "src/sub/d[1].txt", ".", "sub/*", "../*.md", "*a*"}
	for _, cwd := range []string{"", "src"} {
		for _, spec := range specs {
			out, ok := git(filepath.Join(root, cwd), "ls-files", "--full-name", "--", spec)
			if !ok {
				continue // git refuses it (outside the repository): it reads nothing
			}
			want := strings.Fields(out)
			match, err := pathspecMatcher([]string{spec}, root, filepath.Join(root, cwd))
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			var got []string
			for _, f := range files {
				if match(f) {
					got = append(got, f)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("in %q, pathspec %q: regate keeps %q, git lists %q", cwd, spec, got, want)
			}
		}
	}
}
