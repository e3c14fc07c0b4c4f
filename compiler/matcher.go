package compiler

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// mcpBaseline are the discovery targets that become exact allows when a map
// of the mcp surface holds any explicit allow (R6).
var mcpBaseline = []string{"mcp_connect", "mcp_describe", "mcp_list", "mcp_search", "mcp_status"}

// ranked is a rule with everything the compiler precomputes for it.
type ranked struct {
	Rule
	expanded string
	spec     specificity
	baseline bool
}

// buildMatcher lowers the rules of one pattern map to the index the Rego
// library reads (see docs/design.md):
//
//	rules        every rule, ordered from least to most specific, so a rule's
//	             index is its specificity rank and the winner is the max rank
//	exact        value → ranks of wildcard-free patterns
//	prefix       literal prefix → ranks of "LIT*" patterns
//	suffix       literal suffix → ranks of "*LIT" patterns
//	glob         literal prefix → ranks of every other pattern (glob.match)
//	*_lens       the distinct key lengths of each index, so a value is looked
//	             up once per length, never once per rule
//
// baseline adds the mcp discovery targets (R6); session approvals, which
// hold only what the user approved, never get them.
func buildMatcher(surface string, rules []Rule, home string, baseline bool) map[string]any {
	rs := make([]ranked, 0, len(rules)+len(mcpBaseline))
	for i, r := range rules {
		e := ExpandHome(r.Pattern, home)
		rs = append(rs, ranked{Rule: r, expanded: e, spec: measure(e, i+1)})
	}
	if surface == "mcp" && baseline {
		rs = addMCPBaseline(rs)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].spec.less(rs[j].spec) })

	idx := map[shape]map[string][]int{shapeExact: {}, shapePrefix: {}, shapeSuffix: {}, shapeGlob: {}}
	out := make([]any, len(rs))
	for rank, r := range rs {
		p := collapseStars(r.expanded)
		forms := []string{p}
		if surface == "bash" {
			// "git *" also matches the bare "git" (the bash section).
			if bare, ok := strings.CutSuffix(p, " *"); ok {
				forms = append(forms, bare)
			}
		}
		obj := map[string]any{
			"pattern": r.Pattern,
			"action":  r.Action.String(),
			"pos":     r.Pos.String(),
		}
		if r.Reason != "" {
			obj["reason"] = r.Reason
		}
		if r.baseline {
			obj["baseline"] = true
		}
		if p == "*" {
			obj["catch_all"] = true
		}
		for _, f := range forms {
			sh, key := classify(f)
			if sh == shapeGlob {
				if f == p {
					obj["glob"] = globEscape(f)
				} else {
					obj["glob_bare"] = globEscape(f)
				}
			}
			idx[sh][key] = append(idx[sh][key], rank)
		}
		out[rank] = obj
	}
	m := map[string]any{"rules": out}
	for sh, name := range map[shape]string{shapeExact: "exact", shapePrefix: "prefix", shapeSuffix: "suffix", shapeGlob: "glob"} {
		keys := map[string]any{}
		var lens []int
		for k, ranks := range idx[sh] {
			keys[k] = intsToAny(ranks)
			lens = append(lens, utf8.RuneCountInString(k))
		}
		m[name] = keys
		if sh != shapeExact {
			slices.Sort(lens)
			m[name+"_lens"] = intsToAny(slices.Compact(lens))
		}
	}
	return m
}

// addMCPBaseline adds the discovery targets as exact allows when the map has
// an explicit allow, unless the map already has a rule on that target.
func addMCPBaseline(rs []ranked) []ranked {
	var firstAllow *ranked
	have := map[string]bool{}
	for i := range rs {
		have[rs[i].expanded] = true
		if rs[i].Action == Allow && firstAllow == nil {
			firstAllow = &rs[i]
		}
	}
	if firstAllow == nil {
		return rs
	}
	pos := firstAllow.Pos
	for _, t := range mcpBaseline {
		if have[t] {
			continue
		}
		rs = append(rs, ranked{
			Rule:     Rule{Pattern: t, Action: Allow, Pos: pos},
			expanded: t,
			spec:     measure(t, 0),
			baseline: true,
		})
	}
	return rs
}

func intsToAny(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
