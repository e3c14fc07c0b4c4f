package compiler

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
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
// library reads (see docs/design.md), built directly as an AST value: the
// runtime's store takes it as it is, and a large policy is never held twice.
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
func buildMatcher(surface string, rules []Rule, home string, baseline bool) ast.Value {
	rs := rankRules(surface, rules, home, baseline)

	// Every (index, key, rank) the rules contribute, sorted by index and key
	// below; the stable sort keeps each key's ranks ascending. A slice of
	// entries rather than a map of slices: ten thousand rules would
	// otherwise allocate ten thousand one-element slices and a growing map.
	type entry struct {
		sh   shape
		key  string
		rank int
	}
	entries := make([]entry, 0, len(rs)+len(rs)/4)
	out := make([]*ast.Term, len(rs))
	for rank, r := range rs {
		p := collapseStars(r.expanded)
		forms := matchForms(surface, p)
		obj := ruleItems(r.Rule)
		if r.baseline {
			obj = append(obj, item("baseline", ast.InternedTerm(true)))
		}
		if p == "*" {
			obj = append(obj, item("catch_all", ast.InternedTerm(true)))
		}
		for _, f := range forms {
			sh, key := classify(f)
			if sh == shapeGlob {
				if f == p {
					obj = append(obj, item("glob", ast.StringTerm(globEscape(f))))
				} else {
					obj = append(obj, item("glob_bare", ast.StringTerm(globEscape(f))))
				}
			}
			entries = append(entries, entry{sh, key, rank})
		}
		out[rank] = ast.ObjectTerm(obj...)
	}
	slices.SortStableFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.sh, b.sh), strings.Compare(a.key, b.key))
	})
	rankTerms := make([]*ast.Term, len(rs)) // each rank's number, built once
	rankTerm := func(r int) *ast.Term {
		if rankTerms[r] == nil {
			rankTerms[r] = ast.InternedTerm(r)
		}
		return rankTerms[r]
	}
	items := [][2]*ast.Term{item("rules", ast.ArrayTerm(out...))}
	for _, sh := range []shape{shapeExact, shapePrefix, shapeSuffix, shapeGlob} {
		name := [...]string{"exact", "prefix", "suffix", "glob"}[sh]
		var keys [][2]*ast.Term
		var lens []int
		for len(entries) > 0 && entries[0].sh == sh {
			k := entries[0].key
			n := 1
			for n < len(entries) && entries[n].sh == sh && entries[n].key == k {
				n++
			}
			ranks := make([]*ast.Term, n)
			for i := range ranks {
				ranks[i] = rankTerm(entries[i].rank)
			}
			keys = append(keys, item(k, ast.ArrayTerm(ranks...)))
			lens = append(lens, utf8.RuneCountInString(k))
			entries = entries[n:]
		}
		items = append(items, item(name, ast.ObjectTerm(keys...)))
		if sh != shapeExact {
			slices.Sort(lens)
			items = append(items, item(name+"_lens", intsTerm(slices.Compact(lens))))
		}
	}
	return ast.NewObject(items...)
}

// rankRules orders the rules of one pattern map from least to most specific
// (R1), with the mcp discovery baseline when asked (R6): a rule's index is
// its specificity rank. The matcher and the precedence lint (lint.go) both
// rank through it, so the lint judges exactly the order that decides.
func rankRules(surface string, rules []Rule, home string, baseline bool) []ranked {
	rs := make([]ranked, 0, len(rules)+len(mcpBaseline))
	for i, r := range rules {
		e := ExpandHome(r.Pattern, home)
		rs = append(rs, ranked{Rule: r, expanded: e, spec: measure(e, i+1)})
	}
	if surface == "mcp" && baseline {
		rs = addMCPBaseline(rs)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].spec.less(rs[j].spec) })
	return rs
}

// matchForms are the patterns a rule matches a value with, collapsed: the
// pattern, and for bash "X *" also the bare "X" (the bash section).
func matchForms(surface, collapsed string) []string {
	if surface == "bash" {
		if bare, ok := strings.CutSuffix(collapsed, " *"); ok {
			return []string{collapsed, bare}
		}
	}
	return []string{collapsed}
}

func item(key string, v *ast.Term) [2]*ast.Term {
	k, ok := keyTerms[key]
	if !ok {
		k = ast.StringTerm(key)
	}
	return ast.Item(k, v)
}

// keyTerms are the field names of matchers and rules, built once and shared
// by every rule (ten thousand rules would otherwise carry fifty thousand
// copies of the same few keys). Terms are never changed after this.
var keyTerms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{"pattern", "action", "pos", "reason", "baseline", "catch_all", "glob", "glob_bare",
		"rules", "exact", "prefix", "prefix_lens", "suffix", "suffix_lens", "glob_lens"} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

func intsTerm(xs []int) *ast.Term {
	ts := make([]*ast.Term, len(xs))
	for i, x := range xs {
		ts[i] = ast.InternedTerm(x)
	}
	return ast.ArrayTerm(ts...)
}

var actionTerms = map[Action]*ast.Term{Allow: ast.StringTerm("allow"), Ask: ast.StringTerm("ask"), Deny: ast.StringTerm("deny"), ActionNone: ast.StringTerm("none")}

// ruleItems are the fields of a rule as the library reads it.
func ruleItems(r Rule) [][2]*ast.Term {
	obj := [][2]*ast.Term{
		item("pattern", ast.StringTerm(r.Pattern)),
		item("action", actionTerms[r.Action]),
		item("pos", ast.StringTerm(r.Pos.String())),
	}
	if r.Reason != "" {
		obj = append(obj, item("reason", ast.StringTerm(r.Reason)))
	}
	return obj
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
