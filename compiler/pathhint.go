package compiler

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// PathHint tells a recursive read's walk which of the paths it finds can
// matter to a decision. A path check meets only the path rules that match
// it (a path no rule matches constrains nothing), and an allow never makes
// a decision more restrictive, so only the paths some non-allow path rule
// of some layer matches can change what a walk decides. Every path such a
// rule matches holds the rule's literal text, each run of it between
// wildcards: the hint keeps the longest run of each rule, and a path that
// holds none of them (compared without case, which only keeps more) is
// left out of the walk's check. A rule without wildcards matches only the
// path it spells, so its path is kept only when a spelling is that path
// (the self floor guards every folder above its files by such rules, and
// their text is in every path below them). facts reads it
// (facts.Env.PathHint); the Rego decides every path that is kept, as
// before.
type PathHint struct {
	// Fragments are the literal runs, one per non-allow path rule with a
	// wildcard, home expanded, lower-cased, without duplicates.
	Fragments []string
	// Exact are the paths of the non-allow rules without one, home
	// expanded, lower-cased, without a trailing slash or duplicates.
	Exact []string
	// All is set when some non-allow path rule has no literal text ("*",
	// "?*"): every path may meet it, and nothing may be left out.
	All bool
}

// Hint derives the path hint of a compiled policy from its rule data:
// every layer's path rules (the policy's, the hard guards', every agent's,
// the self floor's and its secrets). A policy whose data has another shape
// gets a hint that leaves nothing out.
func (o *Output) Hint() PathHint { return o.hint("path") }

// WriteHint is the hint of a walk whose entries are changed or deleted
// (rm -r, chmod -R, find -delete): each entry meets the write rules as
// well as the path rules, so the non-allow rules of both surfaces count.
func (o *Output) WriteHint() PathHint { return o.hint("path", "write") }

// hint is the hint of the rules of the given surfaces in every layer.
func (o *Output) hint(surfaceNames ...string) PathHint {
	var h PathHint
	regate, _ := o.Data["regate"].(map[string]any)
	rules, _ := regate["rules"].(map[string]any)
	if rules == nil {
		return PathHint{All: true}
	}
	var layers []map[string]any
	for name, l := range rules {
		lm, _ := asMap(l)
		if name == "agents" {
			// {"agents": {NAME: layer}}: one layer per agent.
			each, _ := asMap(lm["agents"])
			for _, a := range each {
				if am, ok := asMap(a); ok {
					layers = append(layers, am)
				}
			}
			continue
		}
		switch name {
		case "policy", "hardguards", "self":
			layers = append(layers, lm)
		default:
			return PathHint{All: true} // a layer this does not know: keep every path
		}
	}
	add := func(pattern string) {
		expanded := ExpandHome(pattern, o.Home)
		if !strings.ContainsAny(expanded, "*?[\\") {
			if e := strings.TrimSuffix(strings.ToLower(expanded), "/"); !slices.Contains(h.Exact, e) {
				h.Exact = append(h.Exact, e)
			}
			return
		}
		f := strings.ToLower(longestLiteral(expanded))
		if f == "" {
			h.All = true
		} else if !slices.Contains(h.Fragments, f) {
			h.Fragments = append(h.Fragments, f)
		}
	}
	for _, l := range layers {
		surfaces, _ := asMap(l["surfaces"])
		for _, name := range surfaceNames {
			p, ok := asMap(surfaces[name])
			if !ok && surfaces[name] != nil {
				return PathHint{All: true} // a shape this does not read: keep every path
			}
			ranked, _ := asMap(p["rules"])
			for _, r := range ranked {
				rm, _ := asMap(r)
				action, _ := rm["action"].(string)
				pattern, ok := rm["pattern"].(string)
				switch {
				case action == string(Allow):
				case !ok:
					h.All = true
				default:
					add(pattern)
				}
			}
		}
		secrets, _ := asMap(l["secrets"])
		for p := range secrets {
			add(p)
		}
	}
	slices.Sort(h.Fragments)
	slices.Sort(h.Exact)
	return h
}

// asMap reads a JSON object of the compiled data, as Go values or as the
// ast.Value the matchers are built as.
func asMap(v any) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case ast.Value:
		j, err := ast.JSON(t)
		if err != nil {
			return nil, false
		}
		m, ok := j.(map[string]any)
		return m, ok
	}
	return nil, false
}

// longestLiteral is the longest run of pattern's characters that a match
// must hold as they are: the text between wildcards (* ?), bracket
// expressions and escapes (a backslash ends a run, which only shortens it).
func longestLiteral(pattern string) string {
	best, start := "", 0
	cut := func(end int) {
		if end-start > len(best) {
			best = pattern[start:end]
		}
	}
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '*', '?', '\\':
			cut(i)
			if pattern[i] == '\\' {
				i++
			}
			start = i + 1
		case '[':
			cut(i)
			j := strings.IndexByte(pattern[i+1:], ']')
			if j < 0 {
				return best // an open bracket: the rest is not known literal text
			}
			i += j + 1
			start = i + 1
		}
	}
	cut(len(pattern))
	return best
}
