package bashfacts

import (
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

// varValue is what the command assigns to one variable.
type varValue struct {
	values []string
	known  bool
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

// setVar records an assignment: the variable holds one of the literal
// values it is given, or is unknown once any value is not literal.
func (w *walker) setVar(name, value string, known bool) {
	old, ok := w.assigned[name]
	switch {
	case !ok:
		w.assigned[name] = varValue{values: []string{value}, known: known}
	case !old.known || !known || len(old.values) == maxSpellings:
		w.assigned[name] = varValue{}
	case !contains(old.values, value):
		w.assigned[name] = varValue{values: append(old.values, value), known: true}
	}
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
			w.setVar(n.Name.Value, "", false)
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

// substitute spells a word with the values of the variables the command
// assigns: every spelling their values make. An unquoted value that word
// splitting or globbing would change is not known.
func (w *walker) substitute(word *syntax.Word) ([]string, substitution) {
	out := []string{""}
	unknown, other := false, false
	add := func(values ...string) {
		next := make([]string, 0, len(out)*len(values))
		for _, o := range out {
			for _, v := range values {
				next = append(next, o+v)
			}
		}
		out = next
	}
	for _, p := range flattenQuotes(word.Parts) {
		switch part := p.part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
			var b strings.Builder
			w.partText(&b, part, p.quoted)
			add(b.String())
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
						add(v)
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
			default:
				for _, x := range v.values {
					if !p.quoted && (x == "" || strings.ContainsAny(x, " \t\n*?[")) {
						unknown = true
					}
				}
				add(v.values...)
			}
		default:
			other = true
		}
	}
	switch {
	case unknown:
		return nil, substUnknown
	case other:
		return nil, substNone
	}
	return out, substKnown
}

// substitutedToken adds the strict token of a word that expands variables
// the command assigns: the word as it spells with their values, or an
// unknown path when one value is not known. It reports whether the word
// expands such a variable.
func (w *walker) substitutedToken(word *syntax.Word, kind string, sc scope) bool {
	values, st := w.substitute(word)
	switch st {
	case substKnown:
		for _, v := range values {
			if v != "" && v != "-" {
				w.token(v, word, kind, kind == TokenArgument && !pathShaped(v), sc)
				t := &w.out.Tokens[len(w.out.Tokens)-1]
				t.StrictOnly, t.Pattern = true, false
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
