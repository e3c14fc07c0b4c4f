package compiler

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/internal/matchkey"
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

// buildMatcher lowers the rules of one pattern map to the index the
// generated Rego reads (see docs/design.md), built directly as an AST value:
// the runtime's store takes it as it is, and a large policy is never held
// twice.
//
//	rules   rank node → rule. A rule's rank is its place in the order from
//	        least to most specific (R1), spelt "~000031" (RankNode), so
//	        that the greatest of several nodes is the most specific rule.
//	graph   candidate key → the rank nodes of the patterns that match
//	        exactly the values with that key (internal/matchkey), and each
//	        rank node → []: graph.reachable from a value's keys is the set
//	        of rules that match it, in one builtin call whatever the number
//	        of keys or rules. A key that also files entries to confirm
//	        points at ConfirmNode, which sorts above every rank node: when
//	        the greatest node reached is a rule, no entry needs confirming.
//	starts, ends, globs
//	        candidate key → [rank node, arg] of the patterns a value with
//	        the key must still satisfy: start with, end with or match
//	        (glob.match, no delimiters) arg; each absent when it has none.
//	many    present when the three hold more than a few keys, so that a
//	        lookup walks the value's keys rather than theirs.
//
// A value is looked up by its own keys, which facts lists in the input
// document, so a decision never scans the rules.
//
// baseline adds the mcp discovery targets (R6); session approvals, which
// hold only what the user approved, never get them.
//
// session compiles approvals, whose messages say so (Tail).
func buildMatcher(surface string, rules []Rule, home string, baseline, session bool) ast.Value {
	rs := rankRules(surface, rules, home, baseline)
	class := matchkey.ClassOf(surface)

	// Every (key, rank, entry) the rules contribute, sorted by key below; the
	// stable sort keeps each key's ranks ascending. A slice of entries rather
	// than a map of slices: ten thousand rules would otherwise allocate ten
	// thousand one-element slices and a growing map.
	type filed struct {
		matchkey.Entry
		rank int
	}
	entries := make([]filed, 0, len(rs)+len(rs)/4)
	nodes := make([]*ast.Term, len(rs))
	ruleItems := make([][2]*ast.Term, len(rs))
	graph := make([][2]*ast.Term, 0, 2*len(rs))
	for rank, r := range rs {
		p := collapseStars(r.expanded)
		obj := append(ruleObjectItems(r.Rule), item("tail", ast.StringTerm(Tail(r.Pattern, r.Reason, session))))
		if r.baseline {
			obj = append(obj, item("baseline", ast.InternedTerm(true)))
		}
		if p == "*" {
			obj = append(obj, item("catch_all", ast.InternedTerm(true)))
		}
		for _, f := range matchForms(surface, p) {
			entries = append(entries, filed{matchkey.Align(class, f, globEscape(f)), rank})
		}
		nodes[rank] = ast.StringTerm(RankNode(rank))
		ruleItems[rank] = ast.Item(nodes[rank], ast.ObjectTerm(obj...))
		graph = append(graph, ast.Item(nodes[rank], emptyArray))
	}
	slices.SortStableFunc(entries, func(a, b filed) int { return strings.Compare(a.Key, b.Key) })
	confirm := map[matchkey.Op][][2]*ast.Term{}
	keys := 0
	for len(entries) > 0 {
		k := entries[0].Key
		n := 1
		for n < len(entries) && entries[n].Key == k {
			n++
		}
		var sure []*ast.Term
		checks := map[matchkey.Op][]*ast.Term{}
		for _, e := range entries[:n] {
			if e.Op == matchkey.Sure {
				sure = append(sure, nodes[e.rank])
			} else {
				checks[e.Op] = append(checks[e.Op], ast.ArrayTerm(nodes[e.rank], ast.StringTerm(e.Arg)))
			}
		}
		if len(checks) > 0 {
			sure = append(sure, confirmTerm)
		}
		if sure != nil {
			graph = append(graph, ast.Item(ast.StringTerm(k), ast.ArrayTerm(sure...)))
		}
		for op, cs := range checks {
			confirm[op] = append(confirm[op], ast.Item(ast.StringTerm(k), ast.ArrayTerm(cs...)))
			keys++
		}
		entries = entries[n:]
	}
	if keys > 0 {
		graph = append(graph, ast.Item(confirmTerm, emptyArray))
	}
	items := [][2]*ast.Term{item("rules", ast.ObjectTerm(ruleItems...)), item("graph", ast.ObjectTerm(graph...))}
	for _, op := range []matchkey.Op{matchkey.Prefix, matchkey.Suffix, matchkey.Glob} {
		if cs := confirm[op]; cs != nil {
			items = append(items, item(confirmNames[op], ast.ObjectTerm(cs...)))
		}
	}
	if keys > fewMaybe {
		items = append(items, item("many", ast.InternedTerm(true)))
	}
	return ast.NewObject(items...)
}

// confirmNames are the members of a matcher that hold the entries to
// confirm, by what confirms them.
var confirmNames = map[matchkey.Op]string{matchkey.Prefix: "starts", matchkey.Suffix: "ends", matchkey.Glob: "globs"}

// confirmsUsed reports which kinds of entries to confirm the matchers of
// surfaces hold (by their member names), and whether one holds many.
func confirmsUsed(surfaces map[string]any) (used map[string]bool, many bool) {
	used = map[string]bool{}
	for _, m := range surfaces {
		obj, ok := m.(ast.Object)
		if !ok {
			continue
		}
		for _, name := range confirmNames {
			if obj.Get(keyTerms[name]) != nil {
				used[name] = true
			}
		}
		many = many || obj.Get(keyTerms["many"]) != nil
	}
	return used, many
}

// fewMaybe is how many keys of entries to confirm the Rego walks itself;
// past it, it walks the value's keys instead (regate.lib.decide.confirmed).
const fewMaybe = 8

// ConfirmNode is the graph node a key with entries to confirm points at
// (buildMatcher). It sorts above every RankNode, so the greatest node a
// value's keys reach is a rule only when none of its keys files an entry
// to confirm.
const ConfirmNode = "~~"

var confirmTerm = ast.StringTerm(ConfirmNode)

// RankNode is how the compiled indexes spell a rule's specificity rank:
// zero-padded past any rank a map can hold (MaxRules and the mcp baseline),
// so that the order of the strings is the order of the ranks.
func RankNode(rank int) string { return fmt.Sprintf("~%07d", rank) }

var emptyArray = ast.ArrayTerm()

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
// pattern, and for bash "X *" also the bare "X" (the bash section); for an
// mcp "SERVER:TOOL" also the server as each host sends it (lint_mcp.go), so
// that a rule written with the configured name meets Pi's mcp__dev_radius__
// calls as it meets its resource reads of dev-radius.
func matchForms(surface, collapsed string) []string {
	switch surface {
	case "bash":
		if bare, ok := strings.CutSuffix(collapsed, " *"); ok {
			return []string{collapsed, bare}
		}
	case "mcp":
		server, tool, ok := strings.Cut(collapsed, ":")
		if !ok || server == "" || strings.ContainsAny(server, "*?") {
			break
		}
		forms := []string{collapsed}
		for _, h := range mcpHostForms {
			if sent := h.send(server); sent != server && !slices.Contains(forms, sent+":"+tool) {
				forms = append(forms, sent+":"+tool)
			}
		}
		return forms
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
	for _, k := range []string{"pattern", "action", "pos", "sev", "reason", "baseline", "catch_all", "rules", "graph", "starts", "ends", "globs", "many", "tail"} {
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

// ruleObjectItems are the fields of a rule as the library reads it.
func ruleObjectItems(r Rule) [][2]*ast.Term {
	obj := [][2]*ast.Term{
		item("pattern", ast.StringTerm(r.Pattern)),
		item("action", actionTerms[r.Action]),
		item("pos", ast.StringTerm(r.Pos.String())),
		item("sev", ast.InternedTerm(severities[r.Action])),
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
