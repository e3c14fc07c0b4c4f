package importrules

import (
	"fmt"
)

// resolve leaves out every imported allow that regate would let win where
// the host lets a restriction win.
//
// The hosts order rules differently from regate. Claude Code and Codex
// apply the strictest matching rule (deny, then ask, then allow), Gemini
// CLI the matching rule of highest priority; regate applies, within one
// surface's map, the most specific matching pattern (R1). Imported denies
// go to the hard guards, which nothing lifts, so a deny always still wins.
// An ask and an allow share policy.jsonc: where a call matches both, the
// host asks (the ask comes first in its order) but regate would take the
// more specific pattern, which may be the allow. Such an allow is left
// out, so the call asks, as in the host.
//
// A restriction the import could not write (Rule.reach) counts too: an
// allow on a surface it would have restricted is left out.
func resolve(res *Result) {
	for i := range res.Rules {
		a := &res.Rules[i]
		if a.Action != Allow || len(a.Targets) == 0 {
			continue
		}
		if why := outranked(*a, res.Rules, res.home); why != "" {
			a.Targets, a.Note, a.Skipped = nil, "", why
		}
	}
	sortRules(res.Rules)
}

// outranked says why allow a would wrongly win over one of rules, or "".
func outranked(a Rule, rules []Rule, home string) string {
	for _, r := range rules {
		if !isRestrictive(r.Action) || r.order < a.order {
			continue
		}
		for _, s := range r.reach {
			for _, at := range a.Targets {
				if at.Surface == s {
					return fmt.Sprintf("the %s at %s, which comes first in the host, could not be imported, and this allow would reach the calls it covers", r.Text, r.From)
				}
			}
		}
		if r.Action != Ask {
			continue // a deny is a hard guard: it wins anyway
		}
		for _, at := range a.Targets {
			for _, rt := range r.Targets {
				if at.Surface != rt.Surface || !overlaps(at.Surface, at.Pattern, rt.Pattern, home) {
					continue
				}
				if rankOf(at.Pattern, home).atLeastAsSpecific(rankOf(rt.Pattern, home)) {
					return fmt.Sprintf("the host asks first for %s (%s), but in regate this more specific allow %q would win over %q", r.Text, r.From, at.Pattern, rt.Pattern)
				}
			}
		}
	}
	return ""
}
