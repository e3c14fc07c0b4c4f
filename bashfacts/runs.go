package bashfacts

import (
	"path"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
	"mvdan.cc/sh/v3/syntax"
)

// runsOf returns the walks of the commands a program runs, as its
// argument model finds them (argmodel.Result.Runs: timeout's COMMAND,
// each of find's -exec … ;, watch's command line), and marks their words
// consumed: they are the command's words, not the program's own
// arguments. texts are the argument words' texts.
func (w *walker) runsOf(prog string, runs []argmodel.Run, m *modelRead, texts []string, consumed []bool, sc scope) []func() {
	var out []func()
	if m.res.Chdir != "" || m.res.ChdirUnknown {
		sc.dir = w.chdirTo(m.res.Chdir, m.res.ChdirUnknown, sc)
	}
	for _, r := range runs {
		// The argument words that hold the run, each once (a word bash
		// splits by its braces is several model arguments).
		var idx []int
		for _, k := range r.Args {
			if i := m.word(k); len(idx) == 0 || idx[len(idx)-1] != i {
				idx = append(idx, i)
				consumed[i] = true
			}
		}
		words := make([]*syntax.Word, len(idx))
		for j, i := range idx {
			words[j] = m.words[i]
		}
		what, origin := prog, "wrapped by "+prog
		if r.Flag != "" {
			what, origin = prog+" "+r.Flag, "run by "+prog+" "+r.Flag
		}
		if m.res.Opaque {
			what = prog + " -c" // the specification's name for the payload
		}
		switch {
		case r.Attached:
			// fd --exec=rm -f: the command starts in the option's own word.
			parts := []string{m.res.Words[r.Args[0]].Value}
			for _, i := range idx[1:] {
				parts = append(parts, texts[i])
			}
			out = append(out, w.payloadOf(nil, what, sc, parts...))
		case r.Split:
			out = append(out, w.splitPayload(prog, r, m, words, what, sc))
		case r.Line && r.As != "":
			// tmux if-shell COND 'run-shell "rm x"': a tmux command,
			// read as tmux LINE (its quoting is close to bash's).
			out = append(out, w.programLine(r.As, words, what, sc))
		case r.Line:
			out = append(out, w.payloadOf(words, what, sc))
		case len(words) == 1 && strings.ContainsAny(texts[idx[0]], " \t\n;|&"):
			// A command line in one word (timeout 5 'rm -rf x'): the
			// program is not found, but read it as the line it reads as.
			out = append(out, w.payloadOf(words, what, sc))
		default:
			out = append(out, w.nestedCommand(words, origin, sc))
		}
	}
	return out
}

// splitPayload is the walk of env -S STRING [ARG…]: env splits STRING into
// words itself (envsplit.go) and reads them, with the words after, as its
// own arguments again, options and NAME=value included. So the payload is
// the program given those words, in bash's quoting (env -S 'rm\_x' is env
// rm x). A string env refuses, or one bash builds from an expansion, is
// read as the shell line it was read as before (the wrapper's floor asks
// either way).
func (w *walker) splitPayload(prog string, r argmodel.Run, m *modelRead, words []*syntax.Word, what string, sc scope) func() {
	str := m.res.Words[r.Args[0]].Value
	split, ok := envSplit(str)
	if _, lit := w.literal(words[0]); !ok || !lit {
		return w.payloadOf(words, what, sc)
	}
	parts := append([]string{prog}, split...)
	for _, word := range words[1:] {
		// The words after the string keep their own quoting.
		from, to := int(word.Pos().Offset()), int(word.End().Offset())
		if from > to || to > len(w.src) {
			return w.payloadOf(words, what, sc)
		}
		parts = append(parts, w.src[from:to])
	}
	return w.payloadOf(nil, what, sc, parts...)
}

// programLine is the walk of a command line given to the program as
// rather than to a shell: the words' values, after as, parsed as bash
// parses a line. A word bash expands is not known: nothing is walked.
func (w *walker) programLine(as string, words []*syntax.Word, what string, sc scope) func() {
	parts := []string{as}
	for _, word := range words {
		t, lit := w.literal(word)
		if !lit {
			return func() {}
		}
		parts = append(parts, t)
	}
	return w.payloadOf(nil, what, sc, parts...)
}

// word returns the argument word that holds model argument k.
func (m *modelRead) word(k int) int {
	if m.src == nil {
		return k
	}
	return m.src[k]
}

// chdirTo is the folder a wrapper starts its command in when an option
// moves it (env -C DIR, sudo -D DIR), joined as a cd joins it; unknown
// when it cannot be named (a login shell's home, an expansion, ~user).
// The kernel resolves ".." through links where the join does not, but a
// wrapper is floored to ask whatever its command: the join can only turn
// that ask into a deny the command's own rules give.
func (w *walker) chdirTo(v string, unknown bool, sc scope) Dir {
	var d Dir
	switch {
	case unknown || v == "" || strings.HasPrefix(v, "~") && v != "~" && !strings.HasPrefix(v, "~/"):
		return unknownDir
	case path.IsAbs(v) || strings.HasPrefix(v, "~"):
		d = Dir{Path: path.Clean(v)}
	case sc.dir.Unknown:
		return unknownDir
	default:
		d = Dir{Path: path.Join(sc.dir.Path, v)}
		if d.Path == "." {
			d.Path = ""
		}
	}
	if !w.dirWithin(d) {
		return unknownDir
	}
	return d
}
