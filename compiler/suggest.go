package compiler

import "github.com/regate/regate/compiler/internal/ruledoc"

// DidYouMean returns the key of known that key most likely misspells, or ""
// when none is close. Close means a case-insensitive edit distance
// (insertions, deletions, substitutions and swaps of neighbours) of at most
// a quarter of the candidate's length, and at least 1: "permision" and
// "Permission" suggest "permission", "mode" does not suggest "name". Of two
// equally close candidates the earlier in known wins, so the answer is
// stable.
func DidYouMean(key string, known []string) string { return ruledoc.DidYouMean(key, known) }

// UnknownKeyMessage is the message of an unknown-key diagnostic: the key,
// where it stands ("" at the top level), what becomes of it ("is
// ignored"), and the key of known it most likely misspells. Every rule-file
// decoder words it the same way.
func UnknownKeyMessage(key string, known []string, where, effect string) string {
	return ruledoc.UnknownKeyMessage(key, known, where, effect)
}
