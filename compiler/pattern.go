package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/regate/regate/internal/homedir"
)

// ExpandHome expands a leading ~, $HOME or ${HOME} of a pattern to home,
// as patterns are expanded before they are measured and matched (R1, R15).
func ExpandHome(s, home string) string { return homedir.Expand(s, home) }

// specificity is what orders the patterns of one map (R1): an exact pattern
// before any wildcard, then more literal characters, then fewer wildcards,
// then the longer pattern, then the later declaration.
type specificity struct {
	exact    bool
	literals int
	stars    int
	length   int
	decl     int
}

// less reports whether a is less specific than b.
func (a specificity) less(b specificity) bool {
	if a.exact != b.exact {
		return !a.exact
	}
	if a.literals != b.literals {
		return a.literals < b.literals
	}
	if a.stars != b.stars {
		return a.stars > b.stars
	}
	if a.length != b.length {
		return a.length < b.length
	}
	return a.decl < b.decl
}

// measure computes the specificity of an expanded pattern. A run of "*" is
// one wildcard; "?" is a wildcard but not a star; length counts characters
// as written.
func measure(expanded string, decl int) specificity {
	s := specificity{decl: decl, length: utf8.RuneCountInString(expanded)}
	prevStar := false
	wild := false
	for _, r := range expanded {
		switch r {
		case '*':
			if !prevStar {
				s.stars++
			}
			prevStar, wild = true, true
			continue
		case '?':
			wild = true
		default:
			s.literals++
		}
		prevStar = false
	}
	s.exact = !wild
	return s
}

// collapseStars turns every run of "*" into one "*": "**" is not a token of
// its own and behaves like "*".
func collapseStars(p string) string {
	if !strings.Contains(p, "**") {
		return p
	}
	var b strings.Builder
	prev := false
	for _, r := range p {
		if r == '*' && prev {
			continue
		}
		prev = r == '*'
		b.WriteRune(r)
	}
	return b.String()
}

// shape is how a pattern is indexed so that a decision never scans the whole
// map: exact strings by key, "LIT*" by prefix, "*LIT" by suffix, and the rest
// by their literal prefix, confirmed with glob.match.
type shape int

const (
	shapeExact shape = iota
	shapePrefix
	shapeSuffix
	shapeGlob
)

// classify returns the shape of a collapsed pattern and its index key.
func classify(p string) (shape, string) {
	i := strings.IndexAny(p, "*?")
	if i < 0 {
		return shapeExact, p
	}
	if p[i] == '*' && i == len(p)-1 {
		return shapePrefix, p[:i]
	}
	if i == 0 && p[0] == '*' && !strings.ContainsAny(p[1:], "*?") {
		return shapeSuffix, p[1:]
	}
	return shapeGlob, p[:i]
}

// globEscape turns a collapsed pattern into gobwas/glob syntax (what OPA's
// glob.match uses): "*" and "?" stay wildcards, every other glob
// metacharacter is escaped so that it matches itself.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '[', ']', '{', '}', '\\', ',', '!', '-', '^':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
