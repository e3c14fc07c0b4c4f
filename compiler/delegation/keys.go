package delegation

import "slices"

// The keys a delegation policy file takes, listed once for the "did you
// mean" of an unknown key: the decoder's switches read exactly these
// (compiler/schema's TestSchemaKeys holds the lists, the switches and the
// published schema together).
var (
	// policyKeys are the top-level keys the decoder reads; opaqueFields
	// are read too.
	policyKeys = []string{
		"$schema", "allowed_tools", "amplification_budget", "approver", "allowed_roles", "default_deny", "denied_tools",
		"escalate_tools", "escalation_channel", "escalation_ledger", "rate_limit_mode", "rate_limit_scope",
		"rate_limits", "reauth_on_untrusted_reinvocation", "require_agent_id", "standing_grants",
		"time_restrictions", "untrusted_reinvocation_threshold",
	}
	// budgetKeys are the keys of amplification_budget.
	budgetKeys = []string{
		"action", "baseline_calls_per_run", "max_amplification_ratio", "max_calls_per_run", "max_sessions",
		"max_wall_seconds",
	}
)

// Keys returns the keys the object at path of a policy file takes, sorted
// (nil path: the top level; "amplification_budget": the budget), or nil
// for any other path.
func Keys(path ...string) []string {
	var out []string
	switch {
	case len(path) == 0:
		out = append(append(out, policyKeys...), opaqueFields...)
	case len(path) == 1 && path[0] == "amplification_budget":
		out = append(out, budgetKeys...)
	default:
		return nil
	}
	slices.Sort(out)
	return out
}
