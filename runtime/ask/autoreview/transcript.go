package autoreview

import (
	"strings"
	"unicode/utf8"
)

// An Entry is one entry of the session transcript the reviewer sees.
type Entry struct {
	// Role is user, assistant, answer (a structured user-interaction
	// answer) or tool (a tool result).
	Role string
	// Trusted entries (the user's own turns and answers) are kept first.
	Trusted bool
	Text    string
}

// Budget bounds the rendering (the spec's autoReview.transcript.*).
type Budget struct {
	MessageTokens       int // default 10000
	ToolTokens          int // default 10000
	MaxUntrustedEntries int // default 40
}

// Per-entry caps in estimated tokens, whatever the budgets.
const (
	MessageEntryCap = 2000
	ToolEntryCap    = 1000
)

// EstimateTokens counts conservatively: a quarter token per ASCII
// character, a whole token per other code point (the length/4 heuristic
// under-counts CJK two to four times).
func EstimateTokens(s string) float64 {
	t := 0.0
	for _, r := range s {
		if r < utf8.RuneSelf {
			t += 0.25
		} else {
			t++
		}
	}
	return t
}

// Stats describes a rendering, for the review log.
type Stats struct {
	Entries, Kept, Trusted, Untrusted, Capped int
	Tokens                                    float64
}

// Render renders the transcript for the reviewer: every entry capped (2000
// estimated tokens for messages, 1000 for tool results), trusted entries
// kept first, newest first, within their kind's budget; then the most
// recent untrusted entries fill what is left, at most MaxUntrustedEntries;
// the kept entries in their original order.
func Render(entries []Entry, b Budget) (string, Stats) {
	if b.MessageTokens <= 0 {
		b.MessageTokens = 10000
	}
	if b.ToolTokens <= 0 {
		b.ToolTokens = 10000
	}
	if b.MaxUntrustedEntries <= 0 {
		b.MaxUntrustedEntries = 40
	}
	st := Stats{Entries: len(entries)}
	texts := make([]string, len(entries))
	cost := make([]float64, len(entries))
	for i, e := range entries {
		limit := MessageEntryCap
		if e.Role == "tool" {
			limit = ToolEntryCap
		}
		texts[i] = e.Text
		if EstimateTokens(e.Text) > float64(limit) {
			texts[i] = capTokens(e.Text, float64(limit))
			st.Capped++
		}
		cost[i] = EstimateTokens(texts[i])
	}
	left := map[bool]float64{false: float64(b.MessageTokens), true: float64(b.ToolTokens)}
	keep := make([]bool, len(entries))
	take := func(i int) bool {
		isTool := entries[i].Role == "tool"
		if cost[i] > left[isTool] {
			return false
		}
		left[isTool] -= cost[i]
		keep[i] = true
		st.Tokens += cost[i]
		return true
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Trusted && take(i) {
			st.Trusted++
		}
	}
	for i := len(entries) - 1; i >= 0 && st.Untrusted < b.MaxUntrustedEntries; i-- {
		if !entries[i].Trusted && take(i) {
			st.Untrusted++
		}
	}
	var sb strings.Builder
	for i, e := range entries {
		if keep[i] {
			st.Kept++
			sb.WriteString("[" + e.Role + "] " + texts[i] + "\n")
		}
	}
	return sb.String(), st
}

// capTokens shortens s to at most limit estimated tokens, the last of them
// an ellipsis.
func capTokens(s string, limit float64) string {
	t := 1.0 // the ellipsis
	for i, r := range s {
		c := 0.25
		if r >= utf8.RuneSelf {
			c = 1
		}
		if t+c > limit {
			return s[:i] + "…"
		}
		t += c
	}
	return s
}
