package delegation

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"slices"
)

// IsSubsetOf reports whether SubsetProblems(child, parent) is empty.
func (child *Policy) IsSubsetOf(parent *Policy) bool {
	return len(SubsetProblems(child, parent)) == 0
}

// SubsetProblems lists what could not be proven of child being within
// parent, one rule per field of the spec's table. The proof is sound, not
// complete: an empty list means child admits no more than parent, and a
// problem may stand for a true subset the patterns' shape cannot show.
func SubsetProblems(child, parent *Policy) []Problem {
	var ps problems
	for _, r := range subsetRules {
		r.check(&ps, child, parent)
	}
	for _, name := range uncomparedFields {
		ps.add(child, name, "", "%s: no subset rule compares this field, so the subset cannot be proven", name)
	}
	return ps.list
}

// A subsetRule compares the fields it names. Every field of Policy must be
// named by one rule: uncomparedFields lists those that are not, and
// SubsetProblems fails for each, so a field added to Policy later fails the
// check until a rule compares it (and TestEveryFieldIsCompared fails first).
type subsetRule struct {
	fields []string // Go field names of Policy
	check  func(ps *problems, child, parent *Policy)
}

var subsetRules = []subsetRule{
	{[]string{"AllowedTools", "DefaultDeny"}, allowlistWithin},
	{[]string{"DeniedTools"}, denylistWithin},
	{[]string{"TimeRestrictions"}, windowsWithin},
	{[]string{"RateLimits"}, ratesWithin},
	{[]string{"RateLimitMode", "RateLimitScope"}, modeAndScopeWithin},
	{[]string{"RequireAgentID", "AllowedRoles"}, identityWithin},
	{[]string{"Reauth", "ReauthThreshold"}, reauthWithin},
	{[]string{"EscalateTools", "Approver", "EscalationChannel", "EscalationLedger", "StandingGrants"}, escalationsWithin},
	{[]string{"CallBudget"}, func(ps *problems, c, p *Policy) {
		if p.CallBudget != nil {
			compareBudget(ps, c, c.CallBudget, p.CallBudget)
		}
	}},
	{[]string{"Opaque"}, opaqueSame},
	{[]string{"Unknown"}, unknownFails},
}

var uncomparedFields = func() []string {
	named := map[string]bool{}
	for _, r := range subsetRules {
		for _, f := range r.fields {
			named[f] = true
		}
	}
	var out []string
	t := reflect.TypeFor[Policy]()
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && !named[f.Name] {
			out = append(out, f.Name)
		}
	}
	return out
}()

func allowlistWithin(ps *problems, c, p *Policy) {
	if p.AdmitsEveryTool() {
		return
	}
	if c.AdmitsEveryTool() {
		ps.add(c, "allowed_tools", "", "allowed_tools: the child admits every tool; the parent admits only %q", p.AllowedTools)
		return
	}
	for _, g := range c.AllowedTools {
		if !WithinAny(g, p.AllowedTools) {
			ps.add(c, "allowed_tools", g, "allowed_tools: %q is not within the parent's %q", g, p.AllowedTools)
		}
	}
}

func denylistWithin(ps *problems, c, p *Policy) {
	for _, g := range p.DeniedTools {
		covered := false
		for _, cg := range c.DeniedTools {
			if Within(g, cg) {
				covered = true
				break
			}
		}
		if !covered {
			ps.add(c, "denied_tools", g, "denied_tools: the parent's %q is not covered by a child deny", g)
		}
	}
}

// windowsWithin: every parent pattern kept with a window inside the
// parent's; a pattern the child adds inside every parent window.
func windowsWithin(ps *problems, c, p *Policy) {
	parent := map[string]Window{}
	for _, pattern := range sortedKeys(p.TimeRestrictions) {
		w, err := ParseWindow(p.TimeRestrictions[pattern])
		if err != nil {
			ps.add(p, "time_restrictions", pattern, "time_restrictions[%q]: the parent's %v", pattern, err)
			continue
		}
		parent[pattern] = w
	}
	for _, pattern := range sortedKeys(c.TimeRestrictions) {
		w, err := ParseWindow(c.TimeRestrictions[pattern])
		if err != nil {
			ps.add(c, "time_restrictions", pattern, "time_restrictions[%q]: %v", pattern, err)
			continue
		}
		for _, pp := range sortedKeys(parent) {
			if (pp == pattern || !hasKey(p.TimeRestrictions, pattern)) && !w.Inside(parent[pp]) {
				ps.add(c, "time_restrictions", pattern, "time_restrictions[%q]: %s is not inside the parent's %s for %q",
					pattern, c.TimeRestrictions[pattern], p.TimeRestrictions[pp], pp)
			}
		}
	}
	for _, pattern := range sortedKeys(p.TimeRestrictions) {
		if !hasKey(c.TimeRestrictions, pattern) {
			ps.add(c, "time_restrictions", pattern, "time_restrictions: the parent's window for %q is dropped", pattern)
		}
	}
}

// ratesWithin: every parent pattern kept no looser; a pattern the child
// adds no looser than any of the parent's. An invalid rate on either side
// is a problem quoting it, and is compared with nothing.
func ratesWithin(ps *problems, c, p *Policy) {
	parent := validRates(ps, p, "the parent's ")
	child := validRates(ps, c, "")
	for _, pattern := range sortedKeys(child) {
		r := child[pattern]
		if own, ok := parent[pattern]; ok {
			noLooserRate(ps, c, pattern, r, pattern, own)
			continue
		}
		if hasKey(p.RateLimits, pattern) {
			continue // the parent's is invalid, and reported
		}
		for _, pp := range sortedKeys(parent) {
			noLooserRate(ps, c, pattern, r, pp, parent[pp])
		}
	}
	for _, pattern := range sortedKeys(p.RateLimits) {
		if !hasKey(c.RateLimits, pattern) {
			ps.add(c, "rate_limits", pattern, "rate_limits: the parent's limit for %q is dropped", pattern)
		}
	}
	if c.Mode() != "most_specific" {
		return
	}
	for _, pattern := range sortedKeys(c.RateLimits) {
		if over, splits := splitsBucket(pattern, p); splits {
			ps.add(c, "rate_limits", pattern,
				"rate_limits[%q]: under rate_limit_mode most_specific the added pattern would take calls out of the parent's bucket for %q (more specific, so only its own limit is charged); set rate_limit_mode to all",
				pattern, over)
		}
	}
}

// splitsBucket reports whether a rate pattern the child adds (one parent
// lacks) could split a parent bucket under rate_limit_mode most_specific,
// and the parent pattern it could take calls from. Only the most specific
// matching limits are charged there, so a call matching both the added
// pattern and a parent pattern it outranks would be charged to the added
// bucket alone, and the parent's bucket would no longer see it: k added
// patterns give up to k+1 times the parent's rate (the delegation
// readings, section 4). An added pattern that ranks no higher than every
// parent pattern never outranks one (ties are all charged), so it only
// adds a bucket; whether two patterns can match one name is not proven, so
// every parent pattern counts.
func splitsBucket(pattern string, parent *Policy) (string, bool) {
	if hasKey(parent.RateLimits, pattern) {
		return "", false
	}
	rank := Rank(pattern)
	for _, pp := range sortedKeys(parent.RateLimits) {
		if rank > Rank(pp) {
			return pp, true
		}
	}
	return "", false
}

// validRates parses a policy's rates, reporting each invalid one.
func validRates(ps *problems, p *Policy, whose string) map[string]Rate {
	out := map[string]Rate{}
	for _, pattern := range sortedKeys(p.RateLimits) {
		r, err := ParseRate(p.RateLimits[pattern])
		if err != nil {
			ps.add(p, "rate_limits", pattern, "rate_limits[%q]: %s%v", pattern, whose, err)
			continue
		}
		out[pattern] = r
	}
	return out
}

func noLooserRate(ps *problems, at *Policy, pattern string, r Rate, parentPattern string, pr Rate) {
	if !r.NoLooser(pr) {
		ps.add(at, "rate_limits", pattern, "rate_limits[%q]: %s is looser than the parent's %s for %q", pattern, r, pr, parentPattern)
	}
}

func modeAndScopeWithin(ps *problems, c, p *Policy) {
	if p.Mode() == "all" && c.Mode() != "all" {
		ps.add(c, "rate_limit_mode", c.Mode(), "rate_limit_mode: the parent charges every matching limit (all); the child %q", c.Mode())
	}
	if p.Scope() == "policy" && c.Scope() != "policy" {
		ps.add(c, "rate_limit_scope", c.Scope(), "rate_limit_scope: the parent keeps one bucket for every agent (policy); the child %q", c.Scope())
	}
}

func identityWithin(ps *problems, c, p *Policy) {
	if p.RequireAgentID && !c.RequireAgentID {
		ps.add(c, "require_agent_id", "", "require_agent_id: the parent requires an agent id; the child does not")
	}
	if len(p.AllowedRoles) == 0 {
		return
	}
	if len(c.AllowedRoles) == 0 {
		ps.add(c, "allowed_roles", "", "allowed_roles: the child admits any role; the parent only %q", p.AllowedRoles)
		return
	}
	for _, role := range c.AllowedRoles {
		if !slices.Contains(p.AllowedRoles, role) {
			ps.add(c, "allowed_roles", role, "allowed_roles: %q is not among the parent's %q", role, p.AllowedRoles)
		}
	}
}

func reauthWithin(ps *problems, c, p *Policy) {
	if !p.Reauth {
		return
	}
	if !c.Reauth {
		ps.add(c, "reauth_on_untrusted_reinvocation", "", "reauth_on_untrusted_reinvocation: the parent re-authorizes; the child does not")
		return
	}
	if c.ReauthThreshold > p.ReauthThreshold {
		ps.add(c, "untrusted_reinvocation_threshold", "", "untrusted_reinvocation_threshold: %d is higher than the parent's %d",
			c.ReauthThreshold, p.ReauthThreshold)
	}
}

func escalationsWithin(ps *problems, c, p *Policy) {
	for _, pattern := range sortedKeys(p.EscalateTools) {
		if !hasKey(c.EscalateTools, pattern) {
			ps.add(c, "escalate_tools", pattern, "escalate_tools: the parent's rule for %q is dropped", pattern)
		}
	}
	for _, f := range []struct {
		name          string
		child, parent *string
	}{
		{"approver", c.Approver, p.Approver},
		{"escalation_channel", c.EscalationChannel, p.EscalationChannel},
		{"escalation_ledger", c.EscalationLedger, p.EscalationLedger},
	} {
		if f.child != nil && (f.parent == nil || *f.child != *f.parent) {
			ps.add(c, f.name, *f.child, "%s: %q is neither the parent's nor none", f.name, *f.child)
		}
	}
	for _, g := range c.StandingGrants {
		if !WithinAny(g, p.StandingGrants) {
			ps.add(c, "standing_grants", g, "standing_grants: %q is not within the parent's %q", g, p.StandingGrants)
		}
	}
}

// compareBudget adds a problem for each bound of child (nil: none) looser
// than parent's (the delegation readings, 6-8). Without a parent budget
// every child budget only tightens. at positions the problems (nil for a
// Narrow request).
func compareBudget(ps *problems, at *Policy, child, parent *CallBudget) {
	if parent == nil {
		return
	}
	c := child
	if c == nil {
		c = &CallBudget{}
	}
	const f = "amplification_budget."
	atMost := func(name string, cv, pv *big.Rat) {
		if pv != nil && (cv == nil || cv.Cmp(pv) > 0) {
			ps.add(at, f+name, "", "%s%s: %s is looser than the parent's %s", f, name, ratString(cv), pv.RatString())
		}
	}
	atMost("max_calls_per_run", intRat(c.MaxCalls), intRat(parent.MaxCalls))
	atMost("max_wall_seconds", numRat(c.MaxWallSeconds), numRat(parent.MaxWallSeconds))
	atMost("max_amplification_ratio", numRat(c.MaxRatio), numRat(parent.MaxRatio))
	if parent.MaxRatio != nil {
		atMost("baseline_calls_per_run", intRat(c.Baseline), intRat(parent.Baseline))
	}
	if c.Action == "warn" && parent.Action != "warn" {
		ps.add(at, f+"action", "warn", "%saction: warn is looser than the parent's block", f)
	}
	// max_sessions bounds the sessions a ledger remembers, and an evicted
	// session's count starts again, so a lower bound is looser. 0, like
	// none, keeps every session (delegate.CeilingState.Count): it is the
	// strictest value, never the number 0.
	cs, pss := sessionBound(c.MaxSessions), sessionBound(parent.MaxSessions)
	switch {
	case cs != nil && pss == nil:
		ps.add(at, f+"max_sessions", "", "%smax_sessions: the child's ledger keeps at most %d sessions; the parent's keeps every session (%s)",
			f, *cs, sessionsWritten(parent.MaxSessions))
	case cs != nil && *cs < *pss:
		ps.add(at, f+"max_sessions", "", "%smax_sessions: %d is lower than the parent's %d", f, *cs, *pss)
	}
}

// sessionBound is max_sessions as a bound: nil (none) and 0 keep every
// session, so both are unbounded.
func sessionBound(n *int64) *int64 {
	if n == nil || *n == 0 {
		return nil
	}
	return n
}

func sessionsWritten(n *int64) string {
	if n == nil {
		return "max_sessions unset"
	}
	return "max_sessions 0"
}

func intRat(n *int64) *big.Rat {
	if n == nil {
		return nil
	}
	return new(big.Rat).SetInt64(*n)
}

func numRat(n *json.Number) *big.Rat {
	if n == nil {
		return nil
	}
	r, _ := ratOf(*n)
	return r
}

// ratOf reads a JSON number exactly.
func ratOf(n json.Number) (*big.Rat, bool) {
	return new(big.Rat).SetString(string(n))
}

func ratString(r *big.Rat) string {
	if r == nil {
		return "unbounded"
	}
	return r.RatString()
}

func opaqueSame(ps *problems, c, p *Policy) {
	for _, name := range opaqueFields {
		cv, cok := c.Opaque[name]
		pv, pok := p.Opaque[name]
		if cok != pok || (cok && !jsonEqual(cv, pv)) {
			ps.add(c, name, "", "%s: the child's is not the parent's own", name)
		}
	}
}

func unknownFails(ps *problems, c, p *Policy) {
	for _, side := range []struct {
		who string
		pol *Policy
	}{{"child", c}, {"parent", p}} {
		for _, name := range sortedKeys(side.pol.Unknown) {
			ps.add(side.pol, name, "", "%s: the %s has a field no subset rule compares", name, side.who)
		}
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
