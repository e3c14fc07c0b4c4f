package bashfacts

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The word budget (MaxWords) counts words as bash makes them, after brace
// expansion: `echo {a,b}{a,b}…` with 30 groups is one word to the parser
// and 2^30 to bash, which would exhaust the host's memory before it ran.
// Counting is linear in the word; the count saturates past MaxWords.

// expandedCount is how many words bash makes of words, at most
// MaxWords+1.
func expandedCount(words []*syntax.Word) int {
	n := 0
	for _, w := range words {
		n = saturate(n + expandedWords(w))
	}
	return n
}

// expandedWords is how many words bash makes of word by brace expansion
// (1 for a word without braces), at most MaxWords+1.
func expandedWords(word *syntax.Word) int {
	if !hasLiteralBrace(word) {
		return 1
	}
	cp := &syntax.Word{Parts: slices.Clone(word.Parts)} // SplitBraces rewrites Parts
	if !syntax.SplitBraces(cp) {
		return 1
	}
	return braceProduct(cp.Parts)
}

func hasLiteralBrace(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if lit, ok := p.(*syntax.Lit); ok && strings.Contains(lit.Value, "{") {
			return true
		}
	}
	return false
}

// braceProduct multiplies the sizes of the brace groups among parts.
func braceProduct(parts []syntax.WordPart) int {
	n := 1
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		g := 0
		if b.Sequence {
			g = sequenceLen(b.Elems)
		} else {
			for _, e := range b.Elems {
				g = saturate(g + braceProduct(e.Parts))
			}
		}
		n = saturate(n * max(g, 1))
	}
	return n
}

// sequenceLen is how many words {x..y[..incr]} makes: numbers or single
// letters; anything else bash leaves as written (one word).
func sequenceLen(elems []*syntax.Word) int {
	if len(elems) < 2 {
		return 1
	}
	from, okFrom := sequenceEnd(elems[0].Lit())
	to, okTo := sequenceEnd(elems[1].Lit())
	if !okFrom || !okTo {
		return 1
	}
	step := int64(1)
	if len(elems) > 2 {
		s, err := strconv.ParseInt(elems[2].Lit(), 10, 64)
		if err != nil {
			return 1
		}
		step = max(s, -s, 1)
	}
	span := to - from
	if span < 0 {
		span = -span
	}
	if span/step >= MaxWords {
		return MaxWords + 1
	}
	return int(span/step) + 1
}

func sequenceEnd(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return max(min(n, 1<<40), -1<<40), true
	}
	if len(s) == 1 {
		return int64(s[0]), true
	}
	return 0, false
}

func saturate(n int) int { return min(n, MaxWords+1) }
