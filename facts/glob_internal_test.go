package facts

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGlobMatchesBash expands each pattern in a scratch folder twice, with
// strict mode's expander and with real bash (extglob on, every other
// option at its default), and requires the same paths. Where the expander
// knowingly gates more than bash reads (an empty @ alternative before a
// dot; "." and "..", which bash before 5.2 matches), the row says so and
// only a superset is required; where it cannot expand (!(…)), it must
// fail, which asks.
func TestGlobMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	for _, f := range []string{".env", "env", "Env", "aenv", ".hidden", "a", "b", "[ab]", "x*y", "a.go", ".a.go",
		"sub/.env", "sub/f", "sub/.git/config", "d/e/f.txt", "ä"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := &Env{Cwd: dir, Home: dir}
	for _, c := range []struct {
		pattern string
		more    bool // the expander may match more than bash
		fails   bool
	}{
		{pattern: "*"}, {pattern: "?env"}, {pattern: "[.]env"}, {pattern: `\.e*`}, {pattern: ".e*"},
		{pattern: ".[e]nv"}, {pattern: "[!.]*"}, {pattern: ".[!.]*"}, {pattern: "[[:alpha:]]"},
		{pattern: ".en[[:alpha:]]"}, {pattern: ".en[!x]"}, {pattern: ".en[^x]"}, {pattern: `\[ab\]`},
		{pattern: "[ab]"}, {pattern: "[a"}, {pattern: `x\*y`}, {pattern: "*/.env"}, {pattern: "*/*"},
		{pattern: "sub/.*", more: true}, {pattern: ".*", more: true}, {pattern: "*.go"}, {pattern: ".*.go"},
		{pattern: "E*"}, {pattern: ".E*"}, {pattern: "*/*/*.txt"}, {pattern: "**/.env"}, {pattern: "[[:upper:]]*"},
		{pattern: "[a-b]"}, {pattern: "[]ab]"}, {pattern: "?"}, {pattern: "~/.e?v"}, {pattern: "~/sub/[.]*"},
		{pattern: "@(.env)"}, {pattern: "@(.env|a)"}, {pattern: "?(.)env"}, {pattern: "*(.)env"},
		{pattern: "+(.)env"}, {pattern: "@(*env)"}, {pattern: ".@(env)"}, {pattern: "?(a).env"},
		{pattern: "*(a).env"}, {pattern: "@(.x|?env)"}, {pattern: "@(@(.e)nv)"}, {pattern: "?(a|.)env"},
		{pattern: `@(\.env)`}, {pattern: "+(a|b)"}, {pattern: "*(a|b)env"}, {pattern: "@([ab]|x*)"},
		{pattern: "@(a|).env", more: true},
		{pattern: "!(a)", fails: true}, {pattern: ".!(x)", fails: true},
	} {
		got, err := e.expandGlob(c.pattern, dir)
		if c.fails {
			if err == nil {
				t.Errorf("%s: expanded to %q; want a failure, which asks", c.pattern, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		ours := relativeTo(dir, got)
		theirs := bashGlob(t, bash, dir, c.pattern)
		if c.more {
			for _, m := range theirs {
				if !slices.Contains(ours, m) {
					t.Errorf("%s: bash matches %q, which strict mode misses (ours %q)", c.pattern, m, ours)
				}
			}
			continue
		}
		if strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
			t.Errorf("%s: strict mode matches %q, bash %q", c.pattern, ours, theirs)
		}
	}
}

func relativeTo(dir string, paths []string) []string {
	var out []string
	for _, p := range paths {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			r = p
		}
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// bashGlob is what bash makes of an unquoted pattern in dir, as relative
// paths (nullglob: none when nothing matches, where bash would keep the
// word).
func bashGlob(t *testing.T, bash, dir, pattern string) []string {
	t.Helper()
	run := exec.Command(bash, "--norc", "--noprofile", "-c", "shopt -s extglob nullglob\nfor f in "+pattern+"; do printf '%s\\0' \"$f\"; done")
	run.Dir = dir
	run.Env = []string{"HOME=" + dir, "LC_ALL=C.UTF-8"}
	out, err := run.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var paths []string
	for _, w := range words {
		w = strings.TrimPrefix(w, dir+"/")
		if _, err := os.Lstat(filepath.Join(dir, w)); err == nil && w != "" {
			paths = append(paths, w) // not a word kept as written ([a is no glob)
		}
	}
	slices.Sort(paths)
	return paths
}
