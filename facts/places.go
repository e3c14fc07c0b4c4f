package facts

import (
	"path"
	"strconv"

	"github.com/regate/regate/bashfacts"
)

// Places a command names through an expansion or a descriptor
// (docs/strict.md, "Paths as the kernel resolves them"). bashfacts spells
// the known places ($PWD, ~+, ~-, ${HOME:-…}) as paths; a word whose path
// depends on an expansion regate does not know is a token marked Unknown,
// which strict mode asks for. A path that names a file descriptor asks
// under strict unless it is a standard stream the command leaves alone.

// unknownCheck is the strict-only check of a token whose path regate
// cannot know: it asks under strict mode, unless a rule denies the word as
// written ($DIR/.env still meets *.env).
func unknownCheck(t bashfacts.Token) Check {
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
		StrictOnly: true, Strict: t.Unknown}
}

// pathStrict is why strict mode asks for a path a command names whatever
// the rules say: its forms' own reason (a descriptor above 2, another
// process's /proc entry), or a standard stream the command redirects
// (cat /dev/stdin 0<&3 reads what fd 3 holds).
func (e *Env) pathStrict(f Forms) string {
	if f.Strict != "" || f.FD == "" {
		return f.Strict
	}
	fd, err := strconv.Atoi(f.FD)
	if err != nil {
		return ""
	}
	for _, r := range e.redirected {
		if r == fd {
			return "the path names file descriptor " + f.FD + ", which the command redirects: regate cannot see what it holds"
		}
	}
	return ""
}

// unitSpellings are a unit's spellings, with, on a file system that folds
// case, the program name in lower case too: there `RM -rf x` runs rm.
func (e *Env) unitSpellings(u bashfacts.Unit) []string {
	if !e.FoldCase {
		return u.Spellings
	}
	lower := lowerProgramSpellings(u.Text, u.Spellings)
	if len(lower) == 0 {
		return u.Spellings
	}
	return append(append([]string(nil), u.Spellings...), lower...)
}

// strayDir is why a relative path after a cd cannot be placed: the cd went
// somewhere regate does not know, or to a folder that does not exist,
// where the cd fails and the command stays where it was. "" when the
// token's directory is known and there.
func (e *Env) strayDir(d bashfacts.Dir, dir string, known bool) string {
	switch {
	case !known:
		return "a cd to a place regate does not know came before it, so the relative path is unknown"
	case d.Path == "":
		return ""
	}
	r, err := resolver{fsys: e.fs(), cwd: dir, fold: e.FoldCase, spent: e.spent}.resolve(dir)
	if err == nil && r.dir {
		return ""
	}
	return "the cd to " + d.Path + " fails where that folder does not exist, and the command stays where it was"
}

// strayBare is the strict-only check of a bare name after a cd regate
// cannot follow: the name as written, decided only by a rule that names it
// (so key.pem still meets *.pem), since the folder it is looked up in is
// not known.
func strayBare(t bashfacts.Token) Check {
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{t.Value}}, Bare: true, At: t.Pos.String(), StrictOnly: true}
}
