package argmodel

// runs reports whether a role is a word of a command the program runs.
func runs(role string) bool {
	return role == Command || role == CommandLine
}

// Run is a command a program runs, found among its arguments (timeout's
// COMMAND, each of find's -exec … ;): the arguments From to To, To
// excluded.
type Run struct {
	From, To int
	// Line is set when the words are joined into one line that a shell
	// parses (watch CMD…, flock FILE -c CMD, env -S STRING).
	Line bool
	// Attached is set when the command begins inside From's own word,
	// after its option (fd --exec=rm, fd -xrm): Words[From].Value is that
	// first part.
	Attached bool
	// Flag is the option whose value the command is, as spelt (-exec,
	// --exec, -S); "" for a command among the operands.
	Flag string
}

// Runs returns the commands the program runs, in order, from the roles
// of the words: a run is the words in a row that hold one command. args
// are the arguments the result was parsed from.
func (r Result) Runs(args []Arg) []Run {
	var out []Run
	for i := 0; i < len(r.Words); i++ {
		role := r.Words[i].Role
		if !runs(role) {
			continue
		}
		run := Run{From: i, Line: role == CommandLine, Attached: i < len(args) && args[i].Text != r.Words[i].Value, Flag: r.runFlags[i]}
		for i++; i < len(r.Words) && r.Words[i].Role == role && !(i < len(args) && args[i].Text != r.Words[i].Value); i++ {
		}
		run.To = i
		i--
		out = append(out, run)
	}
	return out
}
