package facts

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/internal/homedir"
)

// shellChecks gates a shell command: every unit on the bash surface and
// every path token on the path surface, in source order; a workdir argument
// is itself a path and the base of relative paths (R10).
func (e *Env) shellChecks(args map[string]any, st ShellTool, cwd string) []Check {
	base := cwd
	var checks []Check
	if st.WorkdirArgument != "" {
		if wd, ok := args[st.WorkdirArgument].(string); ok && wd != "" {
			c := e.pathChecks(wd, cwd)[0]
			c.At = "workdir"
			checks = append(checks, c)
			base = e.absolute(wd, cwd)
		}
	}
	cmd, ok := args[st.CommandArgument].(string)
	if !ok {
		return append(checks, Check{Surface: "bash", Forms: [][]string{{""}}, Unparseable: true,
			Reason: "the command argument " + st.CommandArgument + " is missing or not a string"})
	}
	whole := strings.TrimSpace(cmd)
	extract := e.Extract
	if extract == nil {
		extract = bashfacts.Extract
	}
	bf, err := extract(cmd)
	if err != nil {
		return append(checks, Check{Surface: "bash", Value: whole, Forms: [][]string{{whole}}, Unparseable: true, Reason: err.Error()})
	}
	type placed struct {
		offset int
		check  Check
	}
	var found []placed
	for _, u := range bf.Units {
		found = append(found, placed{u.Pos.Offset, Check{
			Surface: "bash", Value: u.Text, Forms: [][]string{{u.Text}}, Origin: u.Origin,
			Wrapper: u.Wrapper, Runs: u.Runs, Unparseable: u.Unparseable, At: u.Pos.String(),
			Strict: u.Strict, StrictOnly: u.StrictOnly,
		}})
	}
	if len(bf.Units) == 0 {
		// Empty, blank or comment-only: the whole text is the unit (R8).
		found = append(found, placed{0, Check{Surface: "bash", Value: whole, Forms: [][]string{{whole}}}})
	}
	for _, t := range bf.Tokens {
		for _, c := range e.tokenChecks(t, base) {
			found = append(found, placed{t.Pos.Offset, c})
		}
	}
	// Source order: left to right, an enclosing unit (found first at the
	// same offset) before what is nested in it (R13).
	sort.SliceStable(found, func(i, j int) bool { return found[i].offset < found[j].offset })
	for _, p := range found {
		checks = append(checks, p.check)
	}
	return checks
}

// tokenCheck turns a path token into a path check. A bare name counts only
// when it names something that exists; after a cd to an unknown place a
// relative token keeps only its literal form.
func (e *Env) tokenCheck(t bashfacts.Token, base string) (Check, Forms, bool) {
	dir, known := e.effectiveDir(t.Dir, base)
	value := t.Value
	relative := !path.IsAbs(homedir.Expand(value, e.Home))
	if t.Bare {
		if !known {
			return Check{}, Forms{}, false
		}
		if _, err := e.fs().Lstat(path.Join(dir, value)); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return Check{Surface: "path", Value: value, Forms: [][]string{{value}}, Error: err.Error(), At: t.Pos.String()}, Forms{}, true
			}
			return Check{}, Forms{}, false
		}
	}
	c := Check{Surface: "path", Value: value, Bare: t.Bare, At: t.Pos.String(), StrictOnly: t.StrictOnly}
	if relative && !known {
		lit := path.Clean(value)
		c.Forms = [][]string{{lit}}
		return c, Forms{}, true
	}
	f := e.PathForms(value, dir)
	c.Forms, c.Error = f.groups(), f.Err
	return c, f, true
}

// tokenChecks are a token's check and the strict-only checks strict mode
// adds: its directory spelling, or, for a glob, what the glob matches.
func (e *Env) tokenChecks(t bashfacts.Token, base string) []Check {
	c, f, ok := e.tokenCheck(t, base)
	var out []Check
	if ok {
		out = append(out, c)
	}
	if !t.Pattern {
		if d, isDir := dirVariant(c, f); ok && isDir {
			out = append(out, d)
		}
	} else if dir, known := e.effectiveDir(t.Dir, base); known {
		out = append(out, e.globChecks(t, dir)...)
	} else {
		out = append(out, globFloor(t, "a cd to an unknown place came before it"))
	}
	if t.StrictOnly {
		for i := range out {
			out[i].StrictOnly = true
		}
	}
	return out
}

// effectiveDir resolves a token's directory against base.
func (e *Env) effectiveDir(d bashfacts.Dir, base string) (string, bool) {
	if d.Unknown {
		return "", false
	}
	if d.Path == "" {
		return base, true
	}
	return e.absolute(d.Path, base), true
}

// absolute makes p absolute against base, expanding a home prefix.
func (e *Env) absolute(p, base string) string {
	p = homedir.Expand(p, e.Home)
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(base, p)
}
