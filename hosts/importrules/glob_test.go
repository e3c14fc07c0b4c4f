package importrules

import (
	"testing"
)

func TestGlobsMeet(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"git status", "git status", true},
		{"git status", "git log", false},
		{"git *", "git status", true},
		{"git *", "npm *", false},
		{"* --version", "git push *", true}, // git push --version
		{"*.env", "src/*", true},            // src/a.env
		{"*.env", "*.txt", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"*", "", true},
		{"x*y*z", "*q*", true},
		{"ab*", "*ba", true}, // aba? needs "ab…ba": "abba"
		{"a*", "b*", false},
	} {
		if got := globsMeet(c.a, c.b); got != c.want {
			t.Errorf("globsMeet(%q, %q) = %v", c.a, c.b, got)
		}
		if got := globsMeet(c.b, c.a); got != c.want {
			t.Errorf("globsMeet(%q, %q) = %v (reversed)", c.b, c.a, got)
		}
	}
}

// TestRank follows R1: exact before wildcard, then literals, then fewer
// stars, then length.
func TestRank(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool // a is at least as specific as b
	}{
		{"git status", "git *", true},
		{"git *", "git status", false},
		{"git push *", "git *", true},
		{"* --version", "git push *", true}, // 10 literals against 9
		{"a*b*", "a*bc", false},
		{"~/x/*", "/home/u/x/*", true}, // home expanded: equal
	} {
		if got := rankOf(c.a, "/home/u").atLeastAsSpecific(rankOf(c.b, "/home/u")); got != c.want {
			t.Errorf("%q at least as specific as %q: %v", c.a, c.b, got)
		}
	}
}

func TestOverlapsBareBash(t *testing.T) {
	// "git *" also matches the bare "git" on the bash surface only.
	if !overlaps("bash", "git *", "git", "") {
		t.Error(`bash "git *" does not meet "git"`)
	}
	if overlaps("path", "git *", "git", "") {
		t.Error(`path "git *" meets "git"`)
	}
}
