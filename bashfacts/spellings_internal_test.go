package bashfacts

import (
	"slices"
	"strings"
	"testing"
)

// TestOptionVariants: the spellings a unit's options are folded to, and
// the units left alone (doubling as FuzzCall seeds through the runtime's
// strict table).
func TestOptionVariants(t *testing.T) {
	for _, c := range []struct {
		unit     string
		includes []string
		none     bool
	}{
		{unit: "rm -fr build", includes: []string{"rm -rf build", "rm -r -f build", "rm --recursive --force build", "rm --force --recursive build"}},
		{unit: "rm -r -f build", includes: []string{"rm -rf build", "rm -fr build"}},
		{unit: "rm -Rf build", includes: []string{"rm -rf build"}},
		{unit: "rm --recursive --force build", includes: []string{"rm -rf build"}},
		{unit: "rm -rfv build", includes: []string{"rm -rf -v build", "rm -fr -v build", "rm -r -f -v build"}},
		{unit: "rm -rf", includes: []string{"rm -fr", "rm --recursive --force"}},
		{unit: "git push -f origin main", includes: []string{"git push --force origin main"}},
		{unit: "ls -la", includes: []string{"ls -al", "ls -l -a"}},
		{unit: "rm -f x.txt", includes: []string{"rm --force x.txt"}},
		{unit: "ls -l", none: true},
		{unit: "ls", none: true},
		{unit: "rm -fr --no-preserve-root /", includes: []string{"rm -rf --no-preserve-root /"}},
		{unit: "rm --no-preserve-root -fr /", includes: []string{"rm -rf --no-preserve-root /"}},
		{unit: "head -n5 x -v", none: true}, // a short option with a value: nothing folded
		{unit: "tar -xzf a.tgz", includes: []string{"tar -zxf a.tgz"}},
		{unit: "rm -abcde x", none: true}, // more than maxFoldedOptions
	} {
		got := optionVariants(c.unit)
		if c.none {
			if got != nil {
				t.Errorf("%q: %q, want none", c.unit, got)
			}
			continue
		}
		for _, w := range c.includes {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q lacks %q", c.unit, got, w)
			}
		}
		if slices.Contains(got, c.unit) {
			t.Errorf("%q: lists itself", c.unit)
		}
	}
}

// TestResolvedText: a word that walks back over a folder is spelt as the
// path it names; leading ".." components, "..." and a revision range are
// left as written, and a unit with no such word has no resolved text.
func TestResolvedText(t *testing.T) {
	for _, c := range []struct{ unit, want string }{
		{"bash scripts/../../../tmp/evil.sh", "bash ../../tmp/evil.sh"},
		{"./scripts/../x.sh --flag", "./x.sh --flag"},
		{"./scripts/../../evil.sh", "../evil.sh"},
		{"cat src/../README.md", "cat README.md"},
		{"cat /../etc/passwd", "cat /etc/passwd"},
		{"cat a//../b", "cat b"},
		{"make --file=build/../evil.mk", "make --file=evil.mk"},
		{"rm -rf build/../", "rm -rf ./"},
		{"ls ../..", ""},
		{"cat ../../a/b", ""},
		{"ls a/...", ""},
		{"git diff HEAD..main", ""},
		{"cat ./a/./b", ""},
		{"gcc -I../include x.c", ""},
	} {
		if got := resolvedText(strings.Fields(c.unit)); got != c.want {
			t.Errorf("%s: %q, want %q", c.unit, got, c.want)
		}
	}
}
