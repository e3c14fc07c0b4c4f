package bashfacts

import (
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
	for _, r := range runs {
		from, to := m.word(r.From), m.word(r.To-1)+1
		for k := from; k < to; k++ {
			consumed[k] = true
		}
		what, origin := prog, "wrapped by "+prog
		if r.Flag != "" {
			what, origin = prog+" "+r.Flag, "run by "+prog+" "+r.Flag
		}
		switch words := m.words[from:to]; {
		case r.Attached:
			// fd --exec=rm -f: the command starts in the option's own word.
			parts := append([]string{m.res.Words[r.From].Value}, texts[from+1:to]...)
			out = append(out, w.payloadOf(nil, what, sc, parts...))
		case r.Line:
			out = append(out, w.payloadOf(words, what, sc))
		case len(words) == 1 && strings.ContainsAny(texts[from], " \t\n;|&"):
			// A command line in one word (timeout 5 'rm -rf x'): the
			// program is not found, but read it as the line it reads as.
			out = append(out, w.payloadOf(words, what, sc))
		default:
			out = append(out, w.nestedCommand(words, origin, sc))
		}
	}
	return out
}

// word returns the argument word that holds model argument k.
func (m *modelRead) word(k int) int {
	if m.src == nil {
		return k
	}
	return m.src[k]
}

// indirection returns the walk of the command a wrapper without an
// argument model runs (indirections), and marks its words consumed.
func (w *walker) indirection(prog string, spec indirection, args []string, argWords []*syntax.Word, consumed []bool, sc scope) []func() {
	i := skipOptions(args, spec.valueShort, spec.valueLong)
	end := len(args)
	if spec.until != "" {
		if k := indexOf(args[i:], spec.until); k >= 0 {
			end = i + k
		}
	}
	for k := i; k < end; k++ {
		consumed[k] = true
	}
	inner := argWords[i:end]
	switch {
	case len(inner) == 1 && strings.ContainsAny(args[i], " \t\n;|&"):
		// rush 'ping {}': a command line in one word.
		return []func(){w.payloadOf(inner, prog, sc)}
	case len(inner) > 0:
		return []func(){w.nestedCommand(inner, "wrapped by "+prog, sc)}
	}
	return nil
}
