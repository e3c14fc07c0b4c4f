package bashfacts

import (
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// patternPrograms take a pattern or a script as their first operand (unless
// -e or -f gives it), which is never a path; sd takes two.
var patternPrograms = map[string]int{"grep": 1, "egrep": 1, "fgrep": 1, "rg": 1, "sed": 1, "awk": 1, "gawk": 1, "mawk": 1, "nawk": 1, "sd": 2}

// patternFlags give the pattern or script as their value (skipped);
// fileFlags give it from a file (a path).
var patternFlags = set("-e", "--regexp", "--expression")

var fileFlags = set("-f", "--file")

// argTokens adds the path candidates among a command's arguments: path-shaped
// words (dotfiles, relative and absolute paths, home forms), path-shaped
// values of --opt=value, and bare names, which the caller keeps only when
// they exist. URLs, flags and NAME=value words are not paths, nor are the
// pattern operands of grep, sed, awk, rg and sd.
func (w *walker) argTokens(prog string, words []*syntax.Word, consumed []bool, sc scope, m *modelRead) {
	st := argState{skipOperands: patternPrograms[prog]}
	if st.skipOperands > 0 {
		for _, word := range words {
			t, _ := w.wordText(word)
			name, _, _ := strings.Cut(t, "=")
			if patternFlags[name] || fileFlags[name] || (len(t) > 2 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:2], "ef")) {
				st.skipOperands = 0 // the pattern comes from a flag
			}
		}
	}
	for i, word := range words {
		if consumed[i] {
			continue
		}
		before := len(w.out.Tokens)
		w.argWord(prog, word, &st, sc)
		if m.res.Known {
			m.roles(w.out.Tokens[before:], i)
		} else {
			w.componentTokens(word, sc)
		}
	}
}

// componentTokens adds, for a program without a model, the paths joined
// inside one literal argument: the parts of a word that holds several,
// separated by ":" (docker run -v ~/.ssh:/k, a search path /a:/b) or ","
// with key= prefixes (docker run --mount type=bind,source=/etc,target=/x).
// Each part that looks like a path is a strict-only path token of its
// own: a program regate has no model of may well read it (a bind mount
// gives a container the whole folder).
func (w *walker) componentTokens(word *syntax.Word, sc scope) {
	text, lit := w.literal(word)
	if !lit || !strings.ContainsAny(text, ":,") || strings.Contains(text, "://") {
		return
	}
	for _, item := range strings.Split(text, ",") {
		if _, value, ok := strings.Cut(item, "="); ok {
			item = value
		}
		for _, part := range strings.Split(item, ":") {
			if part != "" && part != text && pathShaped(part) {
				w.strictToken(part, word, TokenArgument, sc)
			}
		}
	}
}

// argState is what argTokens carries from one word to the next.
type argState struct {
	skipNext     bool // the word is the value of a pattern flag
	skipOperands int  // pattern operands still to skip
}

// argWord adds the spec's path tokens of one argument.
func (w *walker) argWord(prog string, word *syntax.Word, st *argState, sc scope) {
	if v, ok := w.homeForm(word); ok {
		w.token(v, word, TokenArgument, false, sc)
		return
	}
	if w.placeTokens(word, TokenArgument, sc) {
		return
	}
	t, lit := w.literal(word)
	if !lit {
		t, lit = w.extglobText(word)
	}
	if st.skipNext {
		st.skipNext = false
		w.globbedOperand(word, sc)
		return
	}
	if !lit {
		st.skipOperands = w.dynamicOperand(word, st.skipOperands, sc)
		return
	}
	if t == "" || t == "-" {
		return
	}
	if len(t) > 1 && t[0] == '-' {
		if name, value, ok := strings.Cut(t, "="); ok && strings.HasPrefix(name, "--") {
			if pathShaped(value) {
				w.token(value, word, TokenOption, false, sc)
			}
		} else if patternPrograms[prog] > 0 && patternFlags[t] {
			st.skipNext = true
		}
		return
	}
	if st.skipOperands > 0 {
		st.skipOperands--
		w.globbedOperand(word, sc)
		return
	}
	if strings.Contains(t, "://") || argmodel.IsAssignment(t) {
		return
	}
	if !strings.Contains(t, "{") { // no braces: the word is its one token
		w.token(t, word, TokenArgument, !pathShaped(t), sc)
		return
	}
	for _, v := range w.braceExpand(word, t) {
		w.token(v, word, TokenArgument, !pathShaped(v), sc)
	}
}

// maxBraceWords bounds how many words one brace expansion yields as
// tokens; past it the word is kept as written.
const maxBraceWords = 256

// braceExpand returns the words bash makes of a literal word by brace
// expansion ({.env,x} is .env and x, a{1..3} is a1 a2 a3), or the word
// itself when it has none or expands past maxBraceWords. A word of more
// than MaxBraceGroups groups fails the walk (budget.go).
func (w *walker) braceExpand(word *syntax.Word, text string) []string {
	if !strings.Contains(text, "{") {
		return []string{text}
	}
	cp := &syntax.Word{Parts: slices.Clone(word.Parts)} // SplitBraces rewrites Parts
	if !syntax.SplitBraces(cp) || !w.braceGroupsWithin(cp) {
		return []string{text}
	}
	var out []string
	for ew, err := range expand.BracesSeq(nil, cp) {
		if err != nil || len(out) == maxBraceWords {
			return []string{text}
		}
		// Quotes around the braces' text are removed as bash removes
		// them ('$'r\ .e{n,}v is the two words "$r .env" and "$r .ev").
		v, lit := w.literal(ew)
		if !lit {
			return []string{text}
		}
		if v != "" {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return []string{text}
	}
	return out
}

// pathShaped reports whether a word looks like a path on its own: a dotfile
// or dot path, anything with a slash, or a home form. On POSIX a backslash
// is a filename character, not a separator.
func pathShaped(s string) bool {
	return strings.HasPrefix(s, ".") || strings.Contains(s, "/") || strings.HasPrefix(s, "~") ||
		(strings.HasPrefix(s, "$HOME") || strings.HasPrefix(s, "${HOME}")) && !strings.Contains(s, "://")
}
