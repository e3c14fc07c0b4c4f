package bashfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Environment assignments (docs/strict.md, "Environment"): a variable that
// changes what a command runs or loads (sensitiveEnv) makes the command
// ask under strict mode, unless the value given is one of the values that
// change nothing a command runs: a pager that only copies its input, less
// with display options alone, git's prompt turned off, the identity git
// records. Those are transparent, as an assignment of any other variable
// is (NO_COLOR, CI, LANG): the command is decided as if it were absent.

// inertValues are the values of sensitive variables that run nothing, by
// variable; a nil set means any value.
var inertValues = map[string]map[string]bool{
	"PAGER":               pagers,
	"GIT_PAGER":           pagers,
	"MANPAGER":            pagers,
	"GIT_TERMINAL_PROMPT": set("0", "1", "false", "true"),
	"GIT_OPTIONAL_LOCKS":  set("0", "1"),
	"GIT_AUTHOR_NAME":     nil,
	"GIT_AUTHOR_EMAIL":    nil,
	"GIT_AUTHOR_DATE":     nil,
	"GIT_COMMITTER_NAME":  nil,
	"GIT_COMMITTER_EMAIL": nil,
	"GIT_COMMITTER_DATE":  nil,
}

// pagers are pager commands that print what they are given: cat, and less
// or more, whose commands (!cmd, v, |) a person types at a terminal; less
// then reads LESSOPEN and LESS from the environment the agent did not set.
var pagers = set("", "cat", "less", "less -R", "less -r", "less -FRX", "less -FRSX", "less -RX", "more")

// lessDisplayOptions are less's options that only change how text is
// shown: LESS=-R. Anything else (-o FILE writes a log, +cmd runs less
// commands, -k FILE loads key bindings) is not inert.
const lessDisplayOptions = "FRXSMNiIJrQqwWeEagGcdsuU~"

// inertAssignment reports whether NAME=value, as written, sets a
// sensitive variable to a value that changes nothing a command runs.
func (w *walker) inertAssignment(a *syntax.Assign) bool {
	if a.Name == nil || a.Append || a.Index != nil || a.Array != nil {
		return false
	}
	value := "" // NAME= sets the empty value
	if a.Value != nil {
		var dynamic bool
		if value, dynamic = w.wordText(a.Value); dynamic {
			return false
		}
	}
	return inertValue(a.Name.Value, value)
}

func inertValue(name, value string) bool {
	if name == "LESS" {
		opts := strings.TrimPrefix(value, "-")
		return opts != "" && strings.Trim(opts, lessDisplayOptions) == ""
	}
	values, ok := inertValues[name]
	return ok && (values == nil || values[value])
}
