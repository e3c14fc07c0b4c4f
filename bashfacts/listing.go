package bashfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Paths a command lists for another: `wc -l $(git ls-files '*.go')` reads
// the files git tracks that the pathspecs match, which the index names
// (facts/history.go reads it), not any path. A word that is exactly an
// unquoted $(git ls-files [--cached|-c] [--] PATHSPEC…) with literal
// pathspecs becomes a token that carries the listing (Token.Listing):
// facts gates the paths it stands for, and asks when one of them is not
// the word bash makes of it (a blank or a glob character in it, splitting
// or globbing it again; a leading "-", an option to the program). Any
// other option of ls-files, a magic pathspec or an expansion leaves the
// word what it was: an unknown path.

// Listing is what a $(git ls-files …) word stands for.
type Listing struct {
	// Pathspecs are the ls-files pathspecs, relative to the token's Dir;
	// none lists every tracked path.
	Pathspecs []string `json:"pathspecs,omitempty"`
}

// gitListing reads word as a $(git ls-files …) listing.
func (w *walker) gitListing(word *syntax.Word) (*Listing, bool) {
	if len(word.Parts) != 1 {
		return nil, false
	}
	cs, ok := word.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return nil, false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) < 2 {
		return nil, false
	}
	var words []string
	for _, a := range call.Args {
		v, lit := w.literal(a)
		if !lit {
			return nil, false
		}
		words = append(words, v)
	}
	if words[0] != "git" || words[1] != "ls-files" {
		return nil, false
	}
	l := &Listing{}
	options := true
	for _, v := range words[2:] {
		switch {
		case options && v == "--":
			options = false
		case options && (v == "--cached" || v == "-c"):
		case options && strings.HasPrefix(v, "-"), strings.HasPrefix(v, ":"), v == "":
			return nil, false // another listing, or a magic pathspec
		default:
			l.Pathspecs = append(l.Pathspecs, v)
		}
	}
	return l, true
}
