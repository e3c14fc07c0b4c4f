package bashfacts

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Places a word names through an expansion (docs/strict.md, "Paths as the
// kernel resolves them"). The spec expands ~, $HOME and ${HOME} alone
// (R15); bash expands more, and strict mode follows it:
//
//   - the working directory where the command stands: $PWD, ${PWD}, $(pwd),
//     ~+ (unquoted), and ${PWD:-…} and the like;
//   - the home: ${HOME:-…}, ${HOME-…}, ${HOME:=…}, ${HOME=…}, ${HOME:?…},
//     ${HOME?…}, ${HOME%/}, ${HOME%%/} (HOME is set and not empty);
//     ${HOME:+WORD} and ${HOME+WORD} are WORD;
//   - the previous working directory: ~- (unquoted), $OLDPWD, ${OLDPWD},
//     known only after a literal cd earlier in the command.
//
// Each is a strict-only token spelt as the place it names. Any other
// expansion in a word shaped like a path ($DIR/.env, .en$V, "${X}"/id_rsa,
// $(cmd) whose output is the word) is a strict-only token marked Unknown:
// strict mode asks, since regate cannot know the path. A word that is only
// a variable's value, with no path shape ("$msg"), is not taken for a path.

// unknownPlace says why a word's path is not known.
func unknownPlace(text string) string {
	return "the path " + text + " depends on an expansion regate does not know"
}

// place is where a word points through an expansion: base is "." (the
// working directory), "~" (the home), "-" (the previous working
// directory) or a literal path (${HOME:+WORD}); rest is "" or "/…".
type place struct {
	base, rest string
	// unknown is set when an expansion regate does not resolve stands in
	// the word.
	unknown bool
	// spec is set for ~+ and ~-, which the spec reads as a relative path
	// of that name: the caller keeps that reading too.
	spec bool
}

// placeOf recognises a word that names a place through an expansion or a
// tilde form (the list above).
func (w *walker) placeOf(word *syntax.Word) (place, bool) {
	if !mayNamePlace(word) {
		return place{}, false
	}
	if v, ok := w.pwdForm(word); ok {
		return place{base: ".", rest: strings.TrimPrefix(v, ".")}, true
	}
	parts := flattenQuotes(word.Parts)
	tail := func(from []quotedPart, head string) (string, bool) {
		var b strings.Builder
		b.WriteString(head)
		for _, p := range from {
			if w.partText(&b, p.part, p.quoted) {
				return "", false
			}
		}
		r := b.String()
		return r, r == "" || r[0] == '/'
	}
	if lit, ok := parts[0].part.(*syntax.Lit); ok && !parts[0].quoted {
		head, ok := tildePlace(lit.Value)
		if !ok {
			return place{}, false
		}
		r, known := tail(parts[1:], head)
		base := "." // ~+
		if lit.Value[1] == '-' {
			base = "-"
		}
		return place{base: base, rest: r, unknown: !known, spec: true}, true
	}
	pe, ok := parts[0].part.(*syntax.ParamExp)
	if !ok || pe.Param == nil {
		return place{}, false
	}
	name := pe.Param.Value
	if name != "HOME" && name != "PWD" && name != "OLDPWD" {
		return place{}, false
	}
	r, known := tail(parts[1:], "")
	value, valueKnown := w.paramValue(pe)
	p := place{rest: r, unknown: !known || !valueKnown}
	switch {
	case value != "":
		p.base = value
	case name == "HOME":
		p.base = "~"
	case name == "PWD":
		p.base = "."
	default:
		p.base = "-"
	}
	return p, true
}

// placeTokens adds the strict tokens of a word that names a place through
// an expansion or a tilde form. It reports whether the word is done with:
// a ~+ or ~- word keeps its spec reading (a relative path named "~+…"),
// which the caller adds as for any literal word.
func (w *walker) placeTokens(word *syntax.Word, kind string, sc scope) bool {
	p, ok := w.placeOf(word)
	if !ok {
		return false
	}
	text, _ := w.wordText(word)
	switch {
	case p.unknown:
		w.unknownToken(text, word, kind, unknownPlace(text), sc)
	case p.base == "-":
		w.oldPwdToken(p.rest, text, word, kind, sc)
	case p.base == "." || p.base == "~":
		w.strictToken(p.base+p.rest, word, kind, sc)
	default:
		w.strictToken(below(p.base, p.rest), word, kind, sc)
	}
	return !p.spec
}

// knownPlace is the path a word names through a known place (${HOME:-x}/a
// is ~/a), as placeTokens spells it; false for any other word, and for a
// place regate does not know.
func (w *walker) knownPlace(word *syntax.Word) (string, bool) {
	p, ok := w.placeOf(word)
	switch {
	case !ok || p.unknown || p.base == "-":
		return "", false
	case p.base == "." || p.base == "~":
		return p.base + p.rest, true
	}
	return below(p.base, p.rest), true
}

// placeDir is the directory a cd to such a word goes to.
func (w *walker) placeDir(word *syntax.Word, sc scope) (Dir, bool) {
	p, ok := w.placeOf(word)
	if !ok {
		return Dir{}, false
	}
	var d string
	switch {
	case p.unknown:
		return unknownDir, true
	case p.base == "-":
		if !sc.dir.oldKnown {
			return unknownDir, true
		}
		d = below(sc.dir.old, p.rest)
	case p.base == "~":
		d = path.Clean("~" + p.rest)
	case p.base == "." || !path.IsAbs(p.base):
		if sc.dir.Unknown {
			return unknownDir, true
		}
		d = below(path.Join(sc.dir.Path, p.base), p.rest)
	default:
		d = below(p.base, p.rest)
	}
	if d == "." {
		d = ""
	}
	return Dir{Path: d}, true
}

// mayNamePlace is placeOf's cheap first test, made on every argument: a
// word that opens with an unquoted "~", a parameter expansion or a command
// substitution.
func mayNamePlace(word *syntax.Word) bool {
	if len(word.Parts) == 0 {
		return false
	}
	first, quoted := word.Parts[0], false
	if dq, ok := first.(*syntax.DblQuoted); ok {
		if len(dq.Parts) == 0 {
			return false
		}
		first, quoted = dq.Parts[0], true
	}
	switch p := first.(type) {
	case *syntax.Lit:
		return !quoted && strings.HasPrefix(p.Value, "~")
	case *syntax.ParamExp, *syntax.CmdSubst:
		return true
	}
	return false
}

// tildePlace reports an unquoted word start that is ~+ or ~- (alone or
// before a "/"), and what follows it.
func tildePlace(s string) (string, bool) {
	if !strings.HasPrefix(s, "~+") && !strings.HasPrefix(s, "~-") {
		return "", false
	}
	rest := s[2:]
	return rest, rest == "" || rest[0] == '/'
}

// paramValue is what a parameter expansion of HOME, PWD or OLDPWD gives
// when bash reads it the one way regate knows: value "" and known true
// means the variable's own value; a non-empty value is a literal word
// (${HOME:+WORD}). Anything else (a slice, a replacement, a prefix
// removal) is not known.
func (w *walker) paramValue(pe *syntax.ParamExp) (string, bool) {
	if isSimpleParam(pe) {
		return "", true
	}
	if pe.Exp == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 {
		return "", false
	}
	word := ""
	if pe.Exp.Word != nil {
		t, lit := w.literal(pe.Exp.Word)
		if !lit {
			return "", false
		}
		word = t
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		// HOME and PWD are set and not empty, so the default is never
		// taken. OLDPWD may be unset: only its own value is known then.
		if pe.Param.Value == "OLDPWD" {
			return "", false
		}
		return "", true
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		// Dropping a trailing slash names the same place.
		return "", word == "/"
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if pe.Param.Value == "OLDPWD" || word == "" {
			return "", false
		}
		return word, true
	}
	return "", false
}

// isSimpleParam reports $NAME or ${NAME} with nothing else.
func isSimpleParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Exp == nil && pe.Slice == nil && pe.Repl == nil && !pe.Length && !pe.Excl &&
		pe.Index == nil && !pe.Width && pe.Names == 0
}

// oldPwdToken adds the token of a path below the previous working
// directory: known after a literal cd earlier in the command, else an
// unknown path.
func (w *walker) oldPwdToken(rest, text string, word *syntax.Word, kind string, sc scope) {
	if !sc.dir.oldKnown {
		w.unknownToken(text, word, kind, "~- and $OLDPWD are the previous working directory, which regate knows only after a literal cd in the command", sc)
		return
	}
	v := below(sc.dir.old, rest)
	if !path.IsAbs(v) && v != "~" && !strings.HasPrefix(v, "~/") && v != "." && !strings.HasPrefix(v, "../") && v != ".." {
		v = "./" + v
	}
	start := sc
	start.dir = Dir{} // the old directory is relative to where the command started
	w.strictToken(v, word, kind, start)
}

// unknownToken adds a strict-only token whose path regate cannot know.
func (w *walker) unknownToken(text string, word *syntax.Word, kind, why string, sc scope) {
	w.out.Tokens = append(w.out.Tokens, Token{Value: text, Pos: w.pos(word.Pos()), Kind: kind, Dir: sc.dir,
		StrictOnly: true, Unknown: why})
}

// dynamicOperand takes a word with an expansion among a command's
// arguments: an option whose value is shaped like a path, or an operand
// shaped like a path, is an unknown path. skip is how many operands are
// still a pattern (grep's first); it returns what is left.
func (w *walker) dynamicOperand(word *syntax.Word, skip int, sc scope) int {
	parts := flattenQuotes(word.Parts)
	head := literalPrefix(parts)
	text, _ := w.wordText(word)
	if strings.HasPrefix(head, "-") && len(text) > 1 {
		if _, value, ok := strings.Cut(text, "="); ok && value != "" && strings.Contains(head, "=") && strings.HasPrefix(head, "--") &&
			(strings.ContainsAny(value[:1], ".~/") || literalSlash(parts)) {
			w.unknownToken(value, word, TokenOption, unknownPlace(value), sc)
		}
		return skip
	}
	if skip > 0 {
		return skip - 1
	}
	if l, ok := w.gitListing(word); ok {
		w.token(text, word, TokenArgument, false, sc)
		t := &w.out.Tokens[len(w.out.Tokens)-1]
		t.StrictOnly, t.Pattern, t.Glob, t.Listing = true, false, "", l
		return skip
	}
	if w.substitutedToken(word, TokenArgument, sc) {
		return skip
	}
	if pathLike(parts, head) {
		w.unknownToken(text, word, TokenArgument, unknownPlace(text), sc)
	}
	return skip
}

// dynamicRedirect takes a redirect target with an expansion: always a file
// (or a descriptor, which regate cannot tell apart), so an unknown path.
func (w *walker) dynamicRedirect(r *syntax.Redirect, sc scope) {
	if len(r.Word.Parts) == 1 {
		if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
			return // < <(cmd): a pipe from a command walked as units of its own
		}
	}
	from := len(w.out.Tokens)
	if !w.substitutedToken(r.Word, TokenRedirect, sc) {
		text, _ := w.wordText(r.Word)
		w.unknownToken(text, r.Word, TokenRedirect, unknownPlace(text), sc)
	}
	w.markWrites(r.Op, from)
}

// literalPrefix is the literal text a word starts with, before its first
// expansion.
func literalPrefix(parts []quotedPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch lit := p.part.(type) {
		case *syntax.Lit:
			b.WriteString(lit.Value)
		case *syntax.SglQuoted:
			b.WriteString(lit.Value)
		default:
			return b.String()
		}
	}
	return b.String()
}

// literalSlash reports a "/" in the literal parts of a word.
func literalSlash(parts []quotedPart) bool {
	for _, p := range parts {
		switch lit := p.part.(type) {
		case *syntax.Lit:
			if strings.Contains(lit.Value, "/") {
				return true
			}
		case *syntax.SglQuoted:
			if strings.Contains(lit.Value, "/") {
				return true
			}
		}
	}
	return false
}

// pathLike reports a word with an expansion that may be a path: a "/" in
// its literal text, a start with "." or "~", or a command substitution,
// whose output can be any path. A word that is only a variable's value
// ("$msg") is not: it is as often a message as a file.
func pathLike(parts []quotedPart, head string) bool {
	if strings.HasPrefix(head, ".") || strings.HasPrefix(head, "~") || literalSlash(parts) {
		return true
	}
	for _, p := range parts {
		if _, ok := p.part.(*syntax.CmdSubst); ok {
			return true
		}
	}
	return false
}

// noteFDs records the file descriptors a redirect opens or duplicates
// onto (Facts.FDs): /dev/fd/N then names what the redirect gave it. A
// heredoc or a here-string is text, not a file.
func (w *walker) noteFDs(r *syntax.Redirect) {
	var fds []int
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut:
		fds = []int{0}
	case syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		fds = []int{1, 2}
	default:
		fds = []int{1}
	}
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		if err != nil {
			return // {var}>file: a new descriptor, above the standard ones
		}
		fds = []int{n}
	}
	for _, fd := range fds {
		seen := false
		for _, x := range w.out.FDs {
			seen = seen || x == fd
		}
		if !seen {
			w.out.FDs = append(w.out.FDs, fd)
		}
	}
}

// HasDotDot reports whether a path has a ".." component: only then can
// the kernel's walk of it, component by component, end elsewhere than the
// walk of the lexically cleaned path (facts resolves such a path twice).
func HasDotDot(p string) bool {
	for i := strings.Index(p, ".."); i >= 0; {
		if (i == 0 || p[i-1] == '/') && (i+2 == len(p) || p[i+2] == '/') {
			return true
		}
		next := strings.Index(p[i+1:], "..")
		if next < 0 {
			return false
		}
		i += next + 1
	}
	return false
}

// below is the path rest ("" or "/…") below dir, a Dir's spelling ("" is
// where the command started), cleaned: below("", "/../x") is "../x".
func below(dir, rest string) string {
	if dir == "" {
		dir = "."
	}
	return path.Clean(dir + rest)
}
