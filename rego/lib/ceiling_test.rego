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

# An escalation by the planner, to treasury, of a call the planner's bucket
# limits.
escalating_policies := {
	"planner": policy("planner", {
		"escalate": [{"pattern": "read_*", "re": `(?s)\Aread_.*\z`, "reason": "r"}], "approver": "treasury",
		"rates": [{"pattern": "*", "re": `(?s)\A.*\z`, "rank": 0, "burst": 2, "per_day": 48}],
	}),
	"child": policy("child", {"escalate": [{"pattern": "read_*", "re": `(?s)\Aread_.*\z`, "reason": "r"}], "approver": "ops"}),
}

test_escalation_carries_its_charges if {
	d := ceiling.decision with input as call with data.regate.delegation.policies as escalating_policies
	d.decision == "escalate"
	d.policy == "planner"
	d.charges.buckets == [{"policy": "planner", "key": "*", "tokens": 1}]
}

test_approval_of_the_outermost_escalates_to_the_next if {
	approved := object.union(call, {"approvals": [{"policy": "planner", "approver": "treasury"}]})
	d := ceiling.decision with input as approved with data.regate.delegation.policies as escalating_policies
	d.decision == "escalate"
	d.policy == "child"
	d.approver == "ops"
}

test_every_approval_allows_and_charges if {
	approved := object.union(call, {"approvals": [
		{"policy": "planner", "approver": "treasury"},
		{"policy": "child", "approver": "ops"},
	]})
	d := ceiling.decision with input as approved with data.regate.delegation.policies as escalating_policies
	d.decision == "allow"
	d.approved == true
	d.reason == "approved by treasury, ops"
	d.charges.buckets == [{"policy": "planner", "key": "*", "tokens": 1}]
}

test_approval_by_someone_else_approves_nothing if {
	approved := object.union(call, {"approvals": [{"policy": "planner", "approver": "mallory"}]})
	d := ceiling.decision with input as approved with data.regate.delegation.policies as escalating_policies
	d.decision == "escalate"
	d.policy == "planner"
}

test_stale_approval_is_refused_on_an_empty_bucket if {
	approved := object.union(call, {
		"approvals": [{"policy": "planner", "approver": "treasury"}, {"policy": "child", "approver": "ops"}],
		"state": {"planner": {"buckets": {"*": {"tokens": 0, "at": 0}}, "calls": 0}},
	})
	d := ceiling.decision with input as approved with data.regate.delegation.policies as escalating_policies
	d.decision == "deny"
	d.violation == "rate_limited"
	d.charges.buckets == []
}

test_plain_allow_is_not_approved if {
	d := ceiling.decision with input as call with data.regate.delegation.policies as policies
	d.approved == false
	d.reason == ""
}

test_one_approval_covers_an_inner_rule_with_no_approver if {
	inner := object.union(escalating_policies, {"child": policy("child", {"escalate": [{"pattern": "read_*", "re": `(?s)\Aread_.*\z`, "reason": "r"}]})})
	approved := object.union(call, {"approvals": [{"policy": "planner", "approver": "treasury"}]})
	d := ceiling.decision with input as approved with data.regate.delegation.policies as inner
	d.decision == "allow"
	d.approved == true
}

test_approval_naming_a_policy_that_does_not_escalate_approves_nothing if {
	approved := object.union(call, {"approvals": [{"policy": "nobody", "approver": "treasury"}]})
	d := ceiling.decision with input as approved with data.regate.delegation.policies as escalating_policies
	d.decision == "escalate"
	d.policy == "planner"
}
