package bashfacts

import (
	"strings"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// Globs as bash sees them. A word is a pattern when, after quoting is taken
// into account, it holds a character bash's pathname expansion honours: an
// unquoted * or ?, a [ that a ] closes, or an extglob group ?(…) *(…) +(…)
// @(…) !(…). The token then carries the pattern in bash's own notation
// (Token.Glob), quoted characters escaped, so that facts can match it with
// bash's rules: '*'.en? is \*.en?, whose * matches only a star.

// globMetaChars are the bytes without which a word cannot be a pattern,
// whatever its quoting: the cheap test before the exact one.
const globMetaChars = "*?[("

// globOf returns whether the token v, taken from word, is a pattern bash
// expands, and its pattern when that is not v itself. A token that is the
// whole word is judged exactly; one derived from it (a brace expansion, an
// option's value, $PWD's relative spelling) keeps the older reading: any
// unquoted * ? [ in the word.
func (w *walker) globOf(v string, word *syntax.Word) (bool, string) {
	if !strings.ContainsAny(v, globMetaChars) {
		return false, ""
	}
	if text, _ := w.wordText(word); text == v {
		if g, ok := w.globText(word); ok {
			switch {
			case !hasGlobMeta(g):
				return false, ""
			case g == v:
				return true, ""
			}
			return true, g
		}
	}
	return strings.ContainsAny(v, "*?[") && w.globs(word), ""
}

// globText renders a word as a bash pattern: unquoted literals as written
// (their backslashes are the pattern's escapes), quoted text escaped, a
// leading $HOME or ${HOME} kept for the caller to expand, extglob groups as
// written. It fails for any other expansion, and for an extglob group
// whose own text quotes or expands (bash would remove the quotes first).
func (w *walker) globText(word *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, p := range flattenQuotes(word.Parts) {
		switch part := p.part.(type) {
		case *syntax.Lit:
			if p.quoted {
				b.WriteString(globQuote(unescapeDouble(part.Value)))
			} else {
				b.WriteString(strings.ReplaceAll(part.Value, "\\\n", ""))
			}
		case *syntax.SglQuoted:
			v := part.Value
			if part.Dollar {
				v = unescapeANSI(v)
			}
			b.WriteString(globQuote(v))
		case *syntax.ParamExp:
			v, ok := w.homeForm(word)
			if i != 0 || !ok {
				return "", false
			}
			if strings.HasPrefix(v, "${HOME}") {
				b.WriteString("${HOME}")
			} else {
				b.WriteString("$HOME")
			}
		case *syntax.ExtGlob:
			if p.quoted || part.Pattern == nil || strings.ContainsAny(part.Pattern.Value, "'\"$`") {
				return "", false
			}
			b.WriteString(part.Op.String())
			b.WriteString(strings.ReplaceAll(part.Pattern.Value, "\\\n", ""))
			b.WriteByte(')')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// globQuote escapes the characters a bash pattern gives a meaning to, so
// that quoted text matches only itself. A slash stays: quoted or not, it
// separates the path's components.
func globQuote(s string) string {
	if !strings.ContainsAny(s, `*?[]\()|!@+`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]\()|!@+`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasGlobMeta reports whether a bash pattern expands: an unescaped * or ?,
// a bracket expression, or an extglob group.
func hasGlobMeta(p string) bool {
	if pattern.HasMeta(p, 0) {
		return true
	}
	for i := 0; i+1 < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '+', '@', '!':
			if p[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// hasExtglob reports a word with an unquoted extglob group.
func hasExtglob(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if _, ok := p.(*syntax.ExtGlob); ok {
			return true
		}
	}
	return false
}

// extglobText is the text of a word whose only expansions are extglob
// groups (@(.env|x)): such a word is a pattern, not an expansion, and is
// a path candidate as a glob is.
func (w *walker) extglobText(word *syntax.Word) (string, bool) {
	if !hasExtglob(word) {
		return "", false
	}
	if _, ok := w.globText(word); !ok {
		return "", false
	}
	t, _ := w.wordText(word)
	return t, true
}

// globbedOperand adds, for an operand a program reads as a pattern or a
// script (grep's first operand, sed's), the words bash makes of it when it
// is a glob or a brace: bash expands it before the program runs, so its
// second and later words are files the program reads (grep {x,.env} reads
// .env). They are strict mode's alone, as the spec reads the word as a
// pattern.
func (w *walker) globbedOperand(word *syntax.Word, sc scope) {
	t, lit := w.literal(word)
	if !lit {
		t, lit = w.extglobText(word)
	}
	if !lit || t == "" {
		return
	}
	if strings.Contains(t, "{") {
		if words := w.braceExpand(word, t); len(words) > 1 {
			for _, v := range words {
				w.strictToken(v, word, TokenArgument, sc)
				w.out.Tokens[len(w.out.Tokens)-1].Bare = !pathShaped(v)
			}
			return
		}
	}
	if isPattern, _ := w.globOf(t, word); isPattern {
		w.strictToken(t, word, TokenArgument, sc)
		w.out.Tokens[len(w.out.Tokens)-1].Bare = !pathShaped(t)
	}
}

// UnescapeGlob is a pattern's text with its escapes removed: the word
// after quote removal ('*'.en? for \*.en?), and the name a component
// without glob characters stands for.
func UnescapeGlob(p string) string {
	if !strings.Contains(p, `\`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
