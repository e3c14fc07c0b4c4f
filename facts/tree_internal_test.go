package facts

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// treeProject is a project with a secret, a git repository, installed
// packages that a .gitignore ignores, and a link to the home's keys.
var treeProject = MapFS{
	"/home/u/.ssh/id_rsa":                   "file",
	"/home/u/notes.md":                      "file",
	"/home/u/repo/.env":                     "file",
	"/home/u/repo/.git/config":              "file",
	"/home/u/repo/.gitignore":               "file:# build output\nnode_modules/\n*.log\n/dist\n",
	"/home/u/repo/src/a.go":                 "file",
	"/home/u/repo/src/debug.log":            "file",
	"/home/u/repo/node_modules/x/key.pem":   "file",
	"/home/u/repo/dist/out.js":              "file",
	"/home/u/repo/web/dist/app.js":          "file",
	"/home/u/repo/keys":                     "link:/home/u/.ssh",
	"/home/u/plain/.env":                    "file",
	"/home/u/plain/.gitignore":              "file:*.pem\n",
	"/home/u/plain/secret.pem":              "file",
	"/home/u/negated/.git/HEAD":             "file",
	"/home/u/negated/.gitignore":            "file:*.pem\n",
	"/home/u/negated/sub/.gitignore":        "file:!keep.pem\n",
	"/home/u/negated/sub/keep.pem":          "file",
	"/home/u/negated/other/drop.pem":        "file",
	"/home/u/negated/other/.gitignore.bak":  "file",
	"/home/u/unknown/.git/HEAD":             "file",
	"/home/u/unknown/.gitignore":            "file:[[:alpha:]]*\n**/deep/*.pem\n\\#x\n",
	"/home/u/unknown/secret.pem":            "file",
	"/home/u/unknown/one/deep/two.pem":      "file",
	"/home/u/repo/src/nested/.gitignore":    "file:*.go\n",
	"/home/u/rgign/.git/HEAD":               "file",
	"/home/u/rgign/.gitignore":              "file:*.pem\n",
	"/home/u/rgign/key.pem":                 "file",
	"/home/u/rgign/sub/.ignore":             "file:!*.pem\n",
	"/home/u/rgign/sub/key.pem":             "file",
	"/home/u/rgup/.rgignore":                "file:!*.pem\n",
	"/home/u/rgup/repo/.git/HEAD":           "file",
	"/home/u/rgup/repo/.gitignore":          "file:*.pem\n",
	"/home/u/rgup/repo/key.pem":             "file",
	"/home/u/repo/src/nested/b.go":          "file",
	"/home/u/repo/src/nested/deeper/c.go":   "file",
	"/home/u/repo/src/nested/deeper/c.txt":  "file",
	"/home/u/repo/src/nested/.hidden/d.txt": "file",
}

// TestTreeChecks: the paths a recursive read of a folder reaches, as the
// forms of one strict-only check with Within set; a visible-only read
// skips hidden names and what the tree's .gitignore files ignore.
func TestTreeChecks(t *testing.T) {
	e := &Env{Cwd: "/home/u/repo", Home: "/home/u", FS: treeProject}
	for _, c := range []struct {
		value, role string
		cwd         string
		want        []string // the first spelling of each group, in order
	}{
		{".", TreeRole, "", []string{
			".env", ".git", ".gitignore", "dist", "keys", "/home/u/.ssh", "/home/u/.ssh/", "node_modules", "src", "web",
			".git/config", "dist/out.js", "node_modules/x", "src/a.go", "src/debug.log", "src/nested", "web/dist",
			"node_modules/x/key.pem", "src/nested/.gitignore", "src/nested/.hidden", "src/nested/b.go", "src/nested/deeper", "web/dist/app.js",
			"src/nested/.hidden/d.txt", "src/nested/deeper/c.go", "src/nested/deeper/c.txt",
		}},
		// ripgrep: no hidden names, no node_modules/, *.log or /dist (but
		// web/dist, which the anchored /dist does not name), and below
		// src/nested no *.go.
		{".", TreeVisibleRole, "", []string{
			"keys", "/home/u/.ssh", "/home/u/.ssh/", "src", "web", "src/a.go", "src/nested", "web/dist",
			"src/nested/deeper", "web/dist/app.js", "src/nested/deeper/c.txt",
		}},
		{"src", TreeRole, "", []string{
			"src/a.go", "src/debug.log", "src/nested", "src/nested/.gitignore", "src/nested/.hidden", "src/nested/b.go",
			"src/nested/deeper", "src/nested/.hidden/d.txt", "src/nested/deeper/c.go", "src/nested/deeper/c.txt",
		}},
		{"~/.ssh", TreeRole, "", []string{"/home/u/.ssh/id_rsa"}},
		// A link given as the folder is followed: its target is walked,
		// spelt both ways.
		{"keys", TreeRole, "", []string{"keys/id_rsa", "/home/u/.ssh/id_rsa"}},
		// No git repository: ripgrep does not honour the .gitignore, but
		// still skips the hidden .env.
		{"/home/u/plain", TreeVisibleRole, "", []string{"/home/u/plain/secret.pem"}},
		{"/home/u/plain", TreeRole, "", []string{"/home/u/plain/.env", "/home/u/plain/.gitignore", "/home/u/plain/secret.pem"}},
		// A negation below turns every ignore rule off there: sub/keep.pem
		// is read; other/ keeps the root's *.pem.
		{"/home/u/negated", TreeVisibleRole, "", []string{"/home/u/negated/other", "/home/u/negated/sub", "/home/u/negated/sub/keep.pem"}},
		// ripgrep's own ignore files, in the tree or above it, may
		// re-include what a .gitignore ignores: the .gitignore files are
		// not honoured there.
		{"/home/u/rgign", TreeVisibleRole, "", []string{"/home/u/rgign/sub", "/home/u/rgign/sub/key.pem"}},
		{"/home/u/rgup/repo", TreeVisibleRole, "", []string{"/home/u/rgup/repo/key.pem"}},
		// Lines regate does not understand ignore nothing.
		{"/home/u/unknown", TreeVisibleRole, "", []string{
			"/home/u/unknown/one", "/home/u/unknown/secret.pem", "/home/u/unknown/one/deep", "/home/u/unknown/one/deep/two.pem"}},
		// Relative to another directory (after a cd): the folder's two
		// groups (as written, canonical) joined with each path.
		{"repo/src/nested/deeper", TreeRole, "/home/u", []string{
			"repo/src/nested/deeper/c.go", "/home/u/repo/src/nested/deeper/c.go",
			"repo/src/nested/deeper/c.txt", "/home/u/repo/src/nested/deeper/c.txt"}},
	} {
		t.Run(c.value+" "+c.role, func(t *testing.T) {
			dir := e.Cwd
			if c.cwd != "" {
				dir = c.cwd
			}
			checks := e.treeChecks(bashfacts.Token{Value: c.value}, dir, c.role)
			var got []string
			for _, ch := range checks {
				if !ch.StrictOnly || ch.Within != c.value || ch.Strict != "" {
					t.Fatalf("check %+v: want a strict-only check within %s", ch, c.value)
				}
				for _, g := range ch.Forms {
					got = append(got, g[0])
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("reached\n %q\nwant\n %q", got, c.want)
			}
		})
	}
}

// TestTreeCheckSpellings: each path found is spelt as its folder is
// (as written, absolute, cwd-relative), and through a linked folder also
// at the link's target.
func TestTreeCheckSpellings(t *testing.T) {
	e := &Env{Cwd: "/home/u/repo", Home: "/home/u", FS: treeProject}
	checks := e.treeChecks(bashfacts.Token{Value: "."}, e.Cwd, TreeRole)
	if len(checks) != 1 || !slices.Equal(checks[0].Forms[0], []string{".env", "/home/u/repo/.env"}) {
		t.Errorf(". reaches %q first; want .env spelt relative and absolute", checks[0].Forms[0])
	}
	checks = e.treeChecks(bashfacts.Token{Value: "~"}, e.Cwd, TreeRole)
	if len(checks) != 1 || !slices.ContainsFunc(checks[0].Forms, func(g []string) bool { return slices.Equal(g, []string{"/home/u/.ssh/id_rsa"}) }) {
		t.Errorf("~ does not reach ~/.ssh/id_rsa: %+v", checks)
	}
	checks = e.treeChecks(bashfacts.Token{Value: "keys"}, e.Cwd, TreeRole)
	want := [][]string{{"keys/id_rsa", "/home/u/repo/keys/id_rsa"}, {"/home/u/.ssh/id_rsa"}}
	if len(checks) != 1 || !slices.EqualFunc(checks[0].Forms, want, slices.Equal) {
		t.Errorf("keys reaches %q; want %q", checks[0].Forms, want)
	}
}

// TestTreeChecksNothingToWalk: a file operand, a missing one and an empty
// folder add nothing (their own path checks stand); a folder after a cd to
// an unknown place asks.
func TestTreeChecksNothingToWalk(t *testing.T) {
	e := &Env{Cwd: "/r", Home: "/h", FS: MapFS{"/r/a.go": "file", "/r/empty": "dir"}}
	for _, v := range []string{"a.go", "missing", "empty"} {
		if got := e.treeChecks(bashfacts.Token{Value: v}, e.Cwd, TreeRole); len(got) != 0 {
			t.Errorf("%s: %+v; want no check", v, got)
		}
	}
	got := e.treeChecks(bashfacts.Token{Value: "src"}, "", TreeRole)
	if len(got) != 1 || !strings.Contains(got[0].Strict, "unknown place") || !got[0].StrictOnly {
		t.Errorf("after a cd to an unknown place: %+v; want one strict check", got)
	}
}

// bigFS is a folder /big of n files and nothing else, listed without
// building a map of n keys.
type bigFS struct{ n int }

func (b bigFS) Lstat(name string) (fs.FileMode, error) {
	switch name = path.Clean(name); {
	case name == "/" || name == "/big":
		return fs.ModeDir, nil
	case path.Dir(name) == "/big":
		return 0, nil
	}
	return 0, fs.ErrNotExist
}

func (bigFS) Readlink(string) (string, error) { return "", fs.ErrInvalid }

func (b bigFS) ReadDir(name string) ([]string, error) {
	if path.Clean(name) != "/big" {
		return nil, nil
	}
	names := make([]string, b.n)
	for i := range names {
		names[i] = fmt.Sprintf("f%05d", i)
	}
	return names, nil
}

// TestTreeChecksBound: a walk past maxTreeEntries stops, keeps what it
// found and asks for the folder.
func TestTreeChecksBound(t *testing.T) {
	e := &Env{Cwd: "/", Home: "/h", FS: bigFS{n: maxTreeEntries + 1}}
	got := e.treeChecks(bashfacts.Token{Value: "/big"}, "/", TreeRole)
	if len(got) != 2 || got[0].Within != "/big" || len(got[0].Forms) != maxTreeEntries ||
		!strings.Contains(got[1].Strict, fmt.Sprintf("more than %d entries", maxTreeEntries)) {
		t.Fatalf("a folder of %d entries: %d checks", maxTreeEntries+1, len(got))
	}
	e.FS = bigFS{n: maxTreeEntries}
	if got := e.treeChecks(bashfacts.Token{Value: "/big"}, "/", TreeRole); len(got) != 1 {
		t.Errorf("a folder of %d entries: %d checks; want the one within check", maxTreeEntries, len(got))
	}
}

// TestParseGitignore: the lines regate understands, and negation.
func TestParseGitignore(t *testing.T) {
	rules, negates := parseGitignore("# c\n\nbuild/\n*.log  \n/dist\na/b/*.o\n**/tmp\n**/x/y\na/**/b\n[!a]z\n[[:digit:]]\n\\!lit\n[z-a\n")
	var got []string
	for _, r := range rules {
		got = append(got, fmt.Sprintf("%s%s%v", r.name, strings.Join(r.parts, "|"), r.dirOnly))
	}
	want := []string{"buildtrue", "*.logfalse", "distfalse", "a|b|*.ofalse", "tmpfalse", "[^a]zfalse"}
	if !slices.Equal(got, want) || negates {
		t.Errorf("rules %q (negates %v); want %q", got, negates, want)
	}
	if _, negates := parseGitignore("a\n!b\n"); !negates {
		t.Error("a ! line does not negate")
	}
}

// TestTreeVisibleAgreesWithGit builds a repository on disk and requires a
// visible-only walk to reach every non-hidden file that git itself does not
// ignore (git ls-files --others --exclude-standard): whatever regate skips,
// git skips too. Skipped where git is absent.
func TestTreeVisibleAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	files := map[string]string{
		".gitignore":        "*.log\nbuild/\n/top.txt\ndocs/*.tmp\n[!a]x.c\n**/gen\n",
		"neg/.gitignore":    "*.pem\n!ok.pem\n",
		"esc/.gitignore":    "\\#lit\nliteral\\ space\n",
		"nested/.gitignore": "*.go\n",
	}
	for _, f := range []string{"a.log", "top.txt", "sub/top.txt", "ax.c", "bx.c", "build/o.bin", "sub/build/o.bin",
		"docs/a.tmp", "docs/x/a.tmp", "gen/g.go", "sub/gen/g.go", "src/main.go", "src/.env", ".hidden/x",
		"neg/ok.pem", "neg/no.pem", "esc/#lit", "esc/literal space", "nested/n.go", "nested/n.txt"} {
		files[f] = ""
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "HOME="+root, "GIT_CONFIG_NOSYSTEM=1", "XDG_CONFIG_HOME="+root)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	run("init", "-q", ".")
	e := &Env{Cwd: root, Home: "/nonexistent", FS: OSFS{}}
	reached := map[string]bool{}
	for _, c := range e.treeChecks(bashfacts.Token{Value: "."}, root, TreeVisibleRole) {
		for _, g := range c.Forms {
			reached[g[0]] = true
		}
	}
	for _, f := range strings.Split(strings.TrimSpace(run("ls-files", "--others", "--exclude-standard")), "\n") {
		hidden := slices.ContainsFunc(strings.Split(f, "/"), func(s string) bool { return strings.HasPrefix(s, ".") })
		if !hidden && !reached[f] {
			t.Errorf("git reads %s, which the visible-only walk skipped", f)
		}
	}
	if reached["a.log"] || reached["build/o.bin"] || !reached["nested/n.txt"] {
		t.Errorf("the walk reached %v; want *.log and build/ skipped, nested/n.txt reached", reached)
	}
}

// TestPathHintKeeps: a walk keeps a path one of whose spellings holds a
// fragment (without case) or is an exact path (without case or a trailing
// slash); a nil hint, or one that keeps all, keeps every path.
func TestPathHintKeeps(t *testing.T) {
	h := NewPathHint([]string{".env", "/home/u/.ssh/"}, []string{"/home/u", "/home/u/.claude/settings.json"}, false)
	for _, c := range []struct {
		groups [][]string
		want   bool
	}{
		{[][]string{{"config/.ENV", "/home/u/repo/config/.ENV"}}, true},
		{[][]string{{"keys/id", "/home/u/.ssh/id"}}, true},
		{[][]string{{"..", "/home/u"}}, true},
		{[][]string{{"../", "/home/u/"}}, true},
		{[][]string{{"x/settings.json", "/home/u/.Claude/settings.json"}}, true},
		{[][]string{{"src/a.go", "/home/u/repo/src/a.go"}}, false},
		{[][]string{{"u", "/home/u2"}}, false},
		{[][]string{{"a.txt"}, {"b", "/home/u/repo/.env.d"}}, true},
		{nil, false},
	} {
		if got := h.keeps(c.groups); got != c.want {
			t.Errorf("keeps(%q) = %v, want %v", c.groups, got, c.want)
		}
	}
	var none *PathHint
	if !none.keeps([][]string{{"a"}}) || !NewPathHint(nil, nil, true).keeps([][]string{{"a"}}) {
		t.Error("a nil hint, or one that keeps all, must keep every path")
	}
}
