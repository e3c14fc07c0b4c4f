package facts

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/internal/homedir"
)

// Strict path facts (docs/strict.md). A directory operand is also gated as
// "dir/", so that a rule on ~/.ssh/* covers ~/.ssh itself; a glob is
// expanded against the file system as the shell would, each match gated as
// a path. Both are StrictOnly checks: decided only when the policy sets
// "strict", so that without it decisions are exactly the spec's. A glob
// strict mode cannot expand makes its own check ask (Strict).

// maxGlobMatches bounds what one glob may expand to before strict mode
// stops expanding it and asks instead.
const maxGlobMatches = 256

// dirVariant returns the check of a directory path spelled with a trailing
// slash, when f names a directory.
func dirVariant(c Check, f Forms) (Check, bool) {
	if !f.Dir || c.Error != "" {
		return Check{}, false
	}
	groups := make([][]string, 0, len(c.Forms))
	for _, g := range c.Forms {
		dg := make([]string, 0, len(g))
		for _, s := range g {
			switch {
			case s == ".": // the cwd's own relative spelling: its absolute one stands
				continue
			case !strings.HasSuffix(s, "/"):
				s += "/"
			}
			dg = append(dg, s)
		}
		if len(dg) > 0 {
			groups = append(groups, dg)
		}
	}
	if len(groups) == 0 {
		return Check{}, false
	}
	value := c.Value
	if !strings.HasSuffix(value, "/") {
		value += "/"
	}
	return Check{Surface: "path", Value: value, Forms: groups, At: c.At, StrictOnly: true}, true
}

// globChecks expands a glob token: each match a strict-only path check
// (and its directory spelling). No match leaves the word as it is, as the
// shell does; a glob that cannot be expanded is a strict floor.
func (e *Env) globChecks(t bashfacts.Token, dir string) []Check {
	matches, err := e.expandGlob(t.Value, dir)
	if err != nil {
		return []Check{globFloor(t, err.Error())}
	}
	out := make([]Check, 0, len(matches))
	for _, m := range matches {
		f := e.PathForms(m, dir)
		mc := Check{Surface: "path", Value: m, Forms: f.groups(), Error: f.Err, At: t.Pos.String(), StrictOnly: true}
		out = append(out, mc)
		if d, ok := dirVariant(mc, f); ok {
			out = append(out, d)
		}
	}
	return out
}

// globFloor is the strict-only check of a glob strict mode cannot expand:
// it asks, whatever the path rules say.
func globFloor(t bashfacts.Token, why string) Check {
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
		StrictOnly: true, Strict: "strict mode cannot expand the glob " + t.Value + ": " + why}
}

var errTooMany = fmt.Errorf("it matches more than %d paths", maxGlobMatches)

// expandGlob returns the absolute paths the glob pattern matches, searched
// from dir, component by component as the shell does: * ? [ ] within a
// component, hidden names only for a pattern that starts with a dot.
func (e *Env) expandGlob(pattern, dir string) ([]string, error) {
	lister, ok := e.fs().(DirReader)
	if !ok {
		return nil, errors.New("the file system cannot list directories")
	}
	p := homedir.Expand(pattern, e.Home)
	start := "/"
	if !path.IsAbs(p) {
		start = dir
	}
	cur := []string{path.Clean(start)}
	for _, comp := range splitPath(p) {
		if !strings.ContainsAny(comp, "*?[") {
			for i := range cur {
				cur[i] = path.Join(cur[i], comp)
			}
			continue
		}
		if _, err := path.Match(comp, ""); err != nil {
			return nil, err
		}
		var next []string
		for _, d := range cur {
			names, err := lister.ReadDir(d)
			if err != nil {
				continue // not a directory, or absent: nothing matches there
			}
			for _, n := range names {
				if strings.HasPrefix(n, ".") && !strings.HasPrefix(comp, ".") {
					continue
				}
				if ok, _ := path.Match(comp, n); ok {
					if next = append(next, path.Join(d, n)); len(next) > maxGlobMatches {
						return nil, errTooMany
					}
				}
			}
		}
		cur = next
	}
	var out []string
	for _, m := range cur {
		if _, err := e.fs().Lstat(m); err == nil {
			out = append(out, m)
		}
	}
	return out, nil
}
