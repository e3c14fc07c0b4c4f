package facts

import "strings"

// Strict path facts (docs/strict.md). A directory operand is also gated as
// "dir/", so that a rule on ~/.ssh/* covers ~/.ssh itself; a glob is
// expanded against the file system as the shell would, each match gated as
// a path (glob.go). Both are StrictOnly checks: decided only when the policy sets
// "strict", so that without it decisions are exactly the spec's. A glob
// strict mode cannot expand makes its own check ask (Strict).

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
