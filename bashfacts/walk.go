package bashfacts

import (
	"fmt"

	"github.com/regate/regate/bashfacts/argmodel"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// input is what regate knows of a statement's standard input.
type input struct {
	// from says where it comes from when it may carry a program (a pipe,
	// a heredoc, a here-string).
	from string
	// text is the input when a heredoc or a here-string gives it
	// literally (known).
	text  string
	known bool
	// file is the file a "< FILE" redirect gives as the statement's one
	// input, when it is literal ("" otherwise).
	file string
}

// scope is what a statement inherits from where it stands.
type scope struct {
	origin string
	dir    Dir
	depth  int
	// stdin is the statement's standard input, as far as regate knows it.
	stdin input
	// env names a sensitive variable the command's own assignments set.
	env string
	// strictOnly marks what only strict mode evaluates: the commands of the
	// wrappers it adds.
	strictOnly bool
	// prefix is the source of a simple command's own leading assignments
	// when one of them sets a sensitive variable (PAGER=x git log): the
	// unit's Prefix, for that command alone.
	prefix string
	// feeds is set where what the statement prints becomes another
	// command's input or words (the left of a pipe, a substitution): a
	// string echo prints there may be a path after all.
	feeds bool
	// evaluates says why the statement's own words evaluate a stored
	// string (storedeval.go).
	evaluates string
}

// walker collects the units and tokens of one source. A -c or eval payload
// is parsed on its own and walked by a child walker that shares the output
// and reports every position as the payload word's (at).
type walker struct {
	out *Facts
	src string
	at  *Pos
	err error
	// root is the parsed source, scanned for assignments when a construct
	// needs them (vars.go, storedvars.go).
	root *syntax.File
	// unitPos is where the simple command being walked starts; a payload
	// taken from a flag's attached value is placed there.
	unitPos Pos
	// envSet names a sensitive variable an earlier statement set (PATH=…,
	// export LD_PRELOAD=…): every later unit runs under it.
	envSet string
	// argBuf holds the arguments of the unit whose argument model is
	// being read (readModel), reused from one unit to the next.
	argBuf []argmodel.Arg
	argArr [8]argmodel.Arg // argBuf's first backing: most commands have fewer words
	// assigned is what the source assigns to each variable, collected on
	// first use (vars.go).
	assigned map[string]varValue
	// shell is what earlier statements did to the shell (shellstate.go).
	shell shellState
	// spent is the work budget's account (budget.go), shared with the
	// walkers of payloads.
	spent *budget
	// declInts caches mayDeclareInts: 0 not asked yet, 1 no, 2 yes.
	declInts int8
}

var unknownDir = Dir{Unknown: true}

func (w *walker) pos(p syntax.Pos) Pos {
	if w.at != nil {
		return *w.at
	}
	return Pos{Offset: int(p.Offset()), Line: int(p.Line()), Col: int(p.Col())}
}

// enter opens a nested scope, failing closed past MaxDepth.
func (w *walker) enter(sc scope, origin string) (scope, bool) {
	if sc.depth+1 > MaxDepth {
		w.fail(fmt.Errorf("%w: units nest deeper than %d", ErrLimit, MaxDepth))
		return sc, false
	}
	sc.depth++
	sc.origin = origin
	sc.stdin, sc.env, sc.evaluates = input{}, "", ""
	return sc, true
}

// stmts walks a statement list in order; a literal cd changes the directory
// of the statements after it. It returns the directory at the end.
func (w *walker) stmts(list []*syntax.Stmt, sc scope) Dir {
	for _, st := range list {
		if w.err != nil {
			break
		}
		sc.dir = w.stmt(st, sc)
	}
	return sc.dir
}

func (w *walker) stmt(st *syntax.Stmt, sc scope) Dir {
	// A statement's own input redirect replaces the input it inherits (a
	// group's heredoc, a pipe).
	if in := stdinOf(st); in != "" {
		sc.stdin.from = in
	}
	if in, several := inputRedirect(st); in != nil {
		sc.stdin.text, sc.stdin.known, sc.stdin.file = "", false, ""
		if !several {
			sc.stdin.text, sc.stdin.known = w.stdinText(in)
			sc.stdin.file = w.stdinFile(in)
		}
	}
	sc.evaluates = w.noteStatement(st)
	after := w.command(st.Cmd, sc)
	w.redirects(st.Redirs, sc)
	if st.Background || st.Coprocess || st.Disown {
		return sc.dir // a background job's cd does not reach what follows
	}
	return after
}

func (w *walker) command(cmd syntax.Command, sc scope) Dir {
	switch c := cmd.(type) {
	case nil:
		return sc.dir
	case *syntax.CallExpr:
		return w.call(c, sc)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			next := sc
			next.dir = w.stmt(c.X, sc)
			return w.stmt(c.Y, next)
		case syntax.OrStmt:
			// The right side runs only when the left failed, in the
			// directory the left started from.
			x, y := w.stmt(c.X, sc), w.stmt(c.Y, sc)
			if x == y {
				return x
			}
			return unknownDir
		default: // pipeline stages are subshells: nothing leaks
			left := sc
			left.feeds = true
			w.stmt(c.X, left)
			piped := sc
			piped.stdin = input{from: "a pipe"}
			w.stmt(c.Y, piped)
			return sc.dir
		}
	case *syntax.Subshell:
		w.compound(c, "(", sc)
		if in, ok := w.enter(sc, "inside subshell"); ok {
			w.stmts(c.Stmts, in)
		}
		return sc.dir
	case *syntax.Block:
		w.compound(c, "{", sc)
		if in, ok := w.enter(sc, "inside { } group"); ok {
			return w.stmts(c.Stmts, in)
		}
		return sc.dir
	case *syntax.IfClause:
		w.compound(c, "if", sc)
		in, ok := w.enter(sc, "inside if statement")
		for ic := c; ok && ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, in)
			w.stmts(ic.Then, in)
		}
		return w.settled(c, sc)
	case *syntax.WhileClause:
		kw, origin := "while", "inside while loop"
		if c.Until {
			kw, origin = "until", "inside until loop"
		}
		w.compound(c, kw, sc)
		if in, ok := w.enter(sc, origin); ok {
			mark := w.markLoop()
			w.stmts(c.Cond, in)
			w.stmts(c.Do, in)
			w.endLoop(mark)
		}
		return w.settled(c, sc)
	case *syntax.ForClause:
		kw := "for"
		if c.Select {
			kw = "select"
		}
		w.compound(c, kw, sc)
		if in, ok := w.enter(sc, "inside "+kw+" loop"); ok {
			mark := w.markLoop()
			w.substs(c.Loop, in)
			w.enterLoop(c.Loop, in.dir)
			w.stmts(c.Do, in)
			w.endLoop(mark)
		}
		return w.settled(c, sc)
	case *syntax.CaseClause:
		w.compound(c, "case", sc)
		if in, ok := w.enter(sc, "inside case statement"); ok {
			w.substs(c.Word, in)
			for _, item := range c.Items {
				for _, p := range item.Patterns {
					w.substs(p, in)
				}
				w.stmts(item.Stmts, in)
			}
		}
		return w.settled(c, sc)
	case *syntax.FuncDecl:
		// A definition counts as running its body (D1): a function may
		// shadow an allowed command.
		w.compound(c, "function", sc)
		if in, ok := w.enter(sc, "inside function body"); ok && c.Body != nil {
			w.stmt(c.Body, in)
		}
		return sc.dir
	case *syntax.TimeClause:
		u := w.compound(c, "time", sc)
		w.out.Units[u].Wrapper = Indirection
		if c.Stmt != nil {
			w.out.Units[u].Runs = strings.TrimSpace(w.source(c.Stmt))
		}
		if in, ok := w.enter(sc, "wrapped by time"); ok && c.Stmt != nil {
			return w.stmt(c.Stmt, in)
		}
		return sc.dir
	case *syntax.CoprocClause:
		w.compound(c, "coproc", sc)
		if in, ok := w.enter(sc, "inside coproc"); ok && c.Stmt != nil {
			w.stmt(c.Stmt, in)
		}
		return sc.dir
	case *syntax.DeclClause:
		u := w.compound(c, c.Variant.Value, sc)
		for _, a := range c.Args {
			w.substs(a, sc)
			if a.Name != nil && a.Value != nil && sensitiveEnv(a.Name.Value) && !w.inertAssignment(a) {
				w.out.Units[u].Strict = "sets " + a.Name.Value + ", which changes what runs"
				w.envSet = a.Name.Value
			}
		}
		return sc.dir
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		w.compound(c, keyword(c), sc)
		w.substs(c, sc)
		return sc.dir
	}
	// Any other node (bats tests, zsh forms) is matched as its text.
	w.compound(cmd, "", sc)
	w.substs(cmd, sc)
	return sc.dir
}

func keyword(c syntax.Command) string {
	switch c.(type) {
	case *syntax.TestClause:
		return "[["
	case *syntax.ArithmCmd:
		return "(("
	}
	return "let"
}

// settled is the directory after a branch or loop: unchanged when nothing in
// it changes directory, else unknown.
func (w *walker) settled(n syntax.Node, sc scope) Dir {
	changes := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			if name, lit := w.literal(ce.Args[0]); lit && (name == "cd" || name == "pushd" || name == "popd" || w.shell.funcs[name]) {
				changes = true
			}
		}
		return !changes
	})
	if changes {
		return unknownDir
	}
	return sc.dir
}

// compound adds the text of a compound statement as a unit and returns its
// index.
func (w *walker) compound(n syntax.Node, kw string, sc scope) int {
	w.out.Units = append(w.out.Units, Unit{
		Text:       strings.TrimSpace(w.source(n)),
		Pos:        w.pos(n.Pos()),
		Origin:     sc.origin,
		Program:    kw,
		Compound:   true,
		StrictOnly: sc.strictOnly,
		Strict:     sc.evaluates,
	})
	return len(w.out.Units) - 1
}

// substs walks a node for command and process substitutions, wherever they
// stand: arguments, assignments, ${x:-$(…)}, $((…)), [[ … ]], heredoc bodies.
func (w *walker) substs(n syntax.Node, sc scope) {
	if n == nil || w.err != nil {
		return
	}
	if word, ok := n.(*syntax.Word); ok && !substitutes(word.Parts) {
		return // nothing to walk
	}
	w.walkSubsts(n, sc)
}

// walkSubsts is substs' walk, in a function of its own: its closure moves
// sc to the heap on entry, which the words without a substitution (nearly
// all) do not pay.
func (w *walker) walkSubsts(n syntax.Node, sc scope) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			if in, ok := w.enter(sc, "inside command substitution"); ok {
				in.feeds = true
				w.stmts(n.Stmts, in)
			}
			return false
		case *syntax.ProcSubst:
			if in, ok := w.enter(sc, "inside process substitution"); ok {
				in.feeds = true
				w.stmts(n.Stmts, in)
			}
			return false
		case *syntax.Stmt:
			return false
		}
		return true
	})
}

// substitutes reports whether word parts may hold a command or process
// substitution: false only for literal and quoted text and plain
// parameters ($x, "$x", ${x}), the words of nearly every command, which
// hold none. Anything else (${x:-$(…)}, $((…)), a substitution) is walked.
func substitutes(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if substitutes(p.Parts) {
				return true
			}
		case *syntax.ParamExp:
			if !plainParam(p) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// plainParam reports whether a parameter expansion is $name or ${name}
// alone, with nothing that could hold a word of its own.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && p.NestedParam == nil &&
		!p.Excl && !p.Length && !p.Width && !p.IsSet && p.Names == 0 &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil && p.Repl == nil && p.Exp == nil
}

// staticWord reports whether a word is only literal and single-quoted
// parts, which hold no substitution.
func staticWord(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

func (w *walker) call(c *syntax.CallExpr, sc scope) Dir {
	for _, a := range c.Assigns {
		w.substs(a, sc)
		if a.Name != nil && sensitiveEnv(a.Name.Value) && !w.inertAssignment(a) {
			if len(c.Args) == 0 {
				w.envSet = a.Name.Value // NAME=value alone: the rest runs under it
			} else {
				sc.env = a.Name.Value
				sc.prefix = w.sourceBetween(c.Assigns[0], c.Assigns[len(c.Assigns)-1])
			}
		}
	}
	for _, a := range c.Args {
		w.substs(a, sc)
	}
	if len(c.Args) == 0 {
		w.assignmentsOnly(c, sc)
		return sc.dir
	}
	return w.simple(c.Args, c.Pos(), sc)
}

// redirects gates every redirect target as a path (R7) and walks heredoc
// bodies and here-strings for substitutions.
func (w *walker) redirects(rs []*syntax.Redirect, sc scope) {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			// A quoted delimiter keeps the body literal: the parser gives it
			// no substitutions to find. (A nil *Word must not become a
			// non-nil Node.)
			if r.Hdoc != nil {
				w.substs(r.Hdoc, sc)
			}
			continue
		}
		if r.Word == nil {
			continue
		}
		w.noteFDs(r)
		w.substs(r.Word, sc)
		if r.Op == syntax.WordHdoc {
			continue // a here-string is data, not a file
		}
		if v, ok := w.homeForm(r.Word); ok {
			w.token(v, r.Word, TokenRedirect, false, sc)
			w.markWrite(r.Op, v)
			continue
		}
		from := len(w.out.Tokens)
		placed := w.placeTokens(r.Word, TokenRedirect, sc)
		w.markWrites(r.Op, from)
		if placed {
			continue
		}
		v, lit := w.literal(r.Word)
		if !lit {
			v, lit = w.extglobText(r.Word)
			if !lit {
				w.dynamicRedirect(r, sc)
				continue
			}
		}
		if v == "" {
			continue
		}
		if (r.Op == syntax.DplIn || r.Op == syntax.DplOut) && (v == "-" || isNumber(v)) {
			continue // a file descriptor, not a file
		}
		w.token(v, r.Word, TokenRedirect, false, sc)
		w.markWrite(r.Op, v)
	}
}

// markWrite records on the token just added how its redirect writes the
// file, if it does. The streams that are no file (/dev/null, the
// terminal, standard output and error) are written by every other command
// and left alone: asking for them would prompt for nothing.
func (w *walker) markWrite(op syntax.RedirOperator, target string) {
	if how := writeOf(op, target); how != "" {
		w.out.Tokens[len(w.out.Tokens)-1].Writes = how
	}
}

// markWrites is markWrite for every token from index from on.
func (w *walker) markWrites(op syntax.RedirOperator, from int) {
	for i := from; i < len(w.out.Tokens); i++ {
		w.out.Tokens[i].Writes = writeOf(op, w.out.Tokens[i].Value)
	}
}

// writeOf is how a redirect writes its target, "" when it does not.
func writeOf(op syntax.RedirOperator, target string) string {
	var how string
	switch op {
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob, syntax.DplOut, syntax.RdrInOut:
		how = WriteCreate
	case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob:
		how = WriteAppend
	default:
		return ""
	}
	switch target {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2":
		return ""
	}
	return how
}

// strictToken adds a token only strict mode gates.
func (w *walker) strictToken(v string, word *syntax.Word, kind string, sc scope) {
	w.token(v, word, kind, false, sc)
	w.out.Tokens[len(w.out.Tokens)-1].StrictOnly = true
}

func (w *walker) token(v string, word *syntax.Word, kind string, bare bool, sc scope) {
	t := Token{Value: v, Pos: w.pos(word.Pos()), Kind: kind, Bare: bare, Dir: sc.dir, StrictOnly: sc.strictOnly}
	t.Pattern, t.Glob = w.globOf(v, word)
	if hasExtglob(word) {
		t.StrictOnly = true // the spec reads such a word as an expansion, not a path
	}
	w.addToken(t)
}

// payload parses the program an opaque wrapper runs (D2) and walks it as
// nested units. A payload that does not parse is one unparseable unit.
func (w *walker) payload(text string, at Pos, sc scope) {
	f, err := parse(text)
	if err != nil {
		w.out.Units = append(w.out.Units, Unit{Text: strings.TrimSpace(text), Pos: at, Origin: sc.origin, Unparseable: true, StrictOnly: sc.strictOnly})
		return
	}
	// The payload runs after what came before it, and (eval) in the same
	// shell: it starts from the state so far and hands its own back.
	child := &walker{out: w.out, src: text, root: f, at: &at, envSet: w.envSet, shell: w.shell, spent: w.spent}
	child.stmts(f.Stmts, sc)
	w.envSet, w.shell = child.envSet, child.shell
	if child.err != nil && w.err == nil {
		w.err = child.err
	}
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// cd folds a literal cd into the directory (the spec's effective directory)
// and keeps the directory it leaves as the previous one (~-).
func (w *walker) cd(args []*syntax.Word, sc scope) Dir {
	d := w.cdTarget(args, sc)
	if !w.dirWithin(d) {
		return unknownDir
	}
	d.old, d.oldKnown = sc.dir.Path, !sc.dir.Unknown
	return d
}

func (w *walker) cdTarget(args []*syntax.Word, sc scope) Dir {
	physical := false
	for len(args) > 0 {
		v, lit := w.literal(args[0])
		if !lit || v == "-" || v == "--" || !strings.HasPrefix(v, "-") || len(v) < 2 {
			if lit && v == "--" {
				args = args[1:]
			}
			break
		}
		physical = physical || strings.Contains(v, "P") && !strings.HasPrefix(v, "--")
		args = args[1:] // -L, -P, -e, -@
	}
	if len(args) == 0 {
		return Dir{Path: "~"}
	}
	if v, ok := w.homeForm(args[0]); ok {
		return Dir{Path: v}
	}
	if d, ok := w.placeDir(args[0], sc); ok {
		return d
	}
	v, lit := w.literal(args[0])
	switch {
	case lit && v == "-" && sc.dir.oldKnown:
		return Dir{Path: sc.dir.old} // cd - goes back to where the last cd left
	case !lit || v == "-" || v == "" || strings.HasPrefix(v, "~") && v != "~" && !strings.HasPrefix(v, "~/"):
		// ~user, and ~+ or ~- followed by more than a "/…": not a place
		// regate knows.
		return unknownDir
	case physical && HasDotDot(v):
		// cd -P walks the path as the kernel does: link/.. is the
		// folder of the link's target, which a lexical join misses.
		return unknownDir
	case path.IsAbs(v) || v == "~" || strings.HasPrefix(v, "~/"):
		return Dir{Path: path.Clean(v)}
	case sc.dir.Unknown:
		return unknownDir
	}
	p := path.Join(sc.dir.Path, v)
	if p == "." {
		p = ""
	}
	return Dir{Path: p}
}
