package bashfacts

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// simple adds the unit of one simple command (its words, assignments and
// redirects already taken apart), its path tokens, and the units of the
// commands it runs: a wrapper's command and an opaque wrapper's payload
// (D2). It returns the directory after the command (a literal cd folds).
// start is where the unit begins: its statement, leading assignments
// included, so that it sorts before what is nested in them.
func (w *walker) simple(words []*syntax.Word, start syntax.Pos, sc scope) Dir {
	if stripped := w.stripTransparent(words); len(stripped) != len(words) {
		words = stripped
		if len(words) > 0 {
			start = words[0].Pos()
		}
	}
	if len(words) == 0 || !w.spendWords(expandedCount(words)) {
		return sc.dir
	}
	// A sensitive prefix of the command's own (PAGER=x git log) floors it
	// as the command spelt with the prefix (Unit.Prefix), so that an
	// approval names the prefix too; what the command wraps still runs
	// under it (sc.env).
	prefix, ownEnv := sc.prefix, sc.env
	sc.prefix = ""
	texts := make([]string, len(words))
	u := Unit{Pos: w.pos(start), Origin: sc.origin, StrictOnly: sc.strictOnly}
	w.unitPos = u.Pos
	for i, word := range words {
		t, dyn := w.wordText(word)
		texts[i] = t
		u.Dynamic = u.Dynamic || dyn
	}
	u.Text = strings.Join(texts, " ")
	name, lit := w.literal(words[0])
	prog := ""
	if lit && name != "" {
		prog = path.Base(name)
		u.Program = prog
	}
	args, argWords := texts[1:], words[1:]
	if prog == "env" {
		// env NAME=value runs its command under NAME: what env wraps
		// inherits it.
		for _, a := range args {
			if name := sensitiveAssignment(a); name != "" {
				sc.env = name
			}
		}
	}
	consumed := make([]bool, len(argWords))
	var nested []func()
	var model modelRead
	modelled := false

	if prog == "eval" {
		u.Wrapper = Opaque
		for i := range consumed {
			consumed[i] = true
		}
		nested = append(nested, w.payloadOf(argWords, "eval", sc))
	} else {
		model = w.readModel(prog, argWords, args, sc)
		modelled = true
		runs := model.res.Runs(model.args)
		switch {
		case model.res.Opaque && (len(runs) > 0 || model.res.Problem != ""):
			// bash -c CMD runs its payload; arguments the model does not
			// understand may hide a -c, so they are the wrapper too.
			u.Wrapper = Opaque
			nested = append(nested, w.runsOf(prog, runs, &model, args, consumed, sc)...)
		case !model.res.Opaque && !model.res.StrictWrapper && (model.res.Wrapper || len(runs) > 0):
			u.Wrapper = Indirection
			nested = append(nested, w.runsOf(prog, runs, &model, args, consumed, sc)...)
		}
	}

	strictSc := sc
	if prefix != "" {
		u.Prefix, u.PrefixStrict = prefix, "runs with "+ownEnv+" set, which changes what runs"
		if sc.env == ownEnv {
			strictSc.env = ""
		}
	}
	tokStart := len(w.out.Tokens)
	nested = append(nested, w.strictFacts(&u, prog, words, argWords, args, strictSc, &model)...)
	if !modelled {
		model = w.readModel(prog, argWords, args, sc)
	}
	u.Strict = model.strictReason(u.Strict)
	workDir, workEnd, inside := Dir{}, 0, false
	if prog == "git" {
		workDir, workEnd, inside = gitWorkDir(args, sc.dir)
		if inside && (u.Dynamic || w.at != nil) {
			// Which words are the subcommand's paths is not known here.
			inside = false
			if u.Strict == "" {
				u.Strict = "git -C: regate resolves the paths after it in that folder only in a command without expansions"
			}
		}
	}
	if u.Wrapper != "" {
		var runs []string
		for k, c := range consumed {
			if c {
				runs = append(runs, args[k])
			}
		}
		u.Runs = strings.Join(runs, " ")
	}
	u.Spellings = otherSpellings(u.Text)
	if !u.Dynamic {
		u.Plain = plainText(prog, texts, inside)
		u.Resolved = resolvedText(texts)
		if core := coreText(prog, texts); core != "" && core != u.Plain {
			u.Spellings = append(append(u.Spellings, core), otherSpellings(core)...)
		}
	}
	w.out.Units = append(w.out.Units, u)
	if lit && strings.Contains(name, "/") {
		w.token(name, words[0], TokenProgram, false, sc)
	}
	from := len(w.out.Tokens)
	w.argTokens(prog, argWords, consumed, sc, &model)
	if model.res.Known {
		model.addMissing(words[0])
		model.addCode()
		model.attachFilters(w.out.Tokens[from:])
		attachInto(prog, w.out.Tokens[from:])
		if prog == "find" {
			start := Token{Pos: w.pos(words[0].Pos()), Kind: TokenArgument, Dir: sc.dir}
			w.out.Tokens = append(w.out.Tokens[:from], w.markDeletes(args, w.out.Tokens[from:], start)...)
		}
	}
	if inside {
		// git -C DIR: the subcommand's paths are DIR's, as after cd DIR.
		after := int(argWords[workEnd-1].End().Offset())
		for k := tokStart; k < len(w.out.Tokens); k++ {
			if t := &w.out.Tokens[k]; t.Pos.Offset >= after && t.Dir == sc.dir {
				t.Dir = workDir
			}
		}
	}
	for _, f := range nested {
		f()
	}
	return w.dirAfter(prog, argWords, sc)
}

// stripTransparent drops command, builtin and exec (with their options):
// the command they run is the unit (R12).
func (w *walker) stripTransparent(words []*syntax.Word) []*syntax.Word {
	for len(words) > 0 {
		name, lit := w.literal(words[0])
		opts, ok := transparent[path.Base(name)]
		if !lit || !ok {
			return words
		}
		rest := make([]string, len(words)-1)
		for i, word := range words[1:] {
			rest[i], _ = w.wordText(word)
		}
		n := skipOptions(rest, opts, nil)
		if path.Base(name) == "command" && describesOnly(rest[:n]) {
			return words // command -v NAME prints what NAME is and runs nothing
		}
		words = words[1+n:]
	}
	return words
}

// describesOnly reports whether command's options make it describe its
// operands (-v, -V) rather than run them: bash's command then runs nothing.
func describesOnly(opts []string) bool {
	for _, o := range opts {
		if o != "--" && strings.ContainsAny(o, "vV") {
			return true
		}
	}
	return false
}

// nestedCommand returns the walk of a wrapped command as its own unit.
func (w *walker) nestedCommand(words []*syntax.Word, origin string, sc scope) func() {
	return func() {
		if in, ok := w.enter(sc, origin); ok {
			in.env = sc.env // a wrapped command runs under its wrapper's environment
			w.simple(words, words[0].Pos(), in)
		}
	}
}

// payloadOf returns the walk of an opaque payload: the words joined (eval
// joins its arguments), parsed when they are literal. A payload built from
// expansions cannot be known; the wrapper's floor is all that applies.
// With no words, texts are the payload's literal parts (a flag's attached
// value and what follows it), positioned at the unit.
func (w *walker) payloadOf(words []*syntax.Word, what string, sc scope, texts ...string) func() {
	at := w.unitPos
	return func() {
		parts := texts
		if len(words) > 0 {
			at = w.pos(words[0].Pos())
			parts = make([]string, len(words))
			for i, word := range words {
				t, lit := w.literal(word)
				if !lit {
					return
				}
				parts[i] = t
			}
		}
		if len(parts) == 0 {
			return // a bare eval runs nothing
		}
		if in, ok := w.enter(sc, "inside "+what+" payload"); ok {
			w.payload(strings.Join(parts, " "), at, in)
		}
	}
}

func indexOf(args []string, xs ...string) int {
	for i, a := range args {
		for _, x := range xs {
			if a == x {
				return i
			}
		}
	}
	return -1
}
