package bashfacts

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What a command assigns to its variables, for the checks of
// storedeval.go: a value the command itself sets is known; any other is
// what the environment gave, which may be anything.

// valueKind ranks what a variable may hold, from harmless to anything.
type valueKind int

const (
	kindInt  valueKind = iota + 1 // a number: what arithmetic may read
	kindName                      // a plain name: what ${!x} may read
	kindText                      // text without $ or `: what ${x@P} may read
	kindAny
)

// varFacts is what a command (and the payloads walked with it) assigns to
// each variable: the worst kind of value any assignment gives it. A
// variable the command never assigns holds what the environment gave it,
// which may be anything.
type varFacts struct {
	kind    map[string]valueKind
	assocs  map[string]bool // declare -A: subscripts are strings, not arithmetic
	ints    map[string]bool // declare -i: assigned values are arithmetic
	scanned map[*syntax.File]bool
}

// numericVars are the shell's own variables that always hold a number.
var numericVars = set("RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID",
	"EPOCHSECONDS", "OPTIND", "BASH_SUBSHELL", "HISTCMD", "#", "?", "$", "!")

var (
	numberLit   = regexp.MustCompile(`^[+-]?(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9a-zA-Z@_]+)?)$`)
	identifier  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	plainName   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[([0-9]+|@|\*)\])?$`)
	arithSource = regexp.MustCompile(`^[0-9+\-*/%()<>=!&|^~ \t]*$`)
)

// vars returns the assignments of the command, scanning the walker's
// file the first time a construct needs them.
func (w *walker) vars() *varFacts {
	if w.shell.vars == nil {
		w.shell.vars = &varFacts{kind: map[string]valueKind{}, assocs: map[string]bool{}, ints: map[string]bool{}, scanned: map[*syntax.File]bool{}}
	}
	v := w.shell.vars
	if w.root != nil && !v.scanned[w.root] {
		v.scanned[w.root] = true
		w.scanAssignments(w.root, v)
	}
	return v
}

func (v *varFacts) assign(name string, k valueKind) {
	if k > v.kind[name] {
		v.kind[name] = k
	}
}

// holds reports whether every value name may hold is at most kind k.
func (v *varFacts) holds(name string, k valueKind) bool {
	if got, ok := v.kind[name]; ok {
		return got <= k
	}
	return numericVars[name] && k >= kindInt
}

// scanAssignments records every assignment in n, wherever it stands
// (branches, loops and substitutions included: the worst one counts).
func (w *walker) scanAssignments(n syntax.Node, v *varFacts) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || (n.Naked && n.Array == nil) {
				break
			}
			k := kindInt // x= is empty, which arithmetic reads as 0
			if n.Value != nil {
				k = w.wordKind(n.Value)
			}
			if n.Array != nil {
				for _, e := range n.Array.Elems {
					if e.Value != nil {
						k = max(k, w.wordKind(e.Value))
					}
				}
			}
			v.assign(n.Name.Value, k)
		case *syntax.DeclClause:
			flags := ""
			for _, a := range n.Args {
				if a.Naked && a.Name == nil && a.Value != nil {
					if f, lit := w.literal(a.Value); lit && (strings.HasPrefix(f, "-") || strings.HasPrefix(f, "+")) {
						flags += f
					}
				}
			}
			for _, a := range n.Args {
				if a.Name == nil {
					continue
				}
				switch {
				case strings.Contains(flags, "n"):
					v.assign(a.Name.Value, kindAny) // a reference: its value is another variable's
				case strings.Contains(flags, "A"):
					v.assocs[a.Name.Value] = true
				}
				if strings.Contains(flags, "i") {
					v.ints[a.Name.Value] = true
				}
			}
		case *syntax.WordIter:
			if n.Name == nil {
				break
			}
			k := kindAny // for x; do: the positional parameters
			if len(n.Items) > 0 {
				k = kindInt
				for _, it := range n.Items {
					k = max(k, w.wordKind(it))
				}
			}
			v.assign(n.Name.Value, k)
		case *syntax.BinaryArithm:
			if isArithAssign(n.Op) {
				if name := arithName(n.X); name != "" {
					v.assign(name, kindInt)
				}
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				if name := arithName(n.X); name != "" {
					v.assign(name, kindInt)
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				k := kindInt
				if n.Exp.Word != nil {
					k = w.wordKind(n.Exp.Word)
				}
				v.assign(n.Param.Value, k)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				prog, _ := w.literal(n.Args[0])
				for _, name := range w.assignedNames(prog, n.Args[1:]) {
					base, _, _ := strings.Cut(name, "[")
					v.assign(base, kindAny)
				}
				if prog == "read" && len(w.assignedNames("read", n.Args[1:])) == 0 {
					v.assign("REPLY", kindAny)
				}
			}
		}
		return true
	})
}

// wordKind ranks the value a word gives a variable.
func (w *walker) wordKind(word *syntax.Word) valueKind {
	if text, lit := w.literal(word); lit {
		switch {
		case text == "" || numberLit.MatchString(text):
			return kindInt
		case identifier.MatchString(text):
			return kindName
		case !strings.ContainsAny(text, "$`"):
			return kindText
		}
		return kindAny
	}
	if len(word.Parts) == 1 {
		switch p := word.Parts[0].(type) {
		case *syntax.ArithmExp:
			return kindInt
		case *syntax.ParamExp:
			if p.Length && p.Index == nil {
				return kindInt
			}
		}
	}
	return kindAny
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
		syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// arithName is the variable an arithmetic operand names: x, or a of a[i].
func arithName(x syntax.ArithmExpr) string {
	word, ok := x.(*syntax.Word)
	if !ok || len(word.Parts) != 1 {
		return ""
	}
	switch p := word.Parts[0].(type) {
	case *syntax.Lit:
		if identifier.MatchString(p.Value) {
			return p.Value
		}
	case *syntax.ParamExp:
		if !p.Dollar.IsValid() && p.Param != nil {
			return p.Param.Value
		}
	}
	return ""
}
