package compiler

import (
	"fmt"
	"strings"
	"testing"
)

// largeMap is a path map of n rules that all overlap ("*i*/*j*"), half of
// them denies: the worst case for the lint, every pair a search.
func largeMap(n int) *Permission {
	s := &Surface{Name: "path", Pos: Pos{File: "policy.jsonc", Line: 1, Col: 1}}
	for i := range n {
		a := Allow
		if i%2 == 0 {
			a = Deny
		}
		s.Rules = append(s.Rules, Rule{Pattern: fmt.Sprintf("*%d*/*%d*", i, i*7), Action: a, Pos: Pos{File: "policy.jsonc", Line: i + 2, Col: 3}})
	}
	return &Permission{Surfaces: []*Surface{s}}
}

// TestPrecedenceLintBudget: a map too large to compare every pair within
// the budget says so once, as a warning, and the lint stops soon after the
// budget runs out.
func TestPrecedenceLintBudget(t *testing.T) {
	var d diags
	lintPermission(largeMap(400), "/home/me", &budget{left: 200_000}, &d)
	unchecked := 0
	for _, e := range d.List {
		if e.Code == CodePrecedenceUnchecked {
			unchecked++
			if e.Severity != SeverityWarning || e.Pos.Line != 1 || !strings.Contains(e.Msg, `400 rules of "path"`) {
				t.Errorf("unexpected %s", e)
			}
		}
	}
	if unchecked != 1 {
		t.Errorf("want one %s warning, got %d of %d diagnostics", CodePrecedenceUnchecked, unchecked, len(d.List))
	}
}

// exactMap is a path map of n exact paths, allows and denies, absolute and
// relative, beside a few wildcards: the shape of a large generated policy.
func exactMap(n int) *Permission {
	s := &Surface{Name: "path", Pos: Pos{File: "policy.jsonc", Line: 1, Col: 1}}
	add := func(p string, a Action) {
		s.Rules = append(s.Rules, Rule{Pattern: p, Action: a, Pos: Pos{File: "policy.jsonc", Line: len(s.Rules) + 2, Col: 3}})
	}
	for _, p := range []string{"*", "src/*", "/srv/app/*"} {
		add(p, Allow)
	}
	for _, p := range []string{"*.env", "*.pem", "~/.ssh/*"} {
		add(p, Deny)
	}
	for i := range n {
		switch i % 4 {
		case 0:
			add(fmt.Sprintf("/srv/app/data/f%d.txt", i), Allow)
		case 1:
			add(fmt.Sprintf("data/f%d.txt", i-1), Deny)
		case 2:
			add(fmt.Sprintf("docs/page%d.md", i), Allow)
		default:
			add(fmt.Sprintf("secrets/k%d.env", i), Deny)
		}
	}
	return &Permission{Surfaces: []*Surface{s}}
}

// BenchmarkPrecedenceLint measures the lint on the worst-case map (every
// pair overlaps) and on a large map of exact rules, within the compiler's
// own budget: the most check and export ever spend on precedence.
func BenchmarkPrecedenceLint(b *testing.B) {
	maps := map[string]*Permission{"overlapping-50": largeMap(50), "overlapping-3000": largeMap(3000), "exact-20000": exactMap(20000)}
	for name, p := range maps {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var d diags
				lintPermission(p, "/home/me", &budget{left: lintBudgetSteps}, &d)
			}
		})
	}
}
