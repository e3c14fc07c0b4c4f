package compiler

import "fmt"

// The shapes of a call, as the precedence lint (lint.go) searches them. A
// check of a call shows its surface's map a group of spellings, and the most
// specific rule matching any of them decides (R2, R6). So a rule can outrank
// another through two spellings of one call: an allow on an absolute folder
// matches the absolute spelling of "src/.env" while a deny on "src/*"
// matches the relative one. Each shape below is one such group, written as
// templates over the call's variables, with what the variables obey.

// form is one collapsed pattern a rule matches with, also as runes for
// the quick tests.
type form struct {
	text  string
	runes []rune
}

func newForm(text string) form { return form{text, []rune(text)} }

// placed is one form of a rule matched against one spelling of a shape.
type placed struct {
	form
	spelling int
}

// start is what a spelling is known to start with.
type start int

const (
	anyStart     start = iota
	slashStart         // an absolute path
	noSlashStart       // a relative path, never empty
)

// fits: a pattern starting with f's first character can match a value of
// this start.
func (s start) fits(f []rune) bool {
	switch s {
	case slashStart:
		return len(f) > 0 && (f[0] == '/' || f[0] == '*' || f[0] == '?')
	case noSlashStart:
		return len(f) > 0 && f[0] != '/'
	}
	return true
}

// relation is how a shape's spellings relate, for the quick test that
// spares most searches.
type relation int

const (
	onlySpelling   relation = iota // a single spelling
	endsWithNext                   // spelling 0 ends with spelling 1: [cwd "/" rel] and [rel]
	looselyRelated                 // shared parts the quick test does not model
)

// callShape is one way a call spells its value to a map.
type callShape struct {
	vars      int
	spellings []template
	starts    []start      // what each spelling starts with
	given     []constraint // what the variables obey
	related   relation
	describe  func(surface string, vals []string) string
}

// pathSurface: the surface matches a path, in its spellings (R2).
func pathSurface(surface string) bool {
	return surface != "bash" && surface != "skill" && surface != "mcp"
}

func shapesFor(surface string) []callShape {
	switch surface {
	case "bash":
		return []callShape{singleValue("the command %q")}
	case "skill":
		return []callShape{singleValue("the skill %q")}
	case "mcp":
		return mcpShapes
	}
	return pathShapes // path, and every tool matched by its path argument
}

func singleValue(format string) callShape {
	return callShape{vars: 1, spellings: []template{plainValue()},
		describe: func(_ string, v []string) string { return fmt.Sprintf(format, v[0]) }}
}

// Constraints the variables of a shape obey.
func nonEmpty(i int) constraint { return constraint{"?*", template{variable(i)}, false} }
func absolute(i int) constraint { return constraint{"/*", template{variable(i)}, false} }
func relative(i int) constraint { return constraint{"/*", template{variable(i)}, true} }

// pathShapes: a path outside the working directory is matched as written
// and absolute, one spelling; one inside it, absolute and relative (R2).
var pathShapes = []callShape{
	{vars: 1, spellings: []template{plainValue()}, starts: []start{slashStart}, given: []constraint{absolute(0)},
		describe: func(s string, v []string) string { return pathCall(s, v[0]) }},
	{vars: 2, spellings: []template{{variable(0), literal("/"), variable(1)}, {variable(1)}}, starts: []start{slashStart, noSlashStart},
		given:   []constraint{absolute(0), {"*/", template{variable(0)}, true}, nonEmpty(1), relative(1)},
		related: endsWithNext,
		describe: func(s string, v []string) string {
			return fmt.Sprintf("%s from the working directory %q", pathCall(s, v[1]), v[0])
		}},
}

func pathCall(surface, p string) string {
	if surface == "path" {
		return fmt.Sprintf("the path %q", p)
	}
	return fmt.Sprintf("a %s call on the path %q", surface, p)
}

// mcpShapes are the target groups of facts.MCPTargets.
var mcpShapes = func() []callShape {
	server, tool := variable(0), variable(1)
	shapes := []callShape{
		{vars: 2, spellings: []template{{server, literal(":"), tool}, {server, literal("_"), tool}, {server}, {literal("mcp_call")}},
			given: []constraint{nonEmpty(0), nonEmpty(1)}, related: looselyRelated,
			describe: func(_ string, v []string) string {
				return fmt.Sprintf("the MCP call of tool %q on server %q", v[1], v[0])
			}},
		{vars: 1, spellings: []template{{variable(0)}, {literal("mcp_call")}},
			given: []constraint{nonEmpty(0), {"*:*", template{variable(0)}, true}}, related: looselyRelated,
			describe: func(_ string, v []string) string { return fmt.Sprintf("the MCP call of tool %q with no server", v[0]) }},
		{vars: 1, spellings: []template{{variable(0)}, {literal("mcp_connect")}},
			given: []constraint{nonEmpty(0)}, related: looselyRelated,
			describe: func(_ string, v []string) string { return fmt.Sprintf("an MCP connect to %q", v[0]) }},
	}
	for _, op := range []string{"mcp_describe", "mcp_search", "mcp_list", "mcp_status"} {
		shapes = append(shapes, callShape{spellings: []template{{literal(op)}},
			describe: func(string, []string) string { return "the MCP operation " + op }})
	}
	return shapes
}()

// constraints are the shape's own constraints and the placed forms.
func (sh callShape) constraints(pos []placed) []constraint {
	out := append([]constraint(nil), sh.given...)
	for _, p := range pos {
		out = append(out, constraint{pattern: p.text, tmpl: sh.spellings[p.spelling]})
	}
	return out
}

// plausible leaves out one kind of meeting: a deny matching the absolute
// spelling of a path only through the working directory while the other
// rule matches the relative one. It would take working inside a folder the
// deny names ("/etc/*" against a "src/config/*" allow from /etc), and
// reporting it for every relative allow would drown the real surprises. A
// deny and an allow that meet on one spelling are always reported.
func (sh callShape) plausible(sa int, aAction Action, sd int, dAction Action) bool {
	if sh.related != endsWithNext || sa == sd {
		return true
	}
	onAbsolute := aAction
	if sd == 0 {
		onAbsolute = dAction
	}
	return onAbsolute != Deny
}

// fits: form f can match spelling t at all, by its first character.
func (sh callShape) fits(t int, f form) bool {
	return sh.starts == nil || sh.starts[t].fits(f.runes)
}

// compatible is a quick test that never errs on the side of "no": false
// only when no call of the shape has spelling a matched by fa and spelling
// b matched by fb.
func (sh callShape) compatible(a int, fa form, b int, fb form) bool {
	switch {
	case !sh.fits(a, fa) || !sh.fits(b, fb):
		return false
	case a == b:
		return mayOverlap(fa.runes, fb.runes)
	case sh.related == endsWithNext:
		return suffixesAgree(fa.runes, fb.runes)
	}
	return true
}

// meets: form f on spelling t is compatible with every placed form.
func (sh callShape) meets(t int, f form, pos []placed) bool {
	for _, p := range pos {
		if !sh.compatible(t, f, p.spelling, p.form) {
			return false
		}
	}
	return true
}

// mayOverlap is a quick test of two collapsed patterns: false only when no
// value matches both. A value's first characters meet both patterns' text
// before their first "*", its last characters their text after the last.
func mayOverlap(pr, qr []rune) bool {
	pStar, qStar := starAt(pr), starAt(qr)
	if pStar == len(pr) && qStar == len(qr) && len(pr) != len(qr) {
		return false // two fixed lengths
	}
	for i := 0; i < min(pStar, qStar); i++ {
		if !runesAgree(pr[i], qr[i]) {
			return false
		}
	}
	return suffixesAgree(pr, qr)
}

// suffixesAgree: the text after the last "*" of each (the whole pattern
// when it has none) agrees, read from the end.
func suffixesAgree(pr, qr []rune) bool {
	n := min(len(pr)-lastStar(pr)-1, len(qr)-lastStar(qr)-1)
	for i := 1; i <= n; i++ {
		if !runesAgree(pr[len(pr)-i], qr[len(qr)-i]) {
			return false
		}
	}
	return true
}

func runesAgree(a, b rune) bool { return a == b || a == '?' || b == '?' }

// starAt is the index of the first "*", len(p) when there is none.
func starAt(p []rune) int {
	for i, r := range p {
		if r == '*' {
			return i
		}
	}
	return len(p)
}

// lastStar is the index of the last "*", -1 when there is none.
func lastStar(p []rune) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '*' {
			return i
		}
	}
	return -1
}
