package bashfacts

import (
	"path"
	"strconv"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
	"mvdan.cc/sh/v3/syntax"
)

// Argument models (docs/strict.md, "Argument models"): for a program with a
// model, its words are read as the program parses them. A word the model
// does not understand floors the unit under strict mode (Unit.Strict); a
// word the spec's token rules take for a path that the model reads as a
// pattern, a string or a value is marked SpecOnly; a path the model finds
// that the spec's rules missed (grep --regex=x .env, tee pnpm.lock) is
// added as a StrictOnly token; and every path token the model reads gets
// its role, which strict mode decides on the role's surface.

// modelRead is one unit's arguments as its program's model reads them.
type modelRead struct {
	w    *walker
	prog string
	res  argmodel.Result
	args []argmodel.Arg
	src  []int // the argument word of each model argument; nil when one each
	// alts are the model arguments that stand for a word with several
	// known values (a variable assigned twice, a loop's): the model reads
	// the word as written, and every value's token takes its role.
	alts  []int
	words []*syntax.Word
	sc    scope
	// code are the files the unit's code opens (code.go).
	code []codeFile
}

// readModel parses a unit's argument words by its program's model; its
// result is not Known when the program has none. A literal word with
// braces is given to the model as the words bash makes of it. The
// arguments live in the walker's buffer, reused by the next unit: the
// read is done with once the unit's tokens are added.
func (w *walker) readModel(prog string, argWords []*syntax.Word, texts []string, sc scope) modelRead {
	if !argmodel.Has(prog) {
		return modelRead{}
	}
	if w.argBuf == nil {
		w.argBuf = w.argArr[:0]
	}
	args := w.argBuf[:0]
	var src []int
	var alts []int
	for i, word := range argWords {
		t := texts[i]
		if strings.HasPrefix(t, "~+") || strings.HasPrefix(t, "~-") {
			// ~+ and ~- are the working directories (places.go): the
			// program reads the place, not a folder named "~+".
			if v, ok := w.knownPlace(word); ok {
				t = v
			}
		}
		if !staticWord(word) && dynamicWord(word) {
			// $HOME/… and $PWD/… name known places: literal to the model.
			if v, ok := w.homeForm(word); ok {
				args = append(args, argmodel.Arg{Text: v})
			} else if v, ok := w.pwdForm(word); ok {
				args = append(args, argmodel.Arg{Text: v})
			} else if v, ok := w.knownPlace(word); ok {
				args = append(args, argmodel.Arg{Text: v})
			} else if v, ok := w.joinedPlace(word); ok {
				args = append(args, argmodel.Arg{Text: v})
			} else if sp, st := w.substitute(word); st == substKnown && len(sp.values) == 1 && !sp.pattern {
				// A variable the command sets to one literal value
				// (p=-r; grep $p X .): the program reads that value.
				args = append(args, argmodel.Arg{Text: sp.values[0], Glob: w.globWord(sp.values[0], word)})
			} else if st == substKnown && len(sp.values) == 1 && (sp.dir == nil || sameDir(*sp.dir, sc.dir)) {
				// $f of for f in *.go: the paths the glob matches, as the
				// glob written in its place would be.
				args = append(args, argmodel.Arg{Text: UnescapeGlob(sp.values[0]), Glob: hasGlobMeta(sp.values[0])})
			} else if _, ok := w.gitListing(word); ok {
				// $(git ls-files …): tracked paths, several words or none,
				// none of them an option (facts asks if one would be).
				args = append(args, argmodel.Arg{Text: t, Dynamic: true, Glob: true})
			} else {
				if st == substKnown {
					// One of several values: the model reads the word's
					// place, and each value's token takes its role.
					alts = append(alts, len(args))
				}
				open := opensOpen(word)
				env := open && w.fromEnvironment(word)
				args = append(args, argmodel.Arg{Text: t, Dynamic: true, OpenStart: open && !env, Environment: env && vanishes(word), Pipe: pipeWord(word)})
			}
			if src != nil {
				src = append(src, i)
			}
			continue
		}
		if strings.Contains(t, "{") {
			if vs := w.braceExpand(word, t); len(vs) != 1 || vs[0] != t {
				if src == nil {
					src = make([]int, len(args), len(argWords)+len(vs))
					for k := range src {
						src[k] = k
					}
				}
				for _, v := range vs {
					args = append(args, argmodel.Arg{Text: v, Glob: w.globWord(v, word)})
					src = append(src, i)
				}
				continue
			}
		}
		args = append(args, argmodel.Arg{Text: t, Glob: w.globWord(t, word)})
		if src != nil {
			src = append(src, i)
		}
	}
	w.argBuf = args
	m := modelRead{w: w, prog: prog, res: argmodel.Parse(prog, args), args: args, src: src, alts: alts, words: argWords, sc: sc}
	if m.res.StdinPatch != "" && !sc.stdin.known && sc.stdin.file == "" && m.res.Problem == "" {
		m.res.Problem = m.res.StdinPatch + " reads the patch from standard input, which regate does not read"
	}
	return m
}

// fromEnvironment reports a word that begins with a variable the command
// does not assign ("$f", ${pattern}x): its value comes from the host's
// environment, which the agent does not choose from one call to the next,
// so the model reads the word as an operand rather than a possible option.
// A variable the command assigns an unknown value (a loop variable, read)
// and a command substitution stay open.
func (w *walker) fromEnvironment(word *syntax.Word) bool {
	parts := flattenQuotes(word.Parts)
	if len(parts) == 0 {
		return false
	}
	pe, ok := parts[0].part.(*syntax.ParamExp)
	if !ok || !isSimpleParam(pe) {
		return false
	}
	_, assigned := w.variable(pe.Param.Value)
	return !assigned
}

// environmentOnly reports a word whose every expansion is a plain $NAME
// or ${NAME} of a variable the command does not assign: the host's
// environment, which the agent does not choose.
func (w *walker) environmentOnly(word *syntax.Word) bool {
	for _, p := range flattenQuotes(word.Parts) {
		switch x := p.part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.ParamExp:
			if !isSimpleParam(x) {
				return false
			}
			if _, assigned := w.variable(x.Param.Value); assigned || !isName(x.Param.Value) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// globWord reports an unquoted glob in a word whose text is t.
func (w *walker) globWord(t string, word *syntax.Word) bool {
	return strings.ContainsAny(t, "*?[") && w.globs(word)
}

// dynamicWord reports whether a word holds an expansion.
func dynamicWord(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
			if sq, ok := x.(*syntax.SglQuoted); ok && sq.Dollar {
				continue // $'…' is static text
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return true
				}
			}
		default:
			return true
		}
	}
	return false
}

// vanishes reports whether a word is unquoted expansions of variables
// alone: unset, bash makes no word of it at all ($NOPE -c is -c).
func vanishes(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if _, ok := p.(*syntax.ParamExp); !ok {
			return false
		}
	}
	return len(word.Parts) > 0
}

// opensOpen reports whether what begins a dynamic word is unknown: it
// begins with an expansion, or an unquoted brace may split it into words
// that begin with anything.
func opensOpen(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if lit, ok := p.(*syntax.Lit); ok && strings.Contains(lit.Value, "{") {
			return true
		}
	}
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if x.Value != "" {
				return false
			}
		case *syntax.SglQuoted:
			if x.Value != "" {
				return false
			}
		case *syntax.ProcSubst:
			return false // /dev/fd/N
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return true
				}
				if lit.Value != "" {
					return false
				}
			}
		default:
			return true
		}
	}
	return false
}

// strictReason joins a model's problem, or a git pathspec regate cannot
// expand, to a unit's strict reason.
func (m *modelRead) strictReason(reason string) string {
	if reason == "" {
		reason = m.pathspecReason()
	}
	switch {
	case m.res.Problem == "":
		return reason
	case reason == "":
		return m.res.Problem
	case strings.Contains(reason, m.res.Problem):
		return reason // the same finding, from the older floors (strict.go)
	}
	return reason + "; " + m.res.Problem
}

// roles gives the spec's tokens of argument word i what the model reads
// there: a path token takes its role; one the model reads as a pattern, a
// string, a value, a URL or code becomes SpecOnly (unless the model did
// not understand the command: then the spec's reading stands). A model
// word a token took is cleared, so that addMissing adds only the paths
// the spec's rules missed.
func (m *modelRead) roles(toks []Token, i int) {
	alt, altRole := m.alt(i), ""
	if alt >= 0 {
		altRole = m.res.Words[alt].Role
		m.res.Words[alt].Role = ""
	}
	for j := range toks {
		t := &toks[j]
		var role string
		k := m.find(i, t.Value)
		switch {
		case k >= 0:
			role = m.res.Words[k].Role
			m.res.Words[k].Role = ""
		case altRole != "":
			k, role = alt, altRole
		default:
			if t.Unknown != "" && m.res.Problem == "" && m.literalArg(i) {
				// "$PWD":/src: the model read the word's literal text
				// (joinedPlace) and took its path out of it (docker's
				// SRC:DST), so the unknown whole word is the spec's
				// reading alone.
				t.SpecOnly = true
			}
			continue
		}
		switch {
		case argmodel.PathRole(role):
			t.Role = role
			if m.afterDashDash(k) {
				t.Bare = false
			}
		case role == argmodel.Option || role == argmodel.Subcommand || role == argmodel.Shell || role == argmodel.Command || role == argmodel.CommandLine || role == argmodel.CommandSplit || role == argmodel.Args:
			// A word of a command a wrapper runs keeps the specification's reading
			// as the wrapper's argument (strict wrappers leave them the unit's own),
			// and so does an argument a program hands to the code it runs.
		case (role == argmodel.String || role == argmodel.Stat) && m.sc.feeds:
			// echo .env | xargs cat, $(ls .env): what echo or ls prints
			// becomes words of another command, so the spec's path
			// reading of it stands.
		case m.res.Problem == "":
			t.SpecOnly = true
			if role == argmodel.Stat {
				// Kept, so that facts can tell a folder that ls or find
				// opens and lists from a file it only examines.
				t.Role = role
			}
		}
	}
}

// literalArg reports whether the model read word i as one literal
// argument: an expansion in it was resolved to a known place.
func (m *modelRead) literalArg(i int) bool {
	if m.src == nil {
		return i < len(m.args) && !m.args[i].Dynamic
	}
	n, literal := 0, true
	for k, s := range m.src {
		if s == i {
			n++
			literal = literal && !m.args[k].Dynamic
		}
	}
	return n == 1 && literal
}

// alt returns the model argument that stands for word i when the word
// has several known values, or -1.
func (m *modelRead) alt(i int) int {
	for _, k := range m.alts {
		if m.src == nil && k == i || m.src != nil && m.src[k] == i {
			return k
		}
	}
	return -1
}

// find returns the model argument of word i whose value is v, or -1.
func (m *modelRead) find(i int, v string) int {
	if m.src == nil {
		if i < len(m.res.Words) && m.res.Words[i].Role != "" && m.res.Words[i].Value == v {
			return i
		}
		return -1
	}
	for k, s := range m.src {
		if s == i && m.res.Words[k].Role != "" && m.res.Words[k].Value == v {
			return k
		}
	}
	return -1
}

// pipeWord reports whether a word is a process substitution alone.
func pipeWord(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	_, ok := word.Parts[0].(*syntax.ProcSubst)
	return ok
}

// addMissing adds, as StrictOnly tokens with their role, the paths the
// model reads that the spec's rules did not take (grep --regex=x .env,
// grep "" .env, tee pnpm.lock, sort -o out), and the operands the program
// uses when none is given (grep -r searches "."), placed at the program.
func (m *modelRead) addMissing(program *syntax.Word) {
	w := m.w
	for k, wd := range m.res.Words {
		if wd.Role == argmodel.Archive && wd.Value == "-" {
			// tar -xf -: the archive is standard input, whose entries
			// regate does not read.
			i := k
			if m.src != nil {
				i = m.src[k]
			}
			w.unknownToken(wd.Value, m.words[i], TokenArgument, "the archive is read from standard input, whose entries regate does not read", m.sc)
			continue
		}
		if !argmodel.PathRole(wd.Role) || wd.Value == "" || wd.Value == "-" {
			continue
		}
		i := k
		if m.src != nil {
			i = m.src[k]
		}
		if m.args[k].Dynamic && pipeWord(m.words[i]) && wd.Role != argmodel.Patch && wd.Role != argmodel.Archive && wd.Role != argmodel.TreeWrite {
			// <(cmd) or >(cmd): /dev/fd/N, a pipe to or from a command
			// walked as units of its own (diff <(sort a) <(sort b)); what
			// the program reads from it or writes into it is that
			// command's. A patch read from one names files regate cannot
			// see, so it stays unknown.
			continue
		}
		if m.args[k].Dynamic {
			// A path the program uses that an expansion spells, which no
			// token of the spec's or the places' rules took: unknown,
			// unless it only reads the host's environment ("$f"). A patch
			// or an archive is unknown even then: what it writes is in the
			// file, which regate reads only at a path it knows.
			if !w.environmentOnly(m.words[i]) || wd.Role == argmodel.Patch || wd.Role == argmodel.Archive {
				w.unknownToken(wd.Value, m.words[i], TokenArgument, "the "+wd.Role+" path "+wd.Value+
					" depends on an expansion regate does not resolve", m.sc)
				w.out.Tokens[len(w.out.Tokens)-1].Role = wd.Role
			}
			continue
		}
		kind := TokenArgument
		if m.args[k].Text != wd.Value {
			kind = TokenOption // a value attached to its option
		}
		w.strictToken(wd.Value, m.words[i], kind, m.sc)
		t := &w.out.Tokens[len(w.out.Tokens)-1]
		t.Role, t.Bare = wd.Role, !pathShaped(wd.Value) && !m.afterDashDash(k)
	}
	switch {
	case m.res.StdinPatch != "" && m.sc.stdin.known:
		// git apply <<'EOF': the patch is the heredoc's text (facts/patch.go).
		w.strictToken("-", program, TokenArgument, m.sc)
		t := &w.out.Tokens[len(w.out.Tokens)-1]
		t.Role, t.Patch = argmodel.Patch, &PatchNames{Text: m.sc.stdin.text}
	case m.res.StdinPatch != "" && m.sc.stdin.file != "":
		// git apply < p.diff: the patch is the file.
		w.strictToken(m.sc.stdin.file, program, TokenArgument, m.sc)
		w.out.Tokens[len(w.out.Tokens)-1].Role = argmodel.Patch
	}
	for _, d := range m.res.Defaults {
		w.strictToken(d.Value, program, TokenArgument, m.sc)
		t := &w.out.Tokens[len(w.out.Tokens)-1]
		t.Role, t.Pathspecs = d.Role, d.Pathspecs
	}
}

// attachFilters gives the recursive reads among a unit's tokens the
// filters its options name (grep --include=*.go, --exclude=.env). A filter
// whose value is not literal is left out: without it the read covers
// more, never less.
func (m *modelRead) attachFilters(toks []Token) {
	var f Filters
	names := PatchNames{Strip: 1}
	var compose ComposeOptions
	archive := ArchiveNames{Format: m.res.ArchiveFormat, Junk: m.res.JunkPaths, Lower: m.res.LowerNames, Print: m.res.PrintEntries}
	for k, wd := range m.res.Words {
		switch wd.Filter {
		case argmodel.FilterStrip, argmodel.FilterDirectory:
			names.set(wd, m.args[k].Dynamic)
			continue
		case argmodel.FilterArchiveDir, argmodel.FilterArchiveStrip:
			archive.set(wd, m.args[k].Dynamic)
			continue
		case argmodel.FilterComposeFile, argmodel.FilterComposeEnvFile, argmodel.FilterComposeDirectory:
			compose.set(wd, m.args[k].Dynamic)
			continue
		}
		if wd.Filter == "" || m.args[k].Dynamic || wd.Value == "" {
			continue
		}
		switch wd.Filter {
		case argmodel.FilterInclude:
			f.Include = append(f.Include, wd.Value)
		case argmodel.FilterExclude:
			f.Exclude = append(f.Exclude, wd.Value)
		case argmodel.FilterExcludeDir:
			f.ExcludeDir = append(f.ExcludeDir, wd.Value)
		}
	}
	f.Include = append(f.Include, m.res.Include...)
	named := false // a path the program writes besides the archive's entries: tar -x's member names
	for _, t := range toks {
		named = named || (t.Role == argmodel.Write && t.Value != archive.Directory)
	}
	for i := range toks {
		switch toks[i].Role {
		case argmodel.Tree, argmodel.TreeVisible, argmodel.TreeTracked:
			if f.Include != nil || f.Exclude != nil || f.ExcludeDir != nil {
				toks[i].Filters = &f
			}
		case argmodel.Patch:
			n := names
			if toks[i].Patch != nil {
				n.Text = toks[i].Patch.Text // a patch read from a heredoc
			}
			toks[i].Patch = &n
		case argmodel.Archive:
			a := archive
			if named && a.Directory != "" {
				// tar applies -C to the member names after it alone:
				// tar -xf a.tgz NAME -C DIR extracts NAME here.
				a.Unknown = "tar applies -C to the member names after it alone"
			}
			toks[i].Archive = &a
		case argmodel.Compose:
			c := compose
			c.Assigned = m.w.variableNames()
			toks[i].Compose = &c
		}
	}
}

// set reads git apply's -p or --directory value into n.
func (n *PatchNames) set(wd argmodel.Word, dynamic bool) {
	if dynamic {
		n.Unknown = "the value of -p or --directory is known only when bash runs the command"
		return
	}
	if wd.Filter == argmodel.FilterDirectory {
		n.Directory = wd.Value
		return
	}
	strip, err := strconv.Atoi(wd.Value)
	if err != nil || strip < 0 {
		n.Unknown = "-p" + wd.Value + " is not a number of components"
		return
	}
	n.Strip = strip
}

// set reads the folder an archive is extracted into (unzip -d, tar -C) or
// the components tar drops (--strip-components) into a.
func (a *ArchiveNames) set(wd argmodel.Word, dynamic bool) {
	switch {
	case dynamic:
		a.Unknown = "the value " + wd.Value + " is known only when bash runs the command"
	case wd.Filter == argmodel.FilterArchiveStrip:
		n, err := strconv.Atoi(wd.Value)
		if err != nil || n < 0 {
			a.Unknown = wd.Value + " is not a number of components"
		}
		a.Strip = n
	case a.Directory != "":
		// unzip takes the first -d after the archive and reads a later
		// one as entry names (and refuses two before it); tar's -C
		// applies to the names after it.
		a.Unknown = "the folder to extract into is given more than once"
	default:
		a.Directory = wd.Value
	}
}

// set reads one of docker compose's options that locate the project into
// c.
func (c *ComposeOptions) set(wd argmodel.Word, dynamic bool) {
	if dynamic {
		c.Unknown = "the compose option " + wd.Value + " is known only when bash runs the command"
		return
	}
	switch wd.Filter {
	case argmodel.FilterComposeFile:
		c.Files = append(c.Files, wd.Value)
	case argmodel.FilterComposeEnvFile:
		c.EnvFiles = append(c.EnvFiles, wd.Value)
	default:
		c.Directory = wd.Value
	}
}

// intoFolder are the programs that, given a folder as their target, write
// each source inside it under its base name (ln TARGET with no link name
// links into the working folder: its model gives "." as the folder).
var intoFolder = set("cp", "mv", "install", "ln")

// attachInto gives the write targets of cp, mv, install and ln the base
// names of the command's other paths (Token.Into): a target that is a
// folder is written as folder/NAME, which strict mode decides as the write
// it is.
func attachInto(prog string, toks []Token) {
	if !intoFolder[prog] {
		return
	}
	for i := range toks {
		if toks[i].Role != argmodel.Write {
			continue
		}
		var names []string
		for j := range toks {
			if j == i || !argmodel.PathRole(toks[j].Role) || toks[j].Unknown != "" {
				continue
			}
			if base := path.Base(toks[j].Value); base != "/" && base != "." && base != ".." {
				names = append(names, base)
			}
		}
		toks[i].Into = names
	}
}

// afterDashDash reports a git pathspec after "--": git reads it as a path
// in the index and the history whether or not the work tree has it (before
// "--", git takes a name for a path only when the work tree has it, as a
// bare token is).
func (m *modelRead) afterDashDash(k int) bool {
	if m.prog != "git" {
		return false
	}
	for _, a := range m.args[:k] {
		if a.Text == "--" && !a.Dynamic {
			return true
		}
	}
	return false
}

// pathspecReason is why a git pathspec that reads contents floors: git
// matches a glob (*.env, .en?, [.]env) or magic (:(glob)**/x, :!x, :/)
// pathspec against every path of the index and the history, which may
// name a denied file that no word of the command spells. A glob bash
// expands first (unquoted, Arg.Glob) is gated as the files it matches.
func (m *modelRead) pathspecReason() string {
	if m.prog != "git" || m.noIndexDiff() {
		return ""
	}
	for _, d := range m.res.Defaults {
		if d.Pathspecs != nil {
			return "" // the history read matches them against the index
		}
	}
	for k, wd := range m.res.Words {
		switch wd.Role {
		case argmodel.Read, argmodel.Tree, argmodel.TreeTracked, argmodel.Edit, argmodel.Write:
		default:
			continue
		}
		if (!m.args[k].Glob && strings.ContainsAny(wd.Value, "*?[")) || strings.HasPrefix(wd.Value, ":") {
			return "git reads what the pathspec " + wd.Value + " matches in the index and the history, which regate does not expand"
		}
	}
	return ""
}

// noIndexDiff reports git diff --no-index, whose operands are paths of the
// file system, not pathspecs: a quoted * in one is a character of its name.
func (m *modelRead) noIndexDiff() bool {
	sub, noIndex := false, false
	for k, wd := range m.res.Words {
		switch {
		case wd.Role == argmodel.Subcommand:
			sub = wd.Value == "diff"
		case wd.Role == argmodel.Option && m.args[k].Text == "--no-index":
			noIndex = true
		}
	}
	return sub && noIndex
}
