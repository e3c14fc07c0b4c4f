package bashfacts

import (
	"maps"
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
	"mvdan.cc/sh/v3/syntax"
)

// Variables the command assigns itself. `X=.env; cat $X` reads .env
// although no word of it is shaped like a path, and the agent wrote X: a
// word that expands a variable the command assigns is decided as what the
// variable holds, when every assignment of it in the command gives a
// literal value (then one of those values or, before the first, the
// environment's stands: each value is gated, and the environment is not
// the agent's to set); otherwise (a value built from expansions, a loop
// variable, read, mapfile, printf -v, arithmetic, unset, declare -n and
// friends) the word is an unknown path that strict mode asks for. A
// variable the command never assigns comes from the environment and is
// read as before: a path only when the word is shaped like one.

// varValue is what the command assigns to one variable. A loop over
// words with globs (for f in src/*.go) gives the variable the paths the
// globs match: glob is then set, every value is in bash's pattern
// notation, and loopDir is the directory the loop expands them in (they
// are relative to it).
type varValue struct {
	values  []string
	known   bool
	glob    bool
	loopDir *Dir
}

// maxSpellings bounds how many spellings a word gets from the values of
// its variables; past it the word is an unknown path.
const maxSpellings = 16

// variable returns what the command assigns to name, and whether it
// assigns it at all. The assignments are collected once per walker, on
// first use: most commands expand no variable.
func (w *walker) variable(name string) (varValue, bool) {
	if w.assigned == nil {
		w.assigned = map[string]varValue{}
		if w.root != nil {
			w.collectVars(w.root)
		}
	}
	v, ok := w.assigned[name]
	return v, ok
}

// variableNames are the names of every variable the command assigns, in
// order.
func (w *walker) variableNames() []string {
	w.variable("") // collects the assignments
	return slices.Sorted(maps.Keys(w.assigned))
}

// setVar records an assignment: the variable holds one of the literal
// values it is given, or is unknown once any value is not literal.
func (w *walker) setVar(name, value string, known bool) {
	w.setValue(name, value, known, false)
}

// setValue records an assignment of value, a bash pattern when glob is
// set. A variable given both patterns and literals holds them all as
// patterns, the literals quoted.
func (w *walker) setValue(name, value string, known, glob bool) {
	old, ok := w.assigned[name]
	switch {
	case !ok:
		w.assigned[name] = varValue{values: []string{value}, known: known, glob: glob}
		return
	case !old.known || !known || len(old.values) == maxSpellings:
		w.assigned[name] = varValue{}
		return
	}
	switch {
	case glob && !old.glob:
		quoted := make([]string, len(old.values))
		for i, v := range old.values {
			quoted[i] = globQuote(v)
		}
		old.values, old.glob = quoted, true
	case !glob && old.glob:
		value = globQuote(value)
	}
	if !contains(old.values, value) {
		old.values = append(old.values, value)
	}
	w.assigned[name] = old
}

// loopVar records what a for loop gives its variable: the words after
// `in`, each brace-expanded, a word with a glob as its pattern. A loop
// without `in` (the positional parameters) or over a word with any other
// expansion leaves the variable unknown.
func (w *walker) loopVar(it *syntax.WordIter) {
	name := it.Name.Value
	if !it.InPos.IsValid() {
		w.setVar(name, "", false)
		return
	}
	for _, item := range it.Items {
		text, lit := w.literal(item)
		g, _ := w.globText(item)
		switch {
		case !lit:
			w.setVar(name, "", false)
		case hasGlobMeta(g) && strings.Contains(text, "{"):
			w.setVar(name, "", false) // a brace around a glob: not expanded here
		case hasGlobMeta(g):
			w.setValue(name, g, true, true)
		default:
			for _, v := range w.braceExpand(item, text) {
				w.setVar(name, v, true)
			}
		}
	}
}

// enterLoop notes the directory a loop over globs expands them in: its
// variable's values are paths relative to it, and a use of them under
// another directory (the body cds) is not known. A variable two loops
// expand in different directories has no one directory.
func (w *walker) enterLoop(loop syntax.Loop, dir Dir) {
	it, ok := loop.(*syntax.WordIter)
	if !ok {
		return
	}
	v, ok := w.variable(it.Name.Value)
	if !ok || !v.glob {
		return
	}
	switch {
	case v.loopDir == nil:
		d := dir
		v.loopDir = &d
	case !sameDir(*v.loopDir, dir):
		v.loopDir = &unknownDir
	}
	w.assigned[it.Name.Value] = v
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// readers assign the variables they name from input: the value is not
// known.
var readers = set("read", "mapfile", "readarray", "getopts", "unset")

// collectVars walks n for every assignment.
func (w *walker) collectVars(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, a := range n.Assigns {
				w.assign(a, true)
			}
			w.readerVars(n.Args)
		case *syntax.DeclClause:
			// declare -l/-u change the case, -n makes a reference, -i
			// evaluates, -a/-A make arrays: only -x, -r, -g keep the value.
			plain := true
			for _, a := range n.Args {
				if a.Naked && a.Name == nil && a.Value != nil {
					opt, lit := w.literal(a.Value)
					plain = plain && lit && strings.Trim(strings.TrimLeft(opt, "-+"), "xrg") == ""
				}
			}
			for _, a := range n.Args {
				switch {
				case a.Name == nil:
				case a.Naked && n.Variant.Value != "export" && n.Variant.Value != "readonly":
					w.setVar(a.Name.Value, "", false) // local X, declare X: emptied
				case !a.Naked:
					w.assign(a, plain)
				}
			}
		case *syntax.WordIter:
			w.loopVar(n)
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
				syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
				w.arithmVar(n.X)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				w.arithmVar(n.X)
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				w.setVar(n.Param.Value, "", false)
			}
		}
		return true
	})
}

// assign records NAME=value: known when the value is one literal word.
func (w *walker) assign(a *syntax.Assign, plain bool) {
	if a.Name == nil {
		return
	}
	if a.Append || a.Index != nil || a.Array != nil || !plain {
		w.setVar(a.Name.Value, "", false)
		return
	}
	value := ""
	known := true
	if a.Value != nil {
		value, known = w.literal(a.Value)
	}
	w.setVar(a.Name.Value, value, known)
}

// readerVars records the variables read, mapfile, getopts, unset and
// printf -v assign: every word of theirs that could be a name.
func (w *walker) readerVars(args []*syntax.Word) {
	if len(args) == 0 {
		return
	}
	prog, _ := w.literal(args[0])
	switch {
	case readers[prog]:
		for _, a := range args[1:] {
			if v, lit := w.literal(a); lit && isName(v) {
				w.setVar(v, "", false)
			}
		}
		if prog == "mapfile" || prog == "readarray" {
			w.setVar("MAPFILE", "", false)
		}
		if prog == "read" {
			w.setVar("REPLY", "", false)
		}
	case prog == "printf":
		for i := 1; i+1 < len(args); i++ {
			if v, _ := w.literal(args[i]); v == "-v" {
				if name, lit := w.literal(args[i+1]); lit {
					w.setVar(strings.SplitN(name, "[", 2)[0], "", false)
				}
			}
		}
	}
}

// arithmVar records a variable an arithmetic expression assigns.
func (w *walker) arithmVar(x syntax.ArithmExpr) {
	if word, ok := x.(*syntax.Word); ok {
		if name := word.Lit(); isName(name) {
			w.setVar(name, "", false)
		}
	}
}

func isName(s string) bool { return s != "" && argmodel.IsAssignment(s+"=") }

// substitution is what a word with expansions spells once the variables
// the command assigns are put in.
type substitution int

const (
	substNone    substitution = iota // no variable of the command's: read the word as before
	substKnown                       // every expansion is a variable with a known value
	substUnknown                     // a variable the command assigns an unknown value
)

// spelt is what substitute makes of a word: its spellings, in bash's
// pattern notation when pattern is set (a loop variable over globs, or an
// unquoted glob beside a known variable), to be expanded in dir.
type spelt struct {
	values  []string
	pattern bool
	// split is set when a glob variable is expanded unquoted: the shell
	// splits each path it stands for into fields and globs them again.
	split bool
	dir   *Dir
}

// substitute spells a word with the values of the variables the command
// assigns: every spelling their values make. An unquoted value that word
// splitting or globbing would change is not known.
func (w *walker) substitute(word *syntax.Word) (spelt, substitution) {
	var sp spelt
	out, pat := []string{""}, []string{""}
	unknown, other := false, false
	add := func(values, patterns []string) {
		next := make([]string, 0, len(out)*len(values))
		nextPat := make([]string, 0, len(out)*len(values))
		for i, o := range out {
			for j, v := range values {
				next = append(next, o+v)
				nextPat = append(nextPat, pat[i]+patterns[j])
			}
		}
		out, pat = next, nextPat
	}
	for _, p := range flattenQuotes(word.Parts) {
		switch part := p.part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
			var b strings.Builder
			w.partText(&b, part, p.quoted)
			g := globQuote(b.String())
			if lit, ok := part.(*syntax.Lit); ok && !p.quoted {
				g = strings.ReplaceAll(lit.Value, "\\\n", "")
				sp.pattern = sp.pattern || hasGlobMeta(g)
			}
			add([]string{b.String()}, []string{g})
		case *syntax.ParamExp:
			if part.Param == nil {
				other = true
				continue
			}
			if !isSimpleParam(part) {
				_, assigned := w.variable(part.Param.Value)
				switch {
				case assigned || part.Excl:
					// ${X:1}, ${X,,}, ${X%…}, ${a[1]}, ${!r} of a
					// variable the command sets: its value is the
					// command's, spelt in a way regate does not compute.
					unknown = true
				case defaultWord(part) != nil && !placeVars[part.Param.Value]:
					// ${X:-key.pem} of a variable the command does not
					// set: the environment's value, which the agent does
					// not choose, or else the word the command spells.
					if v, lit := w.literal(defaultWord(part)); lit {
						add([]string{v}, []string{globQuote(v)})
					} else {
						unknown = true
					}
				default:
					other = true
				}
				continue
			}
			v, assigned := w.variable(part.Param.Value)
			switch {
			case !assigned:
				other = true
			case !v.known || len(out)*len(v.values) > maxSpellings:
				unknown = true
			case v.glob:
				// The paths a loop's globs match, relative to the loop's
				// directory; unquoted, each is split and globbed again.
				if v.loopDir == nil || v.loopDir.Unknown || sp.dir != nil && !sameDir(*sp.dir, *v.loopDir) {
					unknown = true
					continue
				}
				sp.pattern, sp.dir = true, v.loopDir
				sp.split = sp.split || !p.quoted
				add(v.values, v.values)
			default:
				quoted := make([]string, len(v.values))
				for i, x := range v.values {
					if !p.quoted && (x == "" || strings.ContainsAny(x, " \t\n*?[")) {
						unknown = true
					}
					quoted[i] = globQuote(x)
				}
				add(v.values, quoted)
			}
		default:
			other = true
		}
	}
	switch {
	case unknown:
		return sp, substUnknown
	case other:
		return sp, substNone
	}
	sp.values = out
	if sp.pattern {
		sp.values = pat
	}
	return sp, substKnown
}

// substitutedToken adds the strict token of a word that expands variables
// the command assigns: the word as it spells with their values, or an
// unknown path when one value is not known. It reports whether the word
// expands such a variable.
func (w *walker) substitutedToken(word *syntax.Word, kind string, sc scope) bool {
	sp, st := w.substitute(word)
	if st == substKnown && sp.dir != nil && !sameDir(*sp.dir, sc.dir) {
		st = substUnknown // the loop's paths, used after a cd
	}
	switch st {
	case substKnown:
		for _, v := range sp.values {
			if v != "" && v != "-" {
				w.token(v, word, kind, kind == TokenArgument && !pathShaped(v), sc)
				t := &w.out.Tokens[len(w.out.Tokens)-1]
				t.StrictOnly, t.Pattern, t.Glob, t.Split = true, false, "", false
				if sp.pattern && hasGlobMeta(v) {
					t.Value, t.Pattern, t.Glob, t.Split, t.Bare = UnescapeGlob(v), true, v, sp.split, false
				} else if sp.pattern {
					t.Value = UnescapeGlob(v)
				}
			}
		}
		return true
	case substUnknown:
		text, _ := w.wordText(word)
		w.unknownToken(text, word, kind, "the path "+text+" depends on a variable the command sets to a value regate does not know", sc)
		return true
	}
	return false
}

// sameDir reports whether two known directories are the same place as
// the walk spells it.
func sameDir(a, b Dir) bool { return !a.Unknown && !b.Unknown && a.Path == b.Path }

// placeVars are the variables places.go reads as known places: their
// defaults never apply.
var placeVars = set("HOME", "PWD", "OLDPWD")

// defaultWord is the word ${X-w}, ${X:-w}, ${X=w}, ${X:=w}, ${X+w} and
// ${X:+w} stand for when X is unset (or set, for +): nil for any other
// expansion.
func defaultWord(pe *syntax.ParamExp) *syntax.Word {
	if pe.Exp == nil || pe.Slice != nil || pe.Repl != nil || pe.Length || pe.Excl || pe.Index != nil {
		return nil
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if pe.Exp.Word == nil {
			return &syntax.Word{}
		}
		return pe.Exp.Word
	}
	return nil
}
