package compiler

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// A RuleRecord is one compiled rule as an auditor reads it: where it lives,
// what it says, how specific it is, and whether it can ever decide.
type RuleRecord struct {
	Layer string `json:"layer"` // policy, hard-guard or agent
	Agent string `json:"agent,omitempty"`
	// Surface is the rule's surface; "*" for a layer's universal fallback.
	Surface string `json:"surface"`
	Pattern string `json:"pattern"`
	Action  string `json:"action"`
	Reason  string `json:"reason,omitempty"`
	// Rank is the rule's specificity rank within its surface: among the
	// rules that match a value, the highest rank decides.
	Rank int    `json:"rank"`
	Pos  string `json:"pos"`
	// NeverDecides is set when the rule can never be the one that decides:
	// ShadowedBy names the rule that always decides first (a hard guard
	// covering it, or a more specific rule of its surface covering it).
	NeverDecides bool   `json:"never_decides"`
	ShadowedBy   string `json:"shadowed_by,omitempty"`
}

// An Audit is the export of a compiled policy: every rule, the patterns
// written twice in one place (the earlier of which was dropped: the later
// value wins), and the precedence surprises.
type Audit struct {
	Rules      []RuleRecord `json:"rules"`
	Duplicates []Duplicate  `json:"duplicates"`
	// Precedence are the warnings of the precedence lint (outranked_deny,
	// order_decides, precedence_unchecked): an allow or ask that outranks a
	// deny, rules that only key order ranks. Compile finds them when asked
	// WithPrecedenceLint, as regate export does.
	Precedence []Finding `json:"precedence"`
}

// A Finding is one positioned warning, as check prints it.
type Finding struct {
	Pos  string `json:"pos"`
	Code string `json:"code"`
	Msg  string `json:"message"`
}

// A Duplicate is a key written twice; Pos is the later one, which won.
type Duplicate struct {
	Pos string `json:"pos"`
	Msg string `json:"message"`
}

// Export lists every compiled rule, layer by layer (hard guards, policy,
// agents by name), each surface's rules from the most to the least
// specific, with the analysis: rules shadowed by a hard guard or by a more
// specific rule that covers every value they match (two spellings of one
// pattern included, such as "~/.ssh/*" and "/home/u/.ssh/*"), and keys
// written twice. Coverage is decided from the patterns' shape, so it is
// sound, not complete: a rule reported as never deciding never does.
func (o *Output) Export() (*Audit, error) {
	rules, err := o.plainData()
	if err != nil {
		return nil, err
	}
	hardGuards := setRecords(rules["hardguards"], "hard-guard", "")
	records := append([]RuleRecord(nil), hardGuards...)
	records = append(records, setRecords(rules["policy"], "policy", "")...)
	agents, _ := rules["agents"].(map[string]any)
	byName, _ := agents["agents"].(map[string]any)
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		records = append(records, setRecords(byName[n], "agent", n)...)
	}
	o.analyse(records, hardGuards)
	a := &Audit{Rules: records, Duplicates: []Duplicate{}, Precedence: []Finding{}}
	for _, d := range o.Diagnostics {
		switch d.Code {
		case CodeDuplicateKey:
			a.Duplicates = append(a.Duplicates, Duplicate{Pos: d.Pos.String(), Msg: d.Msg})
		case CodeOutrankedDeny, CodeOrderDecides, CodePrecedenceUnchecked:
			a.Precedence = append(a.Precedence, Finding{Pos: d.Pos.String(), Code: d.Code, Msg: d.Msg})
		}
	}
	return a, nil
}

// setRecords lists one rule set's fallback and surfaces.
func setRecords(set any, layer, agent string) []RuleRecord {
	s, _ := set.(map[string]any)
	var out []RuleRecord
	if fb, ok := s["fallback"].(map[string]any); ok {
		out = append(out, record(fb, layer, agent, "*", 0))
	}
	surfaces, _ := s["surfaces"].(map[string]any)
	names := make([]string, 0, len(surfaces))
	for n := range surfaces {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		m, _ := surfaces[name].(map[string]any)
		rs, _ := m["rules"].(map[string]any)
		nodes := slices.Sorted(maps.Keys(rs))
		for rank := len(nodes) - 1; rank >= 0; rank-- {
			r, _ := rs[nodes[rank]].(map[string]any)
			if r["baseline"] == true {
				continue // regate's own MCP baseline, not a rule anyone wrote
			}
			out = append(out, record(r, layer, agent, name, rank))
		}
	}
	return out
}

func record(r map[string]any, layer, agent, surface string, rank int) RuleRecord {
	str := func(k string) string { s, _ := r[k].(string); return s }
	return RuleRecord{Layer: layer, Agent: agent, Surface: surface, Pattern: str("pattern"), Action: str("action"),
		Reason: str("reason"), Rank: rank, Pos: str("pos")}
}

// analyse marks what can never decide.
func (o *Output) analyse(records, hardGuards []RuleRecord) {
	for i := range records {
		r := &records[i]
		if r.Layer == "hard-guard" || r.Surface == "*" {
			continue
		}
		for _, h := range hardGuards {
			if h.Surface == r.Surface && o.covers(h.Pattern, r.Pattern, r.Surface) {
				r.NeverDecides, r.ShadowedBy = true, fmt.Sprintf("hard guard %q at %s", h.Pattern, h.Pos)
				break
			}
		}
		if r.ShadowedBy != "" {
			continue
		}
		for _, s := range records {
			if s.Layer == r.Layer && s.Agent == r.Agent && s.Surface == r.Surface && s.Rank > r.Rank &&
				o.covers(s.Pattern, r.Pattern, r.Surface) {
				r.NeverDecides, r.ShadowedBy = true, fmt.Sprintf("%q at %s, more specific", s.Pattern, s.Pos)
				break
			}
		}
	}
}

// covers reports whether pattern p matches every value pattern c matches,
// from their shape: the same pattern, "*", a literal prefix ("A*") that c
// begins with, a literal suffix ("*B") that c ends with; and for bash, p
// "A *" also covers the bare command "A".
func (o *Output) covers(p, c, surface string) bool {
	p, c = ExpandHome(p, o.Home), ExpandHome(c, o.Home)
	switch {
	case p == c || p == "*":
		return true
	case surface == "bash" && strings.HasSuffix(p, " *") && c == strings.TrimSuffix(p, " *"):
		return true
	}
	if strings.Count(p, "*") != 1 || strings.ContainsAny(p, "?[") {
		return false
	}
	prefix, suffix, _ := strings.Cut(p, "*")
	return len(c) >= len(prefix)+len(suffix) && strings.HasPrefix(c, prefix) && strings.HasSuffix(c, suffix) &&
		!strings.ContainsAny(c[:len(prefix)]+c[len(c)-len(suffix):], "*?[")
}

// Matches reports whether the rule pattern (as written) of surface matches
// value, as the decision matches it: home-expanded, runs of * collapsed,
// only * and ? wild, and on the bash surface "X *" matching the bare "X"
// too. Coverage uses it to tell which rules a decided value also matched.
func (o *Output) Matches(surface, pattern, value string) bool {
	for _, f := range matchForms(surface, collapseStars(ExpandHome(pattern, o.Home))) {
		if matchGlob(f, value) {
			return true
		}
	}
	return false
}
