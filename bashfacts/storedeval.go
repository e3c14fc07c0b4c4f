package bashfacts

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Expansions that evaluate a stored string (docs/strict.md). Bash
// evaluates a variable's value as code in a few places, each checked in
// real bash by TestStrictShellState: arithmetic ($((x)), ((x)), let, $[x],
// for ((…)), a subscript a[x], an offset ${s:x}, [[ x -eq y ]], a value
// assigned to a declare -i variable) reads a[$(cmd)] in x's value and runs
// cmd; ${!x} does the same with the name x holds; ${x@P} expands x's value
// as a prompt, $(cmd) included; and the builtins that take a variable's
// name (read, printf -v, wait -p, unset, test -v, [[ -v ]], declare -n)
// evaluate a subscript in it. A construct is understood when each value it
// evaluates is one the command itself sets to something harmless (a
// number for arithmetic, a plain name for ${!x}, text without $ or ` for
// @P); any other asks.

// Reasons strict mode gives, by construct.
const (
	evalArith     = "evaluates as arithmetic a value the command does not set to a number: a stored a[$(cmd)] runs cmd"
	evalIndirect  = "expands ${!%s}, whose value the command does not set to a plain name: a stored a[$(cmd)] runs cmd"
	evalPrompt    = "expands ${%s@P}, which runs a $(cmd) stored in %s"
	evalName      = "names the variable %s, whose subscript bash evaluates as arithmetic: a[$(cmd)] runs cmd"
	evalReparse   = "declare re-parses a word built by expansion, or an array in quotes, as an assignment: a $(cmd) in it runs"
	evalReference = "declare -n makes %s a reference to %s, whose subscript bash evaluates when %s is used"
)

// noteStatement records what a statement does to the shell state before
// it is walked (a function it defines, a variable it assigns), and returns
// why its own words evaluate a stored string ("" when they do not).
func (w *walker) noteStatement(st *syntax.Stmt) string {
	switch c := st.Cmd.(type) {
	case *syntax.FuncDecl:
		w.defineFunction(c)
	case *syntax.DeclClause:
		w.declState(c)
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			if a.Name != nil && a.Name.Value == "CDPATH" {
				w.shell.cdpath = true
			}
		}
	case *syntax.ForClause:
		if it, ok := c.Loop.(*syntax.WordIter); ok && it.Name != nil && sensitiveEnv(it.Name.Value) && w.envSet == "" {
			w.envSet = it.Name.Value // for PATH in …: the body runs under it
		}
	}
	return w.storedEval(st)
}

// declState records what declare, local, typeset, export and readonly do
// for later units: a reference (-n) stands for another variable, so that
// assigning it sets one strict mode does not see; CDPATH makes a relative
// cd land elsewhere.
func (w *walker) declState(c *syntax.DeclClause) {
	flags := w.declFlags(c)
	for _, a := range c.Args {
		if a.Name == nil {
			continue
		}
		if strings.Contains(flags, "n") && !strings.HasPrefix(flags, "+") {
			w.shell.setFloor(c.Variant.Value + " -n made " + a.Name.Value + " a reference to another variable")
		}
		if a.Name.Value == "CDPATH" {
			w.shell.cdpath = true
		}
	}
}

// declFlags joins the literal options of a declaration (-ia, -n, +x).
func (w *walker) declFlags(c *syntax.DeclClause) string {
	flags := ""
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if f, lit := w.literal(a.Value); lit && len(f) > 1 && (f[0] == '-' || f[0] == '+') {
				flags += f
			}
		}
	}
	return flags
}

// storedEval returns why a statement's own words (not the statements
// nested in it, which are units of their own) evaluate a stored string.
func (w *walker) storedEval(st *syntax.Stmt) string {
	r := ""
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			if r = w.evalIn(a); r != "" {
				return r
			}
		}
		for _, a := range c.Args {
			if r = w.evalIn(a); r != "" {
				return r
			}
		}
	case *syntax.DeclClause:
		r = w.declEval(c)
	case *syntax.ArithmCmd:
		r = w.arithReason(c.X)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			if r = w.arithReason(x); r != "" {
				break
			}
		}
	case *syntax.TestClause:
		r = w.testEval(c.X)
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.CStyleLoop:
			for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				if r = w.arithReason(x); r != "" {
					break
				}
			}
		case *syntax.WordIter:
			for _, it := range l.Items {
				if r = w.evalIn(it); r != "" {
					break
				}
			}
		}
	case *syntax.CaseClause:
		r = w.evalIn(c.Word)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				if r == "" {
					r = w.evalIn(p)
				}
			}
		}
	}
	for _, rd := range st.Redirs {
		if r == "" && rd.Word != nil {
			r = w.evalIn(rd.Word)
		}
		if r == "" && rd.Hdoc != nil {
			r = w.evalIn(rd.Hdoc)
		}
	}
	return r
}

// evalIn finds, in the words of n, an expansion that evaluates a value it
// cannot vouch for: arithmetic, a subscript, an offset, ${!x}, ${x@P}, a
// value assigned to an integer variable. Substitutions are units of their
// own, walked apart.
func (w *walker) evalIn(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Word:
		if !mayEvaluate(n.Parts) {
			return ""
		}
	case *syntax.Assign:
		if n.Index == nil && n.Array == nil && (n.Value == nil || (!mayEvaluate(n.Value.Parts) && !w.mayDeclareInts())) {
			return ""
		}
	}
	reason := ""
	syntax.Walk(n, func(n syntax.Node) bool {
		if reason != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.Stmt:
			return false
		case *syntax.ArithmExp:
			reason = w.arithReason(n.X)
			return false
		case *syntax.ParamExp:
			reason = w.paramEval(n)
		case *syntax.Assign:
			reason = w.assignEval(n)
		}
		return true
	})
	return reason
}

// mayEvaluate is the cheap test before evalIn's walk: a part that is
// arithmetic, or a parameter expansion with an operator, a subscript or an
// offset (whose words may nest more).
func mayEvaluate(parts []syntax.WordPart) bool {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.ArithmExp:
			return true
		case *syntax.ParamExp:
			if p.Excl || p.Index != nil || p.Slice != nil || p.Exp != nil || p.Repl != nil {
				return true
			}
		case *syntax.DblQuoted:
			if mayEvaluate(p.Parts) {
				return true
			}
		}
	}
	return false
}

func (w *walker) arithReason(x syntax.ArithmExpr) string {
	if x == nil || w.arithSafe(x) {
		return ""
	}
	return evalArith
}

// paramEval checks one parameter expansion: ${!x}, ${x@P}, a subscript,
// an offset.
func (w *walker) paramEval(pe *syntax.ParamExp) string {
	if pe.Param == nil {
		return ""
	}
	name := pe.Param.Value
	switch {
	case pe.Excl && pe.Names == 0 && !allIndex(pe.Index):
		if !w.vars().holds(name, kindName) {
			return fmt.Sprintf(evalIndirect, name)
		}
	case pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word != nil && pe.Exp.Word.Lit() == "P":
		if !w.vars().holds(name, kindText) {
			return fmt.Sprintf(evalPrompt, name, name)
		}
	}
	if pe.Index != nil && !allIndex(pe.Index) && !w.vars().assocs[name] && !w.arithSafe(pe.Index) {
		return evalArith
	}
	if pe.Slice != nil && (!w.arithSafe(pe.Slice.Offset) || !w.arithSafe(pe.Slice.Length)) {
		return evalArith
	}
	return ""
}

// assignEval checks an assignment: its subscript and its array's, and
// the value given to an integer variable.
func (w *walker) assignEval(a *syntax.Assign) string {
	if a.Name == nil || (a.Index == nil && a.Array == nil && !w.mayDeclareInts()) {
		return ""
	}
	name := a.Name.Value
	v := w.vars()
	if a.Index != nil && !v.assocs[name] && !w.arithSafe(a.Index) {
		return evalArith
	}
	if a.Array != nil && !v.assocs[name] {
		for _, e := range a.Array.Elems {
			if e.Index != nil && !w.arithSafe(e.Index) {
				return evalArith
			}
		}
	}
	if a.Value != nil && v.ints[name] && !w.arithText(a.Value) {
		return evalArith
	}
	return ""
}

// mayDeclareInts is the cheap test before a scan for declare -i, made once
// per source: it is asked for every assignment, and a scan of the whole
// text each time made 260,000 assignments take seconds.
func (w *walker) mayDeclareInts() bool {
	if w.declInts == 0 {
		w.declInts = 1
		if strings.Contains(w.src, "-") &&
			(strings.Contains(w.src, "declare") || strings.Contains(w.src, "typeset") || strings.Contains(w.src, "local")) {
			w.declInts = 2
		}
	}
	return w.declInts == 2
}

// declEval checks a declaration: a word it re-parses as an assignment, a
// reference to a name with a subscript, values of integer variables, and
// the subscripts and expansions of its assignments.
func (w *walker) declEval(c *syntax.DeclClause) string {
	flags := w.declFlags(c)
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if t, lit := w.literal(a.Value); !lit || strings.Contains(t, "=(") {
				return evalReparse
			}
			continue
		}
		if a.Name != nil && a.Value != nil && strings.Contains(flags, "n") {
			if t, lit := w.literal(a.Value); !lit || !plainName.MatchString(t) {
				return fmt.Sprintf(evalReference, a.Name.Value, w.source(a.Value), a.Name.Value)
			}
		}
		if a.Value != nil && strings.Contains(flags, "i") && !w.arithText(a.Value) {
			return evalArith
		}
		if r := w.evalIn(a); r != "" {
			return r
		}
	}
	return ""
}

// testEval checks [[ … ]]: the operands of -eq, -ne, -lt, -le, -gt, -ge
// are arithmetic expressions; -v names a variable, subscript included.
func (w *walker) testEval(x syntax.TestExpr) string {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			if !w.testArith(x.X) || !w.testArith(x.Y) {
				return evalArith
			}
		}
		if r := w.testEval(x.X); r != "" {
			return r
		}
		return w.testEval(x.Y)
	case *syntax.UnaryTest:
		if word, ok := x.X.(*syntax.Word); ok && x.Op == syntax.TsVarSet {
			if t, lit := w.literal(word); !lit || !plainName.MatchString(t) {
				return fmt.Sprintf(evalName, w.source(word))
			}
		}
		return w.testEval(x.X)
	case *syntax.ParenTest:
		return w.testEval(x.X)
	case *syntax.Word:
		return w.evalIn(x)
	}
	return ""
}

func (w *walker) testArith(x syntax.TestExpr) bool {
	word, ok := x.(*syntax.Word)
	return ok && w.arithText(word)
}

// namedVariables checks the builtins that take a variable's name and
// evaluate a subscript in it: read, printf -v, wait -p, unset, test -v
// and [ -v. A name must be literal, plain or with a numeric subscript.
func (w *walker) namedVariables(prog string, argWords []*syntax.Word) string {
	var names []string
	switch prog {
	case "read", "printf", "wait":
		names = w.assignedNames(prog, argWords)
	case "unset", "test", "[":
		after := prog != "unset"
		for _, word := range argWords {
			t, _ := w.wordText(word)
			switch {
			case prog == "unset" && t == "-f":
				return "" // functions, not variables
			case prog == "unset" && strings.HasPrefix(t, "-"):
			case after && t == "-v":
				after = false
				continue
			case !after:
				names = append(names, t)
				if prog != "unset" {
					after = true
				}
			}
		}
	}
	for _, n := range names {
		if !plainName.MatchString(n) {
			return fmt.Sprintf(evalName, n)
		}
	}
	return ""
}

// arithSafe reports whether an arithmetic expression evaluates only
// values the command sets to numbers. Assigning a variable (x = …, x++)
// makes it a number; reading one whose value is not known may run code.
func (w *walker) arithSafe(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.BinaryArithm:
		if isArithAssign(x.Op) {
			return w.lvalueSafe(x.X, x.Op != syntax.Assgn) && w.arithSafe(x.Y)
		}
		return w.arithSafe(x.X) && w.arithSafe(x.Y)
	case *syntax.UnaryArithm:
		return w.arithSafe(x.X)
	case *syntax.ParenArithm:
		return w.arithSafe(x.X)
	case *syntax.Word:
		return w.arithWordSafe(x.Parts)
	}
	return false
}

// lvalueSafe checks what an arithmetic assignment assigns: its subscript,
// and its old value when the operator reads it (+=, …).
func (w *walker) lvalueSafe(x syntax.ArithmExpr, reads bool) bool {
	word, ok := x.(*syntax.Word)
	if !ok || len(word.Parts) != 1 {
		return false
	}
	switch p := word.Parts[0].(type) {
	case *syntax.Lit:
		return identifier.MatchString(p.Value) && (!reads || w.vars().holds(p.Value, kindInt))
	case *syntax.ParamExp:
		if p.Dollar.IsValid() || p.Param == nil || (p.Index != nil && !w.arithSafe(p.Index)) {
			return false
		}
		return !reads || w.vars().holds(p.Param.Value, kindInt)
	}
	return false
}

// arithWordSafe checks the parts of an arithmetic operand.
func (w *walker) arithWordSafe(parts []syntax.WordPart) bool {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if !numberLit.MatchString(p.Value) && !(identifier.MatchString(p.Value) && w.vars().holds(p.Value, kindInt)) {
				return false
			}
		case *syntax.ParamExp:
			if !w.paramIntSafe(p) {
				return false
			}
		case *syntax.ArithmExp:
			if !w.arithSafe(p.X) {
				return false
			}
		case *syntax.DblQuoted:
			if !w.arithWordSafe(p.Parts) {
				return false
			}
		default:
			return false // a substitution's output is evaluated too
		}
	}
	return true
}

// paramIntSafe reports a parameter expansion that yields a number the
// command vouches for: a variable it sets to one, ${#x}, $#, $?.
func (w *walker) paramIntSafe(pe *syntax.ParamExp) bool {
	if pe.Param == nil || pe.Excl || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Names != 0 || pe.Width {
		return false
	}
	name := pe.Param.Value
	v := w.vars()
	if pe.Index != nil && !allIndex(pe.Index) && !v.assocs[name] && !w.arithSafe(pe.Index) {
		return false
	}
	return pe.Length || v.holds(name, kindInt)
}

// arithText reports whether a word, expanded and then evaluated as an
// arithmetic expression ([[ x -eq y ]], an integer variable's value), is
// safe: numbers and operators, or one variable or expansion it vouches for.
func (w *walker) arithText(word *syntax.Word) bool {
	if t, lit := w.literal(word); lit {
		return numberLit.MatchString(t) || arithSource.MatchString(t) || (identifier.MatchString(t) && w.vars().holds(t, kindInt))
	}
	return w.arithWordSafe(word.Parts)
}

// allIndex reports the subscript [@] or [*]: every element, no arithmetic.
func allIndex(x syntax.ArithmExpr) bool {
	word, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	lit := word.Lit()
	return lit == "@" || lit == "*"
}
