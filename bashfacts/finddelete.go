package bashfacts

import (
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
)

// find … -delete (docs/strict.md, "Deletions by find"): find deletes what
// its expression selects below each start point. For an expression regate
// follows, a conjunction of tests that only narrow what is selected
// (-name, -type, -maxdepth, -mindepth, -mtime, -mmin, -size, -newer,
// -empty) with -delete last, each start point is a folder whose entries
// the -name patterns match are deleted (role argmodel.TreeWrite, the
// patterns its include filters; the other tests are left out, which only
// deletes more). Any other expression (-o, !, parentheses, -path, -iname,
// -delete before a test, which deletes everything it reaches) keeps the
// strict floor.

// findDeletes returns the -name patterns of a find … -delete expression
// regate follows, and whether it does.
func findDeletes(args []string) ([]string, bool) {
	i := 0
	for i < len(args) && (args[i] == "-P" || strings.HasPrefix(args[i], "-O")) {
		i++ // -H and -L follow links, which the walk does not: they keep the floor
	}
	for i < len(args) && !strings.HasPrefix(args[i], "-") && args[i] != "(" && args[i] != "!" {
		i++ // a start point
	}
	var names []string
	deleted := false
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case deleted && a != "-print":
			return nil, false // a test after -delete: everything before it was deleted
		case a == "-delete":
			deleted = true
		case a == "-print", a == "-empty", a == "-depth", a == "-xdev", a == "-mount":
		case a == "-name" && i+1 < len(args):
			i++
			names = append(names, args[i])
		case (a == "-type" || a == "-maxdepth" || a == "-mindepth" || a == "-mtime" || a == "-mmin" ||
			a == "-size" || a == "-newer") && i+1 < len(args):
			i++
		default:
			return nil, false
		}
	}
	return names, deleted
}

// markDeletes gives the start points of a find … -delete regate follows
// (the tokens find's model reads as listed) the role of a deletion, with
// its -name patterns as filters; "." when none is given.
func (w *walker) markDeletes(texts []string, toks []Token, word Token) []Token {
	names, ok := findDeletes(texts)
	if !ok {
		return toks
	}
	var f *Filters
	if len(names) > 0 {
		f = &Filters{Include: names}
	}
	found := false
	for i := range toks {
		if toks[i].Role == argmodel.List {
			toks[i].Role, toks[i].Filters = argmodel.TreeWrite, f
			found = true
		}
	}
	if !found {
		word.Value, word.Role, word.Filters, word.StrictOnly, word.Bare = ".", argmodel.TreeWrite, f, true, false
		toks = append(toks, word)
	}
	return toks
}
