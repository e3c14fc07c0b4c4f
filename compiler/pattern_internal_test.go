package compiler

import (
	"sort"
	"testing"
)

// TestSpecificityOrder pins R1: each list is ordered from least to most
// specific, as measured by the compiler.
func TestSpecificityOrder(t *testing.T) {
	tests := [][]string{
		{"*", "git *", "git status"},               // exact before wildcard
		{"npm *", "npm run *"},                     // more literals
		{"*report*.csv", "report*.csv"},            // fewer stars
		{"web*", "web?*"},                          // longer (equal literals and stars)
		{"*.env", "*.env.*", "*.env.example"},      // the .env recipe
		{"*.env", "/home/u/repo/*"},                // an absolute allowlist outranks a suffix
		{"git *", "git"},                           // exact beats more literals
		{"lib*", "lib?"},                           // ? is not a star
		{"secrets/*", "secrets/**"},                // ** counts one star; longer as written
		{"/home/*", "~/projects/*"},                // home expanded before counting
		{"data-*", "*-tool"},                       // full tie: the later declaration
		{"$HOMEDIR/*", "/home/u/.ssh/known_hosts"}, // $HOMEDIR is not a home prefix
	}
	for _, order := range tests {
		rs := make([]ranked, len(order))
		for i, p := range order {
			e := ExpandHome(p, "/home/u")
			rs[i] = ranked{Rule: Rule{Pattern: p}, expanded: e, spec: measure(e, i)}
		}
		shuffled := append([]ranked(nil), rs...)
		for i, j := 0, len(shuffled)-1; i < j; i, j = i+1, j-1 {
			shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
		}
		sort.SliceStable(shuffled, func(i, j int) bool { return shuffled[i].spec.less(shuffled[j].spec) })
		for i := range order {
			if shuffled[i].Pattern != order[i] {
				var got []string
				for _, r := range shuffled {
					got = append(got, r.Pattern)
				}
				t.Errorf("order %q, want %q", got, order)
				break
			}
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		pattern string
		shape   shape
		key     string
	}{
		{"git status", shapeExact, "git status"},
		{"git *", shapePrefix, "git "},
		{"*", shapePrefix, ""},
		{"*.env", shapeSuffix, ".env"},
		{"*.env.*", shapeGlob, ""},
		{"a?c", shapeGlob, "a"},
		{"src/*/x", shapeGlob, "src/"},
	}
	for _, tc := range tests {
		sh, key := classify(tc.pattern)
		if sh != tc.shape || key != tc.key {
			t.Errorf("classify(%q) = %v %q, want %v %q", tc.pattern, sh, key, tc.shape, tc.key)
		}
	}
}

func TestExpandHome(t *testing.T) {
	tests := map[string]string{
		"~":           "/home/u",
		"~/x":         "/home/u/x",
		"$HOME/x":     "/home/u/x",
		"${HOME}":     "/home/u",
		"~alice/x":    "~alice/x",
		"$HOMEDIR/x":  "$HOMEDIR/x",
		"${HOME:-/t}": "${HOME:-/t}",
		"a/~/x":       "a/~/x",
		"${HOME}x/y":  "${HOME}x/y",
	}
	for in, want := range tests {
		if got := ExpandHome(in, "/home/u/"); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
}
