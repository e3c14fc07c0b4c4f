package facts

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
	"github.com/regate/regate/internal/homedir"
)

// Globs, expanded as bash 5 expands them with its default options (extglob
// groups honoured where the word has them; dotglob, nocaseglob, globstar,
// nullglob and failglob off: a command that turns one on is floored by
// bashfacts instead). The pattern of one path component is matched by
// mvdan.cc/sh/v3/pattern, bash's own notation: * ? [...] with [!...] and
// [^...] negation, POSIX classes ([[:alpha:]]), backslash escapes, and
// extglob ?(…) *(…) +(…) @(…), the classes as a UTF-8 locale reads them
// (Unicode letters are [[:alpha:]]); a negated group !(…) is not expanded, and
// asks. A name that starts with a dot is matched only where the pattern
// spells that dot: a leading "." or "\.", or an extglob group at the start
// one of whose alternatives does (@(.env|x), ?(.)env), as bash's
// skipname() allows. "." and ".." are matched by a pattern that spells
// them (.* matches ..), which bash before 5.2 (macOS's /bin/bash) does and
// 5.2's globskipdots does not: strict mode gates the more.

// maxGlobMatches bounds what one glob may expand to before strict mode
// stops expanding it and asks instead.
const maxGlobMatches = 256

var errTooMany = fmt.Errorf("it matches more than %d paths", maxGlobMatches)

// globMode is bash's pathname expansion: one component at a time (no
// slash in a match), the whole name, ** as *, extglob groups. Leading dots
// are handled apart (globComponent), so the pattern itself may match them.
const globMode = pattern.Filenames | pattern.EntireString | pattern.NoGlobStar | pattern.ExtendedOperators | pattern.GlobLeadingDot

// appendGlobChecks decides a glob token t as bash uses it. A glob that
// matches is replaced by its matches: under strict mode each match is
// decided as the word it becomes (its role's surfaces, its writes, its
// folder spelling), and the word as written (out[first:], already
// appended) only without strict mode, the spec's reading; so
// .env.exa?ple is the .env.example the policy allows, not a name *.env.*
// denies. A glob that matches nothing stays the word it is, as in bash; a
// glob strict mode cannot expand asks.
func (e *Env) appendGlobChecks(out []Check, first int, t bashfacts.Token, base, dir string) []Check {
	pat := t.Glob
	if pat == "" {
		pat = t.Value
	}
	matches, err := e.expandGlob(pat, dir)
	if err != nil {
		return append(out, globFloor(t, err.Error()))
	}
	if len(matches) == 0 {
		return out
	}
	if name, ok := dashMatch(pat, dir, matches); ok {
		// rm * in a folder holding a file named -rf: the word bash makes
		// is an option to the program, not a path.
		return append(out, globFloor(t, "it matches "+name+", which the program reads as an option"))
	}
	if t.Split {
		// $f of a loop over globs, unquoted: the shell splits each path
		// at blanks and globs the pieces, which are not the paths matched.
		n := len(splitPath(pat))
		for _, m := range matches {
			if comps := splitPath(m); strings.ContainsAny(strings.Join(comps[max(0, len(comps)-n):], "/"), " \t\n*?[") {
				return append(out, globFloor(t, "the path "+m+" it matches holds a blank or a glob character, which the shell splits or expands again"))
			}
		}
	}
	kept := out[:first]
	for _, c := range out[first:] {
		if !c.StrictOnly {
			c.SpecOnly = true
			kept = append(kept, c)
		}
	}
	out = kept
	for _, m := range matches {
		mt := t
		mt.Value, mt.Pattern, mt.Glob, mt.Bare = m, false, "", false
		mt.SpecOnly = t.SpecOnly && t.Role == argmodel.Stat // examined, unless a folder (appendTokenChecks)
		from := len(out)
		out = e.appendTokenChecks(out, mt, base)
		for i := range out[from:] {
			out[from+i].StrictOnly, out[from+i].At = true, t.Pos.String()
		}
	}
	return out
}

// dashMatch returns a match of the relative pattern pat, expanded in dir,
// whose word begins with "-": a pattern whose first component is a glob
// spells its matches from their names.
func dashMatch(pat, dir string, matches []string) (string, bool) {
	comps := splitPath(pat)
	if path.IsAbs(pat) || strings.HasPrefix(pat, "~") || strings.HasPrefix(pat, "$HOME") || strings.HasPrefix(pat, "${HOME}") ||
		len(comps) == 0 || !isGlob(comps[0]) {
		return "", false
	}
	depth := len(splitPath(dir))
	for _, m := range matches {
		if mc := splitPath(m); len(mc) > depth && strings.HasPrefix(mc[depth], "-") {
			return mc[depth], true
		}
	}
	return "", false
}

// globFloor is the strict-only check of a glob strict mode cannot expand:
// it asks, whatever the path rules say.
func globFloor(t bashfacts.Token, why string) Check {
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
		StrictOnly: true, Strict: "strict mode cannot expand the glob " + t.Value + ": " + why}
}

// expandGlob returns the absolute paths the bash pattern pat matches,
// searched from dir, component by component as the shell does.
func (e *Env) expandGlob(pat, dir string) ([]string, error) {
	lister, ok := e.fs().(DirReader)
	if !ok {
		return nil, errors.New("the file system cannot list directories")
	}
	p := pat
	if expanded := homedir.Expand(pat, e.Home); expanded != pat {
		home := strings.TrimSuffix(e.Home, "/")
		p = quoteGlob(home) + strings.TrimPrefix(expanded, home)
	}
	start := "/"
	if !path.IsAbs(p) {
		start = dir
	}
	cur := []string{path.Clean(start)}
	for _, comp := range splitPath(p) {
		if !isGlob(comp) {
			lit := bashfacts.UnescapeGlob(comp)
			for i := range cur {
				cur[i] = path.Join(cur[i], lit)
			}
			continue
		}
		m, err := compileComponent(comp)
		if err != nil {
			return nil, err
		}
		var next []string
		for _, d := range cur {
			if err := e.spent.probe(1); err != nil {
				return nil, err
			}
			names, err := lister.ReadDir(d)
			if err != nil {
				continue // not a directory, or absent: nothing matches there
			}
			if err := e.spent.probe(len(names)); err != nil {
				return nil, err
			}
			for _, n := range append(names, ".", "..") {
				if m.match(n) {
					if next = append(next, path.Join(d, n)); len(next) > maxGlobMatches {
						return nil, errTooMany
					}
				}
			}
		}
		cur = next
	}
	var out []string
	for _, m := range cur {
		_, err := e.lstat(m)
		if isBudget(err) {
			return nil, err
		}
		if err == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

// globComponent matches the names of one directory against one
// component of a pattern.
type globComponent struct {
	// all matches a name that does not start with a dot.
	all *regexp.Regexp
	// afterDot match what follows the dot of a name that starts with one:
	// the rests of the pattern after each dot it spells at its start.
	afterDot []*regexp.Regexp
}

func (g *globComponent) match(name string) bool {
	rest, dotted := strings.CutPrefix(name, ".")
	if !dotted {
		return g.all.MatchString(name)
	}
	for _, re := range g.afterDot {
		if re.MatchString(rest) {
			return true
		}
	}
	return false
}

func compileComponent(comp string) (*globComponent, error) {
	all, err := compileGlob(comp)
	if err != nil {
		return nil, err
	}
	rests, err := dotRests(comp, 0, nil)
	if err != nil {
		return nil, err
	}
	g := &globComponent{all: all}
	for _, r := range rests {
		re, err := compileGlob(r)
		if err != nil {
			return nil, err
		}
		g.afterDot = append(g.afterDot, re)
	}
	return g, nil
}

func compileGlob(p string) (*regexp.Regexp, error) {
	expr, err := pattern.Regexp(p, globMode)
	if err != nil {
		var neg *pattern.NegExtGlobError
		if errors.As(err, &neg) {
			return nil, errors.New("the extglob negation !(…) is not expanded")
		}
		return nil, err
	}
	return regexp.Compile(unicodeClasses.Replace(expr))
}

// unicodeClasses widens the POSIX classes, which Go's regexp reads as
// ASCII, to what bash matches in a UTF-8 locale: [[:alpha:]] matches ä.
var unicodeClasses = strings.NewReplacer(
	"[:alpha:]", `\p{L}`,
	"[:alnum:]", `\p{L}\p{Nd}`,
	"[:upper:]", `\p{Lu}`,
	"[:lower:]", `\p{Ll}`,
	"[:digit:]", `0-9`,
	"[:xdigit:]", `0-9A-Fa-f`,
	"[:space:]", `\s\p{Z}`,
	"[:blank:]", ` \t\p{Zs}`,
	"[:punct:]", `\p{P}\p{S}`,
	"[:cntrl:]", `\p{Cc}`,
	"[:graph:]", `\p{L}\p{M}\p{N}\p{P}\p{S}`,
	"[:print:]", `\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}`,
	"[:word:]", `\p{L}\p{M}\p{Nd}\p{Pc}`,
)

// Bounds on the rests dotRests may find, past which the glob asks: an
// extglob group that repeats one that may be empty would never end.
const (
	maxGroupDepth = 16
	maxDotRests   = 64
)

var errIntricate = errors.New("its extglob groups are too intricate to expand")

// dotRests appends to out what may follow a dot that the pattern p
// spells at its start: p's rest after a leading "." or "\.", or, for an
// extglob group at its start, the rests of each alternative followed by
// what comes after the group (and of the group's absence, for ?(…) and
// *(…)). A wildcard or bracket at the start spells no dot.
func dotRests(p string, depth int, out []string) ([]string, error) {
	if depth > maxGroupDepth || len(out) > maxDotRests {
		return nil, errIntricate
	}
	switch {
	case strings.HasPrefix(p, "."):
		return append(out, p[1:]), nil
	case strings.HasPrefix(p, `\.`):
		return append(out, p[2:]), nil
	case len(p) < 2 || p[1] != '(' || strings.IndexByte("?*+@!", p[0]) < 0:
		return out, nil
	}
	alts, end, ok := splitGroup(p)
	if !ok {
		return out, nil // an unclosed group is literal text, which spells no dot
	}
	group, rest := p[:end], p[end:]
	var err error
	switch p[0] {
	case '!':
		return nil, errors.New("the extglob negation !(…) is not expanded")
	case '?', '*':
		if out, err = dotRests(rest, depth+1, out); err != nil {
			return nil, err
		}
	}
	for _, a := range alts {
		next := a + rest
		if p[0] == '*' || p[0] == '+' {
			next = a + "*" + group[1:] + rest // one, then any number more
		}
		if out, err = dotRests(next, depth+1, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splitGroup splits the extglob group that opens p (p[0] is its operator,
// p[1] its parenthesis) into its alternatives, and returns where it ends.
func splitGroup(p string) (alts []string, end int, ok bool) {
	depth, start := 0, 2
	for i := 2; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = bracketEnd(p, i)
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return append(alts, p[start:i]), i + 1, true
			}
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, p[start:i])
				start = i + 1
			}
		}
	}
	return nil, 0, false
}

// bracketEnd returns the index of the "]" that closes the bracket
// expression opening at i, or i when none does (the "[" is literal).
func bracketEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return i
}

// isGlob reports whether a component of a bash pattern expands: an
// unescaped * or ?, a bracket expression, or an extglob group.
func isGlob(comp string) bool {
	if pattern.HasMeta(comp, 0) {
		return true
	}
	for i := 0; i+1 < len(comp); i++ {
		switch comp[i] {
		case '\\':
			i++
		case '+', '@', '!':
			if comp[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// quoteGlob escapes what a bash pattern gives a meaning to, so that text
// (the home directory) matches only itself.
func quoteGlob(s string) string {
	const special = `*?[]\()|!@+`
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
