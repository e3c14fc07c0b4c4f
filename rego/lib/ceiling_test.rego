package regate.lib.ceiling_test

import data.regate.lib.ceiling

# A compiled policy, as compiler/delegation writes it.
policy(name, fields) := object.union(
	{
		"name": name, "invalid": [], "open": true, "allowed": [], "denied": [], "windows": [], "rates": [],
		"mode": "most_specific", "scope": "policy", "require_agent_id": false, "roles": [], "reauth": false,
		"threshold": 1, "escalate": [], "approver": null, "grants": [], "budget": null,
	},
	fields,
)

call := {
	"chain": ["planner", "child"], "tool": "read_a", "agent": "c1", "roles": [], "minute": 720, "at": 0,
	"untrusted_prior": 0, "authorized_once": false, "state": {},
}

policies := {"planner": policy("planner", {"rates": [{"pattern": "*", "re": `(?s)\A.*\z`, "rank": 0, "burst": 2, "per_day": 48}]}), "child": policy("child", {})}

test_allow_charges_the_parents_bucket if {
	d := ceiling.decision with input as call with data.regate.delegation.policies as policies
	d.decision == "allow"
	d.charges.buckets == [{"policy": "planner", "key": "*", "tokens": 1}]
}

test_spent_bucket_refuses_and_charges_nothing if {
	spent := object.union(call, {"state": {"planner": {"buckets": {"*": {"tokens": 0, "at": 0}}, "calls": 0}}})
	d := ceiling.decision with input as spent with data.regate.delegation.policies as policies
	d.decision == "deny"
	d.violation == "rate_limited"
	d.layer == "2.1:delegation_ceiling"
	d.charges.buckets == []
}

test_unknown_chain_policy_refuses if {
	d := ceiling.decision with input as object.union(call, {"chain": ["nobody"]})
		with data.regate.delegation.policies as policies
	d.decision == "deny"
	d.violation == "unknown_policy"
}

test_invalid_policy_refuses_every_call if {
	broken := object.union(policies, {"child": policy("child", {"invalid": ["rate_limits[\"*\"]: invalid rate"]})})
	d := ceiling.decision with input as call with data.regate.delegation.policies as broken
	d.violation == "invalid_policy"
}

test_deny_beats_escalation if {
	esc := {
		"planner": policy("planner", {"escalate": [{"pattern": "read_*", "re": `(?s)\Aread_.*\z`, "reason": "r"}], "approver": "ops"}),
		"child": policy("child", {"denied": [`(?s)\Aread_.*\z`]}),
	}
	d := ceiling.decision with input as call with data.regate.delegation.policies as esc
	d.decision == "deny"
	d.violation == "tool_denied"
}
