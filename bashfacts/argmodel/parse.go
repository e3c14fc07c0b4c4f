package argmodel

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Arg is one word of a command after the program's name, as bash gives it
// to the program, with what regate knows of how bash builds it.
type Arg struct {
	// Text is the word after quote removal; an expansion in it is kept as
	// written.
	Text string
	// Dynamic is set when the word holds an expansion: its value is not
	// known before bash runs.
	Dynamic bool
	// OpenStart is set when what begins the word is not known (it begins
	// with an expansion, or bash may split it): it may begin with "-" and
	// be an option.
	OpenStart bool
	// Environment is set for a word that would open so but for being
	// variables of the host's environment alone ($EDITOR), which the
	// agent does not choose and which is read as one operand. An opaque
	// wrapper reads it as open: unset, it is no word at all, and the -c
	// after it is the shell's (bash $NOPE -c CMD).
	Environment bool
	// Glob is set when the word holds an unquoted glob: bash may replace
	// it by file names, several words or none.
	Glob bool
	// Pipe is set for a process substitution, <(cmd): the program is
	// given a pipe from a command, whose output regate does not see.
	Pipe bool
}

// Word is what the program makes of one argument.
type Word struct {
	// Role is Option for an option word with no value in it, Subcommand
	// for the word that names one, else the role of the value the word
	// holds (an operand, an option's separate value, or the value attached
	// to an option: -ofile, --file=x). "" when the parse stopped before it.
	Role string
	// Value is the value the word holds: the whole word, or the part after
	// the option for an attached value.
	Value string
	// Filter is the option's filter (Opt.Filter) for a value that narrows
	// what a recursive read reads.
	Filter string
}

// Default is an operand the program uses when none is given (grep -r
// searches "."), with its role.
type Default struct {
	Role, Value string
	// Pathspecs narrow a history read (Program.Whole) to the paths they
	// match: the operands after "--", when one of them is a glob.
	Pathspecs []string
}

// Result is a command's arguments as the program's model reads them.
type Result struct {
	// Known is set when the program has a model.
	Known bool
	// Words has one entry per argument.
	Words []Word
	// Defaults are the operands the program uses in place of absent ones.
	Defaults []Default
	// JunkPaths is set when the program writes an archive's entries under
	// their base names alone (unzip -j: the mode "junk-paths");
	// PrintEntries when it prints their contents instead (unzip -p, tar
	// -xO: "print-entries").
	JunkPaths, PrintEntries bool
	// LowerNames: the program may lowercase an archive's entry names
	// (unzip -L: the mode "lower-names").
	LowerNames bool
	// ArchiveFormat is how the program reads an archive
	// (Program.ArchiveFormat).
	ArchiveFormat string
	// StdinPatch names the program ("git apply") when it reads a patch
	// (role patch) from its standard input: no patch operand, or "-". The
	// caller knows what that input is (a heredoc it can read, or not).
	StdinPatch string
	// Problem says why the model does not understand the arguments (or
	// why an option makes the call ask whatever its value); "" when every
	// argument is understood.
	Problem string
	// Wrapper is set for one of the specification's indirection wrappers
	// (Program.Wrapper), and for a program given an option whose value is
	// a command (find -exec, fd -x), even one that is missing.
	Wrapper bool
	// StrictWrapper is set for a program or subcommand that runs another
	// command only strict mode looks into (Program.StrictWrapper).
	StrictWrapper bool
	// Opaque is set for one of the specification's opaque-payload
	// wrappers (Program.Opaque): its command line, among Runs, is the
	// payload; with none and a Problem, the payload cannot be found.
	Opaque bool
	// Language is the language of the code words (Program.Language).
	Language string
	// StdinCode is set when the program reads its code from standard
	// input: its program slot (Slot.Program) applies and takes "-" or no
	// operand at all (python - , python with no script).
	StdinCode bool
	// Include are the base-name patterns a recursive read of the
	// operands is narrowed to (Slot.Include).
	Include []string
	// PipedCode is the process substitution the program reads its code
	// from (python3 <(curl …)): a command's output, which regate does
	// not see.
	PipedCode string
	// Chdir is the folder the commands the program runs start in, when an
	// option moves them (Opt.Chdir: env -C DIR); ChdirUnknown is set when
	// it is not one regate can name (su -l, an expansion).
	Chdir        string
	ChdirUnknown bool
	// runFlags are the options whose values are commands, by the
	// argument their command starts at (Run.Flag); runAs the programs
	// command lines are given to (Run.As).
	runFlags map[int]string
	runAs    map[int]string
	// spread are the operands a command slot took in a program that
	// reads options among them (rush): one command, not one a row.
	spread []int
}

// Parse reads a program's arguments as the program does. program is its
// base name; a program without a model gives a Result that is not Known.
func Parse(program string, args []Arg) Result {
	p, err := lookup(program)
	if err != nil {
		return Result{Known: true, Words: make([]Word, len(args)), Problem: "regate's argument models failed to load: " + err.Error()}
	}
	if p == nil {
		return Result{}
	}
	ps := parser{r: Result{Known: true, Words: make([]Word, len(args)), Wrapper: p.Wrapper, Opaque: p.Opaque}}
	ps.program(p, args, 0)
	if p.bsd != nil {
		ps.r = reread(p, args, &ps)
	}
	if p.StrictRuns && len(ps.r.Runs(args)) > 0 {
		ps.r.StrictWrapper = true
	}
	if (p.Wrapper || p.StrictWrapper) && ps.r.Problem != "" && len(ps.r.Runs(args)) == 0 {
		ps.guessCommand(p, args)
	}
	if rest, ok := strings.CutPrefix(ps.r.Problem, p.name); ok && program != p.name {
		// The model is shared by its names: the reason names the program
		// as the command spelt it (python3 -c, not python -c).
		ps.r.Problem = program + rest
	}
	return ps.r
}

// separateValue returns 1 when the option word t, as far as the model
// knows its options, takes the next word as its value, else 0.
func (ps *parser) separateValue(p *Program, t string) int {
	if name, ok := strings.CutPrefix(t, "--"); ok {
		if strings.Contains(name, "=") {
			return 0
		}
		if o, ok := ps.long(p, name); ok && o.Arg == argRequired {
			return 1
		}
		return 0
	}
	for j := 1; j < len(t); j++ {
		o := p.short[t[j]]
		if o == nil || o.Arg == argNone {
			continue
		}
		if o.Arg == argRequired && j == len(t)-1 {
			return 1
		}
		return 0
	}
	return 0
}

// guessCommand marks, in a wrapper whose arguments are not understood
// before its command, the words its command most likely is: past the
// words read, the options (words that begin with "-"), the operands the
// model takes before the command (timeout's DURATION) and the
// assignments it sets, every word left. The call asks anyway (the
// problem, and the wrapper's floor), but a rule that denies the command
// still denies it: timeout $T rm -rf x is rm -rf x whatever $T holds.
func (ps *parser) guessCommand(p *Program, args []Arg) {
	i := 0
	for i < len(args) && ps.r.Words[i].Role != "" {
		i++
	}
	for i < len(args) && !args[i].Dynamic && len(args[i].Text) > 1 && args[i].Text[0] == '-' {
		if args[i].Text == "--" {
			i++
			break
		}
		i += 1 + ps.separateValue(p, args[i].Text)
	}
	i = min(i, len(args))
	for _, s := range p.Operands {
		if runs(s.Role) {
			break
		}
		if !s.Many && !s.Last && ps.active(s) && i < len(args) {
			i++
		}
	}
	for i < len(args) && p.Assignments && !args[i].Dynamic && IsAssignment(args[i].Text) {
		i++
	}
	for ; i < len(args); i++ {
		ps.r.Words[i] = Word{Role: Command, Value: args[i].Text}
	}
}

type parser struct {
	r Result
	// modes are the modes the options read so far turned on.
	modes []string
	// pending are the option values whose role waits for every mode
	// (role_when).
	pending []pendingRole
	// downloadDir is the folder a download option names (wget -P), where
	// the operands of form download are saved.
	downloadDir string
	// ended is set by an option after which options end (Opt.Ends).
	ended bool
	// off is where the words of the program being read begin among the
	// command's arguments (a subcommand's are after its name): the
	// indexes of runFlags and runAs are the command's.
	off int
	// module is the program an option's value hands the words after it
	// to (Opt.Modules: python -m pytest).
	module string
	// refused is set when a word was not understood, floored when the
	// arguments met a floor's reason (understood, but the call asks);
	// retry when a Cond of Program.Retry held; second in the second
	// reading of a program with BSD options (bsd.go).
	refused, floored, retry, second bool
}

// handOff reads the words after an option whose value names a module of
// a program regate has a model of (python -m pytest …) with that model,
// as the module reads them, once p's own options are finished.
func (ps *parser) handOff(p *Program, rest []Arg, at int) {
	name := ps.module
	ps.module = ""
	if ps.finish(p) {
		ps.programOf(p, name, rest, at)
	}
}

// programOf reads rest, from at on, with the model of the program name,
// which p hands them to.
func (ps *parser) programOf(p *Program, name string, rest []Arg, at int) {
	model, err := lookup(name)
	if err != nil || model == nil {
		ps.fail("%s: regate's model of %s failed to load: %v", p.name, name, err)
		return
	}
	ps.program(model, rest, at)
}

// pendingRole is an option value whose role is decided once every option
// is read.
type pendingRole struct {
	word *Word
	opt  *Opt
	glob bool // the value is a whole word with an unquoted glob
}

func (ps *parser) fail(format string, a ...any) {
	ps.refused = true
	ps.problem(format, a...)
}

// floor is fail for a floor's reason.
func (ps *parser) floor(format string, a ...any) {
	ps.floored = true
	ps.problem(format, a...)
}

// problem keeps the first reason the call is not simply understood.
func (ps *parser) problem(format string, a ...any) {
	if ps.r.Problem == "" {
		ps.r.Problem = fmt.Sprintf(format, a...)
	}
}

// program parses args (the words from off on) as p reads them.
func (ps *parser) program(p *Program, args []Arg, off int) {
	words := ps.r.Words[off : off+len(args)]
	ps.r.StdinCode = ps.r.StdinCode || p.Stdin
	if p.ArchiveFormat != "" {
		ps.r.ArchiveFormat = p.ArchiveFormat
	}
	if p.Syntax == syntaxStrings {
		for i, a := range args {
			words[i] = Word{Role: String, Value: a.Text}
		}
		return
	}
	ps.modes, ps.pending, ps.downloadDir, ps.ended, ps.off = ps.modes[:0], ps.pending[:0], "", false, off
	ps.r.StrictWrapper = ps.r.StrictWrapper || p.StrictWrapper
	ps.r.Language = p.Language
	if p.Then != "" && p.ThenAfter == 0 {
		// yarn node ARGS…: every word is the other program's.
		ps.programOf(p, p.Then, args, off)
		return
	}
	var operands []int
	optionsDone, sawOption, dashDash, narrowed := false, false, false, false
	var pathspecs []Arg // the operands after "--"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if optionsDone && !dashDash && len(operands) > 0 && p.late(a) {
			// unzip ARCHIVE … -x NAMES -d DIR: read after the operand.
			n, _, ok := ps.option(p, args, i, words)
			if !ok {
				return
			}
			i += n
			continue
		}
		if !optionsDone {
			if a.Text == "--" && !a.Dynamic {
				words[i].Role = Option
				optionsDone, dashDash = true, true
				ps.modes = append(ps.modes, p.DashDashSets...)
				continue
			}
			if a.OpenStart || (a.Environment && p.Opaque) {
				ps.fail("%s: %s is an expansion where %s reads options, so regate cannot tell what it is", p.name, a.Text, p.name)
				return
			}
			if a.Text == "-" && !a.Dynamic && p.DashOption != "" && len(operands) == 0 {
				// env -: read where the first operand would be, after
				// which options end, as env reads it.
				words[i] = Word{Role: Option}
				ps.use(p, p.exact[p.DashOption], "", false, false)
				optionsDone = p.Stop
				continue
			}
			if a.Text == "-" && !a.Dynamic && p.DashEnds {
				words[i].Role = Option
				optionsDone = true
				continue
			}
			if p.PlusCommands != "" && len(a.Text) > 1 && a.Text[0] == '+' {
				ps.fail("%s %s %s", p.name, a.Text, p.PlusCommands)
				return
			}
			if n, bundle, ok := ps.bsdWord(p, args, i, words); bundle {
				if !ok {
					return
				}
				i += n
				continue
			}
			if i == 0 && p.OldBundle && !a.Dynamic && a.Text != "" && a.Text[0] != '-' {
				n, _, ok := ps.bundle(p, args, i, words, a.Text, true, false)
				if !ok {
					return
				}
				i += n
				continue
			}
			if i == 0 && p.LeadingNumber != "" && !a.Dynamic && leadingNumber(a.Text, p.LeadingPlus) {
				words[i] = Word{Role: p.exact[p.LeadingNumber].Role, Value: a.Text[1:]}
				continue
			}
			if p.isOption(a.Text) {
				n, leading, ok := ps.option(p, args, i, words)
				if !ok {
					return
				}
				sawOption = sawOption || !leading
				i += n
				optionsDone = ps.ended
				if ps.module != "" {
					ps.handOff(p, args[i+1:], off+i+1)
					return
				}
				continue
			}
		}
		if p.OperandsFirst && sawOption {
			ps.fail("%s: the operand %s comes after an option, where %s takes none", p.name, a.Text, p.name)
			return
		}
		if p.subs != nil {
			sub := p.subcommand(a.Text)
			if a.Dynamic || (sub == nil && p.defaultSub == nil) {
				ps.fail("%s: the subcommand %s is not in regate's model of %s", p.name, a.Text, p.name)
				return
			}
			if !ps.finish(p) {
				return
			}
			next, rest := sub, args[i+1:]
			if sub == nil {
				// yarn build is yarn run build: the word is the default
				// subcommand's first operand.
				next, rest = p.defaultSub, args[i:]
			} else {
				words[i] = Word{Role: Subcommand, Value: a.Text}
			}
			model, err := next.program(p.name)
			if err != nil {
				ps.fail("regate's argument models failed to load: %v", err)
				return
			}
			at := off + len(args) - len(rest)
			if p.Separator == "" {
				ps.program(model, rest, at)
				return
			}
			// tmux new -d CMD \; attach: the subcommand's words end at the
			// separator, and another subcommand follows.
			k := ps.separated(p, rest)
			if k < 0 {
				return
			}
			ps.program(model, rest[:k], at)
			if k < len(rest) {
				ps.r.Words[at+k] = Word{Role: Option}
				ps.program(p, rest[k+1:], at+k+1)
			}
			return
		}
		if p.Then != "" && len(operands) == p.ThenAfter && !dashDash {
			// yarn workspace NAME CMD…: the rest is a command of p.Then.
			if !ps.finish(p) {
				return
			}
			ps.operands(p, args, words, operands)
			ps.programOf(p, p.Then, args[i:], off+i)
			return
		}
		operands = append(operands, i)
		if dashDash {
			narrowed = true
			pathspecs = append(pathspecs, a)
		}
		if p.Stop || (p.StopAfter > 0 && len(operands) >= p.StopAfter) {
			optionsDone = true
		}
	}
	if ps.finish(p) {
		ps.operands(p, args, words, operands)
		ps.whole(p, args, words, operands, pathspecs, narrowed)
	}
}

// separated returns the index of the first word of args that is p's
// separator (len(args) when none is), or -1, having failed, when a word
// ends with it: the program splits that word, which the model does not.
func (ps *parser) separated(p *Program, args []Arg) int {
	for k, a := range args {
		switch {
		case a.Dynamic:
		case a.Text == p.Separator:
			return k
		case strings.HasSuffix(a.Text, p.Separator) && !strings.HasSuffix(a.Text, `\`+p.Separator):
			ps.fail("%s: %s ends with %s, which ends a command where regate reads it as a word", p.name, quoted(a.Text), p.Separator)
			return -1
		}
	}
	return len(args)
}

// whole adds what p reads as a whole (Program.Whole) when one of its
// conditions holds and no operand after "--" narrows it, nor names only
// blobs (git show HEAD:README.md prints that file alone). Pathspecs after
// "--" narrow it to the tracked paths they match (git log -p -- src prints
// every change to a file below src: src/.env's too); when one is a glob
// (git diff -- '*.ts'), only where Program.WholeNarrows allows: git
// matches them against every path it tracks, which the history read gates
// (facts/history.go); one that is magic (:(glob)…, :!…) does not, and is
// left to the caller's floor.
func (ps *parser) whole(p *Program, args []Arg, words []Word, operands []int, pathspecs []Arg, narrowed bool) {
	blobs := len(operands) > 0
	for _, i := range operands {
		blobs = blobs && strings.Contains(args[i].Text, ":")
	}
	var specs []string
	first := len(operands) - len(pathspecs) // operands before "--"
	if narrowed {
		glob, walked := false, true
		for k, a := range pathspecs {
			if a.Dynamic || strings.HasPrefix(a.Text, ":") {
				return
			}
			glob = glob || (!a.Glob && strings.ContainsAny(a.Text, "*?["))
			specs = append(specs, a.Text)
			role := words[operands[first+k]].Role
			walked = walked && (role == Tree || role == TreeTracked)
		}
		c := p.WholeNarrows
		switch {
		case glob && (c == nil || !ps.holds(c.If, c.Unless) || first > 0):
			return // a revision or the index's own history: left to the pathspec floor
		case !glob && walked:
			return // each pathspec is walked as an operand (git diff -- src)
		}
	} else if blobs {
		return
	}
	for _, c := range p.Whole {
		if ps.holds(c.If, c.Unless) && (first == 0 || !c.Bare) {
			value := "."
			if len(specs) == 1 && !strings.ContainsAny(specs[0], "*?[") {
				value = specs[0] // named in the reason: reading the folder src…
			}
			ps.r.Defaults = append(ps.r.Defaults, Default{Role: c.Role, Value: value, Pathspecs: specs})
			return
		}
	}
}

// finish decides, once every option of p is read, the roles that wait for
// its modes and the floors they turn on. It returns false when a value is
// not understood in its role.
func (ps *parser) finish(p *Program) bool {
	for _, pr := range ps.pending {
		role := pr.opt.Role
		for _, c := range pr.opt.RoleWhen {
			if ps.holds(c.If, c.Unless) {
				role = c.Role
				break
			}
		}
		if pr.opt.AtFile && pr.word.Role == Value {
			continue // a plain value, not @file
		}
		pr.word.Role = role
		if pr.glob && !PathRole(role) {
			ps.fail("%s: bash expands the glob %s before %s reads it as the value of %s", p.name, pr.word.Value, p.name, pr.opt.Names[0])
			return false
		}
		if !ps.checkValue(p, role, pr.word.Value) {
			return false
		}
	}
	for _, c := range p.Floors {
		if ps.holds(c.If, c.Unless) {
			ps.floor("%s %s", p.name, c.Reason)
		}
	}
	for _, c := range p.Retry {
		ps.retry = ps.retry || ps.holds(c.If, c.Unless)
	}
	ps.r.JunkPaths = ps.holds([]string{ModeJunkPaths}, nil)
	ps.r.LowerNames = ps.holds([]string{ModeLowerNames}, nil)
	ps.r.PrintEntries = ps.holds([]string{ModePrintEntries}, nil)
	return true
}

// operands gives each operand the role of the slot that takes it.
func (ps *parser) operands(p *Program, args []Arg, words []Word, operands []int) {
	var front, back []*Slot
	var many *Slot
	for _, s := range p.Operands {
		switch {
		case !ps.active(s):
		case s.Last:
			back = append(back, s)
		case s.Many:
			if many == nil {
				many = s
			}
		case many == nil:
			front = append(front, s)
		}
	}
	k, end := 0, len(operands)
	for _, s := range front {
		if k < end {
			if s.Program {
				ps.programFile(args[operands[k]])
			}
			ps.operand(p, args, words, operands[k], s, false)
			k++
		} else if s.Program {
			ps.r.StdinCode = true
		}
	}
	for j := len(back) - 1; j >= 0; j-- {
		if end > k {
			end--
			ps.operand(p, args, words, operands[end], back[j], false)
		}
	}
	switch {
	case many != nil && runs(many.Role):
		ps.command(p, args, words, operands[k:end], many)
	case many != nil:
		for _, i := range operands[k:end] {
			ps.operand(p, args, words, i, many, p.Assignments)
		}
		ps.r.Include = many.Include
		if k == end && many.Role == Patch {
			ps.r.StdinPatch = p.name
		}
		if k == end && many.Default != "" {
			ps.r.Defaults = append(ps.r.Defaults, Default{Role: many.Role, Value: many.Default})
		}
	case k < end:
		ps.fail("%s: the operand %s is more than %s takes", p.name, args[operands[k]].Text, p.name)
	}
}

// command reads the operands of a command slot: after the NAME=value
// words a program that takes assignments sets in the command's
// environment (env A=1 cmd, sudo A=1 cmd), every operand left is a word
// of the command it runs, or, after one of the slot's line flags, the
// one command line the shell runs.
func (ps *parser) command(p *Program, args []Arg, words []Word, operands []int, s *Slot) {
	for len(operands) > 0 && p.Assignments && !args[operands[0]].Dynamic && IsAssignment(args[operands[0]].Text) {
		words[operands[0]] = Word{Role: Value, Value: args[operands[0]].Text}
		operands = operands[1:]
	}
	if len(operands) > 0 && !args[operands[0]].Dynamic && slices.Contains(s.LineFlags, args[operands[0]].Text) {
		words[operands[0]] = Word{Role: Option}
		if len(operands) != 2 {
			ps.fail("%s %s takes one command line", p.name, args[operands[0]].Text)
			return
		}
		words[operands[1]] = Word{Role: CommandLine, Value: args[operands[1]].Text}
		ps.startRun(operands[1], args[operands[0]].Text)
		return
	}
	cmd := operands
	for k, i := range operands {
		if _, ok := s.Sources[args[i].Text]; ok && !args[i].Dynamic {
			cmd = operands[:k]
			ps.sources(p, args, words, operands[k:], s, len(cmd) == 0)
			break
		}
	}
	if !p.Stop {
		ps.r.spread = ps.r.spread[:0]
		for _, i := range cmd {
			ps.r.spread = append(ps.r.spread, ps.off+i)
		}
	}
	for k, i := range cmd {
		words[i] = Word{Role: s.Role, Value: args[i].Text}
		if s.Each || (k == 0 && s.As != "") {
			ps.startLine(i, s.As)
		}
		if s.Floor != "" && containsAny(args[i].Text, s.FloorIfContains) {
			ps.floor("%s %s %s", p.name, quoted(args[i].Text), s.Floor)
		}
	}
}

// sources reads what follows a command slot's command (Slot.Sources):
// each separator word, then the words in the role it gives them. A
// source of role shell gives words of the command (parallel puts them in
// place of {}), which keep the specification's reading; when the program
// was given no command, they are each a command line it runs.
func (ps *parser) sources(p *Program, args []Arg, words []Word, operands []int, s *Slot, commandless bool) {
	role := ""
	for _, i := range operands {
		a := args[i]
		if r, ok := s.Sources[a.Text]; ok && !a.Dynamic {
			words[i] = Word{Role: Option}
			role = r
			continue
		}
		switch {
		case commandless && role == Shell:
			words[i] = Word{Role: CommandLine, Value: a.Text}
			ps.startRun(i, "")
		default:
			words[i] = Word{Role: role, Value: a.Text}
		}
	}
}

func (ps *parser) operand(p *Program, args []Arg, words []Word, i int, s *Slot, assignments bool) {
	a := args[i]
	if s.Assign != nil {
		ps.assigned(p, a, &words[i], s)
		return
	}
	if assignments && !a.Dynamic && IsAssignment(a.Text) {
		words[i] = Word{Role: Value, Value: a.Text}
		if p.AssignmentsFloor != "" {
			ps.floor("%s %s %s", p.name, a.Text, p.AssignmentsFloor)
		}
		return
	}
	if a.Glob && !PathRole(s.Role) && s.Role != String && s.Role != Stat {
		ps.fail("%s: bash expands the glob %s before %s reads it as a %s", p.name, a.Text, p.name, s.Role)
	}
	if s.Role == Patch && a.Text == "-" {
		ps.r.StdinPatch = p.name
	}
	words[i] = Word{Role: s.Role, Value: a.Text}
	if s.As != "" {
		ps.startLine(i, s.As)
	}
	if s.Form != "" {
		role, val, problem := form(s.Form, s.Role, a.Text, a.Dynamic)
		if s.Form == FormDownload && problem == "" && ps.downloadDir != "" {
			val = strings.TrimSuffix(ps.downloadDir, "/") + "/" + val
		}
		words[i] = Word{Role: role, Value: val}
		if problem != "" {
			ps.fail("%s %s", p.name, problem)
		}
	}
	ps.checkValue(p, words[i].Role, words[i].Value)
	if s.Floor != "" && (len(s.FloorIfContains) == 0 || containsAny(a.Text, s.FloorIfContains)) {
		ps.floor("%s %s %s", p.name, quoted(a.Text), s.Floor)
	}
}

// stdinFiles are the names of standard input a program may be given for
// the file of its code (bash /dev/stdin <<< CODE runs CODE), as
// path.Clean spells them.
var stdinFiles = map[string]bool{"-": true, "/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true, "/proc/thread-self/fd/0": true}

// programFile reads the operand that names the file of the program's
// code: standard input, however the path is spelt (/dev//stdin,
// /proc/self/fd/../fd/0, ../../../dev/stdin), or a pipe from a command
// (python3 <(curl …)),
// whose code regate does not see.
func (ps *parser) programFile(a Arg) {
	switch {
	case a.Pipe:
		ps.r.PipedCode = a.Text
	case !a.Dynamic && (a.Text == "-" || stdinFiles[rooted(a.Text)]):
		ps.r.StdinCode = true
	}
}

// rooted is a path as path.Clean spells it, its leading ".." components
// read as the root they reach from a folder deep enough
// (../../../dev/stdin is /dev/stdin from /home/u/repo).
func rooted(p string) string {
	p = path.Clean(p)
	if !strings.HasPrefix(p, "../") {
		return p
	}
	for strings.HasPrefix(p, "../") {
		p = strings.TrimPrefix(p, "../")
	}
	return "/" + p
}

// assigned reads the operand a of an assign slot: NAME=value, the value
// in the role s.Assign gives NAME (dd of=FILE), held by the word w as an
// attached value is. NAME is read up to the first "=", as dd reads it.
func (ps *parser) assigned(p *Program, a Arg, w *Word, s *Slot) {
	name, val, ok := strings.Cut(a.Text, "=")
	role := s.Assign[name]
	switch {
	case !ok || role == "":
		ps.fail("%s: the operand %s is not NAME=value with a NAME in regate's model of %s", p.name, quoted(a.Text), p.name)
	case a.Glob:
		ps.fail("%s: bash expands the glob %s before %s reads it as %s=", p.name, a.Text, p.name, name)
	default:
		*w = Word{Role: role, Value: val}
		ps.checkValue(p, role, val)
	}
}

// active reports whether a slot counts under the modes set.
func (ps *parser) active(s *Slot) bool {
	return ps.holds(s.If, s.Unless)
}

// holds reports whether the modes of on are all set and those of off none.
func (ps *parser) holds(on, off []string) bool {
	for _, m := range on {
		if !contains(ps.modes, m) {
			return false
		}
	}
	for _, m := range off {
		if contains(ps.modes, m) {
			return false
		}
	}
	return true
}

// leadingNumber reports -NUM (and +NUM when plus is allowed).
func leadingNumber(t string, plus bool) bool {
	if len(t) < 2 || (t[0] != '-' && !(plus && t[0] == '+')) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// IsAssignment reports NAME=value, the shape of a shell assignment (and of
// awk's operand that sets a variable).
func IsAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
