package delegation

import (
	"slices"
	"sort"
)

// A Request asks Narrow for less: a nil field is not requested. A non-nil
// empty AllowedTools asks for no tool.
type Request struct {
	AllowedTools []string
	DeniedTools  []string
	RateLimits   map[string]string
	CallBudget   *CallBudget
}

// Narrow returns a copy of p that can only admit less: the allowlist
// intersected with the request, the request's denials added, its rate
// limits added or put in place of p's for a pattern, its call budget in
// place of p's. Every other field is p's own. A request that would widen p
// is a *WidensError naming what widens it.
func (p *Policy) Narrow(r Request) (*Policy, error) {
	n := p.Clone()
	n.pos = nil // written by no file: its problems carry no position
	var ps problems
	// An invalid value is never read leniently: a parent holding one cannot
	// be narrowed into a child that is proven within it.
	for _, pr := range p.ValueProblems() {
		pr.Msg = "the parent's " + pr.Msg
		ps.list = append(ps.list, pr)
	}
	if r.AllowedTools != nil {
		n.AllowedTools = intersect(p, r.AllowedTools)
		if len(n.AllowedTools) == 0 {
			n.AllowedTools, n.DefaultDeny = []string{}, true
		}
	}
	for _, g := range r.DeniedTools {
		if !slices.Contains(n.DeniedTools, g) {
			n.DeniedTools = append(n.DeniedTools, g)
		}
	}
	if len(r.RateLimits) > 0 {
		if n.RateLimits == nil {
			n.RateLimits = map[string]string{}
		}
		for _, pattern := range sortedKeys(r.RateLimits) {
			rate := r.RateLimits[pattern]
			narrowRate(&ps, p, pattern, rate)
			n.RateLimits[pattern] = rate
			// An added pattern that could take calls out of a parent
			// bucket is charged beside it instead: under "all" every
			// matching limit is charged, so the parent's buckets see every
			// call they saw before (the delegation readings, section 4).
			if _, splits := splitsBucket(pattern, p); splits {
				n.RateLimitMode = "all"
			}
		}
	}
	if r.CallBudget != nil {
		compareBudget(&ps, nil, r.CallBudget, p.CallBudget)
		b := *r.CallBudget
		n.CallBudget = &b
	}
	if len(ps.list) > 0 {
		return nil, &WidensError{Problems: ps.list}
	}
	return n, nil
}

// intersect is the narrowed allowlist (the delegation readings, 5): a
// requested pattern within one of p's is kept; otherwise p's patterns
// within it are; a p that admits every tool takes the request as it is.
// What the patterns cannot express is dropped.
func intersect(p *Policy, requested []string) []string {
	if p.AdmitsEveryTool() {
		return dedupe(requested)
	}
	var out []string
	for _, r := range requested {
		if WithinAny(r, p.AllowedTools) {
			out = append(out, r)
			continue
		}
		for _, g := range p.AllowedTools {
			if Within(g, r) {
				out = append(out, g)
			}
		}
	}
	return dedupe(out)
}

func dedupe(s []string) []string {
	out := make([]string, 0, len(s))
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// narrowRate checks one requested limit: no looser than p's limit for the
// same pattern, or, for a pattern p lacks, than every limit p has (the
// shape check does not prove two patterns disjoint). p's invalid rates are
// reported apart.
func narrowRate(ps *problems, p *Policy, pattern, rate string) {
	r, err := ParseRate(rate)
	if err != nil {
		ps.add(nil, "rate_limits", pattern, "rate_limits[%q]: %v", pattern, err)
		return
	}
	if own, ok := p.RateLimits[pattern]; ok {
		if pr, err := ParseRate(own); err == nil {
			noLooserRate(ps, nil, pattern, r, pattern, pr)
		}
		return
	}
	for _, pp := range sortedKeys(p.RateLimits) {
		if pr, err := ParseRate(p.RateLimits[pp]); err == nil {
			noLooserRate(ps, nil, pattern, r, pp, pr)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
