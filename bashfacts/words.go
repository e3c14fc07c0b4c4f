package bashfacts

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// wordText rebuilds a word after quote removal and escape processing (R11):
// literal parts give their value, every expansion keeps its source text, and
// dynamic reports whether there was one.
func (w *walker) wordText(word *syntax.Word) (text string, dynamic bool) {
	if len(word.Parts) == 1 {
		// Most words are one literal part: its text needs no buffer.
		if t, ok := singlePartText(word.Parts[0]); ok {
			return t, false
		}
	}
	var b strings.Builder
	for _, part := range word.Parts {
		if w.partText(&b, part, false) {
			dynamic = true
		}
	}
	return b.String(), dynamic
}

// singlePartText is partText for the static parts whose text is a
// substring or unescaped copy of one value.
func singlePartText(part syntax.WordPart) (string, bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		return unescapeBare(p.Value), true
	case *syntax.SglQuoted:
		if !p.Dollar {
			return p.Value, true
		}
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return "", true
		}
		if lit, ok := p.Parts[0].(*syntax.Lit); ok && len(p.Parts) == 1 {
			return unescapeDouble(lit.Value), true
		}
	}
	return "", false
}

func (w *walker) partText(b *strings.Builder, part syntax.WordPart, quoted bool) (dynamic bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		if quoted {
			b.WriteString(unescapeDouble(p.Value))
		} else {
			b.WriteString(unescapeBare(p.Value))
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(unescapeANSI(p.Value))
		} else {
			b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if w.partText(b, q, true) {
				dynamic = true
			}
		}
	default:
		b.WriteString(w.source(part))
		dynamic = true
	}
	return dynamic
}

// literal is the word's value when it has no expansion.
func (w *walker) literal(word *syntax.Word) (string, bool) {
	text, dynamic := w.wordText(word)
	return text, !dynamic
}

// placeWord splits a word that begins with the working directory ($PWD,
// ${PWD}, $(pwd)) or the home ($HOME, ${HOME}), quoted or not, into that
// place, spelt "." or as written ("$HOME", "${HOME}"), and the literal
// text after it; false for any other word, or one with another expansion.
func (w *walker) placeWord(word *syntax.Word) (head, rest string, ok bool) {
	parts := flattenQuotes(word.Parts)
	if len(parts) == 0 {
		return "", "", false
	}
	switch pe, _ := parts[0].part.(*syntax.ParamExp); {
	case namesPwd(parts[0].part):
		head = "."
	case pe != nil && pe.Param != nil && pe.Param.Value == "HOME" && isSimpleParam(pe):
		head = "${HOME}"
		if pe.Short {
			head = "$HOME"
		}
	default:
		return "", "", false
	}
	var b strings.Builder
	for _, p := range parts[1:] {
		if w.partText(&b, p.part, p.quoted) {
			return "", "", false
		}
	}
	return head, b.String(), true
}

// homeForm recognises $HOME and ${HOME}, alone or before a "/…" literal,
// quoted or not ("$HOME/.ssh", "$HOME"/.ssh, ${HOME}/x), and returns the
// word as written without quotes ("$HOME/.ssh") for the caller to expand.
func (w *walker) homeForm(word *syntax.Word) (string, bool) {
	if !startsWithParam(word.Parts) {
		return "", false // the cheap test: homeForm sees every argument
	}
	head, rest, ok := w.placeWord(word)
	if !ok || head == "." || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return "", false
	}
	return head + rest, true
}

// pwdForm is a word that names a place below the working directory through
// $PWD, ${PWD} or $(pwd) (quoted or not, before nothing or a "/"), spelt
// as the relative path it stands for: "$PWD/.env" is "./.env". The spec
// expands no variable but HOME, so such a token is strict mode's alone.
func (w *walker) pwdForm(word *syntax.Word) (string, bool) {
	head, rest, ok := w.placeWord(word)
	if !ok || head != "." || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return "", false
	}
	return head + rest, true
}

// joinedPlace is a word that begins with the working directory or the
// home followed by literal text that begins with ":" ("$PWD":/src, a
// docker mount SRC:DST): the text it stands for, the place spelt as
// placeWord spells it. Only a program's model reads it, splitting the
// word where the program does.
func (w *walker) joinedPlace(word *syntax.Word) (string, bool) {
	head, rest, ok := w.placeWord(word)
	if !ok || !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return head + rest, true
}

// namesPwd reports whether part is $PWD, ${PWD} or $(pwd) with at most
// -L or -P: the working directory.
func namesPwd(part syntax.WordPart) bool {
	switch p := part.(type) {
	case *syntax.ParamExp:
		return p.Param != nil && p.Param.Value == "PWD" && p.Exp == nil && p.Slice == nil && p.Repl == nil &&
			!p.Length && !p.Excl && p.Index == nil && !p.Width && p.Names == 0
	case *syntax.CmdSubst:
		if len(p.Stmts) != 1 || p.Stmts[0].Background || len(p.Stmts[0].Redirs) > 0 {
			return false
		}
		call, ok := p.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || len(call.Args) > 2 {
			return false
		}
		for i, a := range call.Args {
			lit := a.Lit()
			if (i == 0 && lit != "pwd") || (i == 1 && lit != "-L" && lit != "-P") {
				return false
			}
		}
		return true
	}
	return false
}

// startsWithParam reports whether a word opens with a parameter
// expansion, quoted or not: the cheap test before homeForm's.
func startsWithParam(parts []syntax.WordPart) bool {
	if len(parts) == 0 {
		return false
	}
	first := parts[0]
	if dq, ok := first.(*syntax.DblQuoted); ok {
		if len(dq.Parts) == 0 {
			return false
		}
		first = dq.Parts[0]
	}
	_, ok := first.(*syntax.ParamExp)
	return ok
}

type quotedPart struct {
	part   syntax.WordPart
	quoted bool
}

// flattenQuotes lists a word's parts with double-quoted ones opened up.
func flattenQuotes(parts []syntax.WordPart) []quotedPart {
	var out []quotedPart
	for _, p := range parts {
		if dq, ok := p.(*syntax.DblQuoted); ok {
			for _, q := range dq.Parts {
				out = append(out, quotedPart{q, true})
			}
			continue
		}
		out = append(out, quotedPart{p, false})
	}
	if len(out) == 0 {
		out = append(out, quotedPart{&syntax.Lit{}, false})
	}
	return out
}

// source is the text of a node as written.
func (w *walker) source(n syntax.Node) string { return w.sourceBetween(n, n) }

// sourceBetween is the text as written from the start of one node to the
// end of another.
func (w *walker) sourceBetween(from, to syntax.Node) string {
	start, end := int(from.Pos().Offset()), int(to.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// unescapeBare removes the backslashes of an unquoted literal: "\x" is "x"
// and a backslash-newline joins the lines.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that escape inside double quotes:
// before $, `, ", \ and newline; other backslashes stay.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeANSI processes the escapes of $'…'.
func unescapeANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x', 'u', 'U', '0', '1', '2', '3', '4', '5', '6', '7':
			base, max := 16, map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			start := i + 1
			if e >= '0' && e <= '7' {
				base, max, start = 8, 3, i
			}
			end := start
			for end < len(s) && end-start < max && isDigit(s[end], base) {
				end++
			}
			if end == start {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[start:end], base, 32)
			if e == 'x' || base == 8 {
				b.WriteByte(byte(n))
			} else if utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
			}
			i = end - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case c >= '8' && c <= '9':
		return base >= 10
	case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}
