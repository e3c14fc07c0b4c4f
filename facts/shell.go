package facts

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
	"github.com/regate/regate/internal/homedir"
)

// shellChecks gates a shell command: every unit on the bash surface and
// every path token on the path surface, in source order; a workdir argument
// is itself a path and the base of relative paths (R10).
func (e *Env) shellChecks(args map[string]any, st ShellTool, cwd string) []Check {
	base := cwd
	var checks []Check
	if st.WorkdirArgument != "" {
		wd := readArgument(args, st.WorkdirArgument)
		switch {
		case wd.isString && wd.value != "":
			c := e.pathChecks(wd.value, cwd)[0]
			c.At = "workdir"
			checks = append(checks, c)
			base = e.absolute(wd.value, cwd)
		case wd.present && !wd.isString:
			// The command would run somewhere regate cannot tell.
			checks = append(checks, malformedCheck("bash", notAString(st.WorkdirArgument, wd)))
			for _, s := range wd.strings {
				c := e.pathChecks(s, cwd)[0]
				c.At = "workdir"
				checks = append(checks, c)
			}
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
	e.redirected = bf.FDs
	// Units and tokens each come in source order; merged, a unit goes
	// before a token at the same offset, so an enclosing unit comes before
	// what is nested in it (R13).
	units, tokens := bf.Units, bf.Tokens
	wholeUnit := len(units) == 0
	if wholeUnit {
		// Empty, blank or comment-only: the whole text is the unit (R8).
		units = []bashfacts.Unit{{Text: whole}}
	}
	checks = slices.Grow(checks, len(units)+len(tokens)+roleChecksOf(tokens))
	// Each unit's one form is its text: the forms of all units share two
	// blocks, which spares two allocations a unit.
	texts := make([]string, len(units))
	forms := make([][]string, len(units))
	i, j := 0, 0
	for i < len(units) || j < len(tokens) {
		if len(checks) > MaxChecks {
			break // Build decides the call as one over-budget check
		}
		if j < len(tokens) && (i == len(units) || tokens[j].Pos.Offset < units[i].Pos.Offset) {
			checks = e.appendTokenChecks(checks, tokens[j], base)
			j++
			continue
		}
		u := units[i]
		texts[i] = u.Text
		forms[i] = texts[i : i+1 : i+1]
		if u.Plain != "" {
			// The plain spelling is the same command (bashfacts.Unit.Plain):
			// one group, so the most specific rule of either decides.
			forms[i] = []string{u.Text, u.Plain}
		}
		c := Check{
			Surface: "bash", Value: u.Text, Forms: forms[i : i+1 : i+1], Origin: u.Origin,
			Wrapper: u.Wrapper, Runs: u.Runs, Unparseable: u.Unparseable,
			Strict: e.runnerStrict(u, base), StrictOnly: u.StrictOnly,
		}
		if !wholeUnit {
			c.At = u.Pos.String()
		}
		if u.Prefix != "" {
			checks = append(checks, prefixCheck(c, u))
		}
		checks = append(checks, c)
		if sp := e.unitSpellings(u); len(sp) > 0 {
			checks = append(checks, spellingsCheck(c, sp))
		}
		if u.Resolved != "" {
			checks = append(checks, resolvedCheck(c, u.Resolved))
		}
		i++
	}
	return checks
}

// runnerStrict is the unit's strict reason, but for npx NAME where NAME is
// installed in the project it runs in (bashfacts.Unit.Installed): npx runs
// that program, which the rules decide as its own unit, rather than
// fetching a package from the registry.
func (e *Env) runnerStrict(u bashfacts.Unit, base string) string {
	if u.Installed == "" {
		return u.Strict
	}
	if _, err := e.lstat(e.absolute(u.Installed, base)); err != nil {
		return u.Strict
	}
	return ""
}

// tokenCheck turns a path token into a path check. A bare name counts only
// when it names something that exists; after a cd to an unknown place a
// relative token keeps only its literal form.
func (e *Env) tokenCheck(t bashfacts.Token, base string) (Check, Forms, bool) {
	if t.Unknown != "" {
		return unknownCheck(t), Forms{}, true
	}
	dir, known := e.effectiveDir(t.Dir, base)
	value := t.Value
	relative := !path.IsAbs(homedir.Expand(value, e.Home))
	stray := e.strayDir(t.Dir, dir, known)
	if t.Bare {
		if !known {
			return strayBare(t), Forms{}, true
		}
		if _, err := e.lstat(path.Join(dir, value)); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return Check{Surface: "path", Value: value, Forms: [][]string{{value}}, Error: err.Error(), At: t.Pos.String()}, Forms{}, true
			}
			if stray != "" {
				return strayBare(t), Forms{}, true
			}
			return Check{}, Forms{}, false
		}
	}
	c := Check{Surface: "path", Value: value, Bare: t.Bare, At: t.Pos.String(), StrictOnly: t.StrictOnly}
	if relative && !known {
		lit := path.Clean(value)
		c.Forms, c.Strict = [][]string{{lit}}, stray
		return c, Forms{}, true
	}
	f := e.PathForms(value, dir)
	c.Forms, c.Error, c.Strict = f.groups(), f.Err, e.pathStrict(f)
	if relative && stray != "" {
		c.Strict = stray
	}
	return c, f, true
}

// appendTokenChecks appends a token's check and the strict-only checks
// strict mode adds: its directory spelling, or, for a glob, what the glob
// matches.
func (e *Env) appendTokenChecks(out []Check, t bashfacts.Token, base string) []Check {
	if t.Listing != nil {
		return append(out, e.listingChecks(t, base)...)
	}
	if t.Patch != nil && t.Patch.Text != "" {
		return e.appendInlinePatchChecks(out, t, base)
	}
	first := len(out)
	c, f, ok := e.tokenCheck(t, base)
	if !ok && t.Bare && !t.SpecOnly {
		// A bare name that does not exist is no path of this call, but a
		// patch or an archive of that name may be made by the command
		// before git apply or unzip reads it (printf … > p && git apply p).
		switch t.Role {
		case argmodel.Patch:
			return append(out, patchFloor(t, "it does not exist"))
		case argmodel.Archive:
			return append(out, archiveFloor(t, "it does not exist"))
		}
	}
	if t.SpecOnly && ok && t.Role == argmodel.Stat {
		// A path a program examines (ls -l, stat, find's start point, git
		// ls-files) is not read, so strict mode leaves it to the spec's
		// reading; but a folder that ls or find names is opened and its
		// names listed, which the host's ls tool is gated for: that keeps
		// its path checks, as does a path regate cannot resolve (~user,
		// /proc/$$/cwd/.., an expansion): it may be a folder.
		if _, isUser := otherHome(t.Value); f.Dir || c.Error != "" || c.Strict != "" || isUser {
			t.SpecOnly = false
		}
	}
	if t.SpecOnly && t.Pattern && t.Role == argmodel.Stat {
		// ls *, stat .e*: each match is examined as the word it becomes,
		// and a folder among them listed.
		if ok {
			c.SpecOnly = true
			out = append(out, c)
		}
		if dir, known := e.effectiveDir(t.Dir, base); known {
			return e.appendGlobChecks(out, first, t, base, dir)
		}
		return append(out, globFloor(t, "a cd to an unknown place came before it"))
	}
	if t.SpecOnly {
		// The program's model reads the word as a pattern or a string:
		// the spec's path check alone, for a policy without strict mode.
		if ok {
			c.SpecOnly = true
			out = append(out, c)
		}
		return out
	}
	if !ok {
		c, ok = e.absentTargetCheck(t, base)
	}
	if ok {
		out = append(out, c)
		out = e.appendWriteChecks(out, c, t.Writes)
		out = e.appendRoleChecks(out, c, t, base)
		if user, isUser := otherHome(t.Value); isUser {
			// The spec reads ~user as a relative path (R15); bash reads
			// it as that account's home, which regate does not resolve.
			out = append(out, Check{Surface: "path", Value: t.Value, Forms: [][]string{{t.Value}}, At: t.Pos.String(),
				StrictOnly: true, Error: "~" + user + " is the home of the account " + user + ", which regate does not resolve"})
		}
	}
	if !t.Pattern {
		if d, isDir := dirVariant(c, f); ok && isDir {
			out = append(out, d)
		}
	} else if dir, known := e.effectiveDir(t.Dir, base); known {
		out = e.appendGlobChecks(out, first, t, base, dir)
	} else {
		out = append(out, globFloor(t, "a cd to an unknown place came before it"))
	}
	if t.StrictOnly {
		for i := range out[first:] {
			out[first+i].StrictOnly = true
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

// appendWriteChecks adds, for a redirect that writes its target, the same
// path on the write surface (and, for an append, the edit surface), so that
// `cat x > f` meets the rules the write tool meets for f. Strict mode alone
// decides them: the spec gates a redirect target as a path only (R7). A
// file that configures execution gives them a strict reason (execconfig.go).
func (e *Env) appendWriteChecks(out []Check, c Check, writes string) []Check {
	if writes == "" {
		return out
	}
	why := e.execConfigReason(c)
	surfaces := []string{"write"}
	if writes == bashfacts.WriteAppend {
		surfaces = append(surfaces, "edit")
	}
	for _, s := range surfaces {
		w := c
		w.Surface, w.StrictOnly, w.Bare = s, true, false
		if why != "" {
			w.Strict = why
		}
		out = append(out, w)
	}
	return out
}

// otherHome reports whether a path starts with ~NAME, an account's home
// as bash expands it (not ~, ~+ or ~-, which are the user's home and the
// current and previous working directories).
func otherHome(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "~")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(rest, "/")
	if name == "" || name == "+" || name == "-" {
		return "", false
	}
	return name, true
}

// prefixCheck is a unit spelt with its own sensitive prefix
// (bashfacts.Unit.Prefix), a bare check strict mode alone decides: only a
// rule that names that spelling decides it (a session approval of it, in
// practice), else its strict reason asks. It comes before the unit's own
// check, so that an ask of both reports it, and the approval a person gives
// records the prefix they saw: PAGER=less git log approved does not approve
// PAGER='sh -c id' git log.
func prefixCheck(c Check, u bashfacts.Unit) Check {
	p := c
	p.Value = u.Prefix + " " + u.Text
	p.Forms = [][]string{{p.Value}}
	p.Bare, p.StrictOnly, p.Strict = true, true, u.PrefixStrict
	p.Wrapper, p.Runs = "", ""
	return p
}

// resolvedCheck is the unit spelt with its ".." resolved
// (bashfacts.Unit.Resolved), a group of its own that strict mode decides by
// every rule, the catch-all included: bash scripts/../../tmp/x.sh, which
// "bash scripts/*" matches as written, is also bash ../../tmp/x.sh, which
// it does not. The unit's own floors stay on the unit's check.
func resolvedCheck(c Check, resolved string) Check {
	r := c
	r.Forms = [][]string{{resolved}}
	r.StrictOnly, r.Strict = true, ""
	return r
}

// spellingsCheck is a unit's other spellings (bashfacts.Unit.Spellings),
// each a group of its own, as a bare check strict mode alone decides: only
// a rule that names a spelling decides it, never the catch-all, and the
// most restrictive such rule wins. So "rm -rf *": deny (or a hard guard)
// meets /bin/rm -rf, rm -fr and rm --recursive --force, and yolo cannot
// pass it by a spelling the pattern misses; while /tmp/x/cat, whose own
// spelling meets the catch-all, is not allowed by "cat *". The value stays
// as written, for the prompt and the message.
func spellingsCheck(c Check, spellings []string) Check {
	s := c
	s.Forms = make([][]string, len(spellings))
	for i := range spellings {
		s.Forms[i] = spellings[i : i+1 : i+1]
	}
	s.Bare, s.StrictOnly = true, true
	return s
}
