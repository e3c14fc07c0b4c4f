package argmodel

import "slices"

// runs reports whether a role is a word of a command the program runs.
func runs(role string) bool {
	return role == Command || role == CommandLine || role == CommandSplit
}

// Run is a command a program runs, found among its arguments (timeout's
// COMMAND, each of find's -exec … ;, the operands rush joins).
type Run struct {
	// Args are the arguments that hold it, in order: in a row, or, for a
	// program that reads options among its operands (rush), the operands.
	Args []int
	// Line is set when the words are joined into one line that a shell
	// parses (watch CMD…, flock FILE -c CMD, env -S STRING).
	Line bool
	// Split is set when the first word is a string the program splits
	// into words itself (env -S STRING), the other words following them.
	Split bool
	// Attached is set when the command begins inside the first argument,
	// after its option (fd --exec=rm, fd -xrm): that argument's Word.Value
	// is its first part.
	Attached bool
	// Flag is the option whose value the command is, as spelt (-exec,
	// --exec, -S); "" for a command among the operands.
	Flag string
	// As is the program a command line is given to, when it is not a
	// shell's (Slot.As: tmux if-shell's commands are tmux LINE).
	As string
}

// Runs returns the commands the program runs, in order, from the roles
// of the words: a run is the words in a row that hold one command, or
// the operands a program that permutes its options joins into one. args
// are the arguments the result was parsed from.
func (r Result) Runs(args []Arg) []Run {
	var out []Run
	attached := func(i int) bool { return i < len(args) && args[i].Text != r.Words[i].Value }
	for i := 0; i < len(r.Words); i++ {
		role := r.Words[i].Role
		switch {
		case !runs(role):
			continue
		case slices.Contains(r.spread, i):
			if i == r.spread[0] {
				out = append(out, Run{Args: r.spread, Line: role == CommandLine, Split: role == CommandSplit})
			}
			continue
		}
		run := Run{Args: []int{i}, Line: role == CommandLine, Split: role == CommandSplit, Attached: attached(i), Flag: r.runFlags[i], As: r.runAs[i]}
		for i+1 < len(r.Words) && r.Words[i+1].Role == role && !attached(i+1) && !r.startsRun(i+1) {
			i++
			run.Args = append(run.Args, i)
		}
		out = append(out, run)
	}
	return out
}

// startsRun reports whether argument i begins a command of its own
// (parallel ::: 'rm x' 'ls': each is one).
func (r Result) startsRun(i int) bool {
	_, ok := r.runFlags[i]
	return ok
}

// startLine records that argument i begins a command line of its own,
// given to the program as ("" for a shell).
func (ps *parser) startLine(i int, as string) {
	ps.startRun(i, "")
	if as != "" {
		if ps.r.runAs == nil {
			ps.r.runAs = map[int]string{}
		}
		ps.r.runAs[ps.off+i] = as
	}
}

// startRun records that argument i (of the program being read) begins a
// command of its own, the value of the option flag ("" for one among the
// operands).
func (ps *parser) startRun(i int, flag string) {
	if ps.r.runFlags == nil {
		ps.r.runFlags = map[int]string{}
	}
	ps.r.runFlags[ps.off+i] = flag
}
