package importrules

import (
	"strings"
	"unicode/utf8"

	"github.com/regate/regate/internal/homedir"
)

// A rank is how specific a regate pattern is, as R1 of docs/policy.md
// orders the patterns of one map (compiler/pattern.go measures the same):
// exact before wildcard, then more literal characters, then fewer runs of
// "*", then the longer pattern. The declaration order, R1's last tie
// break, is left out: an import cannot rely on it.
type rank struct {
	exact    bool
	literals int
	stars    int
	length   int
}

func rankOf(pattern, home string) rank {
	p := homedir.Expand(pattern, home)
	r := rank{exact: true, length: utf8.RuneCountInString(p)}
	prevStar := false
	for _, c := range p {
		switch c {
		case '*':
			if !prevStar {
				r.stars++
			}
			prevStar, r.exact = true, false
			continue
		case '?':
			r.exact = false
		default:
			r.literals++
		}
		prevStar = false
	}
	return r
}

// atLeastAsSpecific reports whether a pattern of rank a wins over one of
// rank b in the same map, or may (an equal rank falls to the later
// declaration, which an import does not decide).
func (a rank) atLeastAsSpecific(b rank) bool {
	if a.exact != b.exact {
		return a.exact
	}
	if a.literals != b.literals {
		return a.literals > b.literals
	}
	if a.stars != b.stars {
		return a.stars < b.stars
	}
	return a.length >= b.length
}

// forms are the texts a pattern of surface matches as: a bash pattern
// ending in " *" also matches the bare command ("git *" matches "git").
func forms(surface, pattern, home string) []string {
	p := homedir.Expand(pattern, home)
	if bare, ok := strings.CutSuffix(p, " *"); ok && surface == "bash" {
		return []string{p, bare}
	}
	return []string{p}
}

// overlaps reports whether some value matches both patterns of surface.
func overlaps(surface, a, b, home string) bool {
	for _, fa := range forms(surface, a, home) {
		for _, fb := range forms(surface, b, home) {
			if globsMeet(fa, fb) {
				return true
			}
		}
	}
	return false
}

// globsMeet reports whether two regate globs ("*" any run of characters,
// "?" one character, everything else literal) match a common string. It
// walks both patterns at once, a search over pairs of positions: from
// (i, j), a "*" may match nothing (advance past it), or both consume one
// character they can agree on (a "*" stays where it is).
func globsMeet(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	type state struct{ i, j int }
	seen := map[state]bool{}
	stack := []state{{0, 0}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		i, j := s.i, s.j
		if i == len(ar) && j == len(br) {
			return true
		}
		if i < len(ar) && ar[i] == '*' {
			stack = append(stack, state{i + 1, j})
		}
		if j < len(br) && br[j] == '*' {
			stack = append(stack, state{i, j + 1})
		}
		if i < len(ar) && j < len(br) {
			ca, cb := ar[i], br[j]
			if ca == cb || isWild(ca) || isWild(cb) {
				ni, nj := i+1, j+1
				if ca == '*' {
					ni = i
				}
				if cb == '*' {
					nj = j
				}
				stack = append(stack, state{ni, nj})
			}
		}
	}
	return false
}

func isWild(r rune) bool { return r == '*' || r == '?' }
