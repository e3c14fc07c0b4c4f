package ruledoc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// DidYouMean returns the key of known that key most likely misspells, or ""
// when none is close. Close means a case-insensitive edit distance
// (insertions, deletions, substitutions and swaps of neighbours) of at most
// a quarter of the candidate's length, and at least 1: "permision" and
// "Permission" suggest "permission", "mode" does not suggest "name". Of two
// equally close candidates the earlier in known wins, so the answer is
// stable.
func DidYouMean(key string, known []string) string {
	best, bestDist := "", 0
	k := strings.ToLower(key)
	for _, c := range known {
		if c == key {
			return ""
		}
		limit := min(max(utf8.RuneCountInString(c)/4, 1), 3)
		d := editDistance(k, strings.ToLower(c), limit)
		if d <= limit && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// counted in runes: the Levenshtein distance where swapping two neighbours
// costs one edit, as typing them in the wrong order is one mistake. It
// stops counting past limit (the answer is then limit+1), so a long key
// costs nothing against a list of short ones.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	// Three rows: the one before last (for swaps), the last, the current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// UnknownKeyMessage is the message of an unknown-key diagnostic: the key,
// where it stands ("" at the top level), what becomes of it ("is
// ignored"), and the key of known it most likely misspells. Every rule-file
// decoder words it the same way.
func UnknownKeyMessage(key string, known []string, where, effect string) string {
	msg := fmt.Sprintf("unknown key %q", key)
	if where != "" {
		msg += " in " + where
	}
	msg += " " + effect
	if s := DidYouMean(key, known); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg
}
