# Package ceiling is the delegation ceiling (step 2.1): every call of a
# delegated run must pass each policy of its delegation chain, outermost
# first, and then the tool's own policy (step 2).
#
# The policies are data.regate.delegation.policies, compiled by regate's
# compiler/delegation (globs as anchored regular expressions, rates as
# integer bursts and refills per day, windows as minute ranges, ranks). The
# call and the state are input:
#
#   chain            the policy names, outermost first, the child's last
#   tool_policy      the tool's own policy name, or absent
#   tool, agent      the call's tool and agent (null: none)
#   roles            the roles the call claims
#   minute, at       the minute of the day; seconds since the run began
#   untrusted_prior  invocations of the tool after untrusted output
#   authorized_once  whether the child's context holds a grant for the tool
#   state[name]      {"buckets": {key: {"tokens", "at"}}, "calls": n}: each
#                    policy's rate buckets and the session's count of
#                    allowed calls, as the runtime keeps them
#   approvals        optional: [{"policy", "approver"}], the escalations of
#                    this call a human has approved
#
# decision says allow, deny or escalate, the layer, the violation and the
# policy. An allow and an escalation carry the charges the call spends;
# the runtime commits them for an allow only (buckets and ledgers are
# charged only for allowed calls, so a refused call cannot drain a parent's
# shared bucket). An escalation is charged when it is approved: the call is
# decided again, at the time of the approval and on the state as it is
# then, with the approval in input.approvals, and comes back an allow
# (approved: true) only if no policy refuses it now.
package regate.lib.ceiling

policies := data.regate.delegation.policies

layer := "2.1:delegation_ceiling"

default decision := {
	"decision": "deny",
	"layer": "2.1:delegation_ceiling",
	"refused_by": "DelegationCeiling",
	"violation": "no_decision",
	"policy": null,
	"approver": null,
	"reason": "the ceiling reached no decision; the call is blocked",
	"charges": {"buckets": [], "ledgers": []},
}

decision := refusal(r, layer) if {
	r := chain_refusals[0]
} else := refusal(tool_refusal, null) if {
	tool_refusal
} else := escalation if {
	escalating
} else := {
	"decision": "allow",
	"layer": null,
	"refused_by": null,
	"violation": null,
	"policy": null,
	"approver": null,
	"reason": approved_reason,
	"approved": count(approved_by) > 0,
	"charges": charges,
}

refusal(r, at) := {
	"decision": "deny",
	"layer": at,
	"refused_by": by,
	"violation": r.violation,
	"policy": r.policy,
	"approver": null,
	"reason": sprintf("the delegation policy %q refuses the call: %s", [r.policy, r.violation]),
	"charges": {"buckets": [], "ledgers": []},
} if {
	by := {true: "DelegationCeiling", false: null}[at != null]
}

# chain_refusals are the first violation of each chain policy that has one,
# outermost first.
chain_refusals := [{"policy": name, "violation": v} |
	some name in input.chain
	v := violation(object.get(policies, name, null))
]

tool_refusal := {"policy": input.tool_policy, "violation": v} if {
	v := violation(object.get(policies, input.tool_policy, null))
}

# violation is the first check of one policy the call fails, in the order
# identity, tool lists, time window, rate limit, re-authorization, call
# budget. A policy that is not compiled, or holds an invalid value, refuses
# every call.
violation(p) := "unknown_policy" if {
	p == null
} else := "invalid_policy" if {
	count(p.invalid) > 0
} else := "agent_required" if {
	p.require_agent_id
	input.agent == null
} else := "role_required" if {
	count(p.roles) > 0
	not has_role(p)
} else := "tool_denied" if {
	some re in p.denied
	regex.match(re, input.tool)
} else := "tool_not_allowed" if {
	not p.open
	not listed(p)
} else := "time_restricted" if {
	not in_window(p)
} else := "rate_limited" if {
	some c in bucket_charges(p)
	c.tokens < 0
} else := "reauth_required" if {
	p.reauth
	input.untrusted_prior >= p.threshold
	not input.authorized_once
} else := "budget_exceeded" if {
	budget_exceeded(p)
}

# No agent holds no role, whatever the call claims.
has_role(p) if {
	input.agent != null
	some r in input.roles
	r in p.roles
}

listed(p) if {
	some re in p.allowed
	regex.match(re, input.tool)
}

# in_window: every most specific matching window contains the minute.
in_window(p) if {
	ws := [w | some w in p.windows; regex.match(w.re, input.tool)]
	top := max({w.rank | some w in ws})
	every w in [w | some w in ws; w.rank == top] {
		contains_minute(w)
	}
}

in_window(p) if {
	not any_window(p)
}

any_window(p) if {
	some w in p.windows
	regex.match(w.re, input.tool)
}

contains_minute(w) if {
	some r in w.ranges
	r[0] <= input.minute
	input.minute <= r[1]
}

# charged_rates: every matching limit under mode "all"; otherwise the most
# specific ones (ties all apply).
charged_rates(p) := [r | some r in p.rates; regex.match(r.re, input.tool)] if {
	p.mode == "all"
} else := [r | some r in rs; r.rank == top] if {
	rs := [r | some r in p.rates; regex.match(r.re, input.tool)]
	top := max({r.rank | some r in rs})
} else := []

# bucket_charges are the buckets one call charges and what each holds after
# it: a token bucket starts full, refills continuously at per_day/86400 a
# second and never holds more than its burst.
bucket_charges(p) := [{"policy": p.name, "key": k, "tokens": tokens_now(r, b) - 1} |
	some r in charged_rates(p)
	k := bucket_key(p, r)
	b := object.get(input.state, [p.name, "buckets", k], null)
]

# Under scope "agent" each agent has its own bucket per pattern, and calls
# with no agent share one of their own.
bucket_key(p, r) := json.marshal([r.pattern, input.agent]) if {
	p.scope == "agent"
} else := r.pattern

tokens_now(r, b) := r.burst if {
	b == null
} else := min([r.burst, b.tokens + (((input.at - b.at) * r.per_day) / 86400)])

budget_exceeded(p) if {
	p.budget != null
	not p.budget.warn
	over_budget(p.budget, object.get(input.state, [p.name, "calls"], 0) + 1)
}

over_budget(b, n) if {
	b.max_calls != null
	n > b.max_calls
}

over_budget(b, n) if {
	b.ratio_limit != null
	n > b.ratio_limit
}

over_budget(b, _) if {
	b.max_wall != null
	input.at > b.max_wall
}

# escalating is the outermost chain policy whose escalate_tools matches the
# call, whose standing grants do not pre-approve it and whose escalation no
# approval covers yet.
escalating := names[0] if {
	names := [name |
		some name in escalations
		not covered(name)
	]
}

# escalations are the chain policies that escalate the call, outermost first.
escalations := [name |
	some name in input.chain
	escalates(policies[name])
]

# approved_by are the approvers whose approval of this call counts: an
# approval names an escalating policy and that policy's own approver (one
# from anyone else approves nothing).
approved_by := [a.approver |
	some a in object.get(input, "approvals", [])
	a.policy in escalations
	is_string(a.approver)
	a.approver == policies[a.policy].approver
]

# covered: the policy's approver has approved the call, or the policy has
# no approver and an outer one's approval admits the call (a policy with no
# approver refuses only when it is the outermost that escalates; a proven
# child's approver is its parent's or none, so one approval covers a proven
# chain).
covered(name) if {
	policies[name].approver in approved_by
}

covered(name) if {
	policies[name].approver == null
	count(approved_by) > 0
}

approved_reason := sprintf("approved by %s", [concat(", ", approved_by)]) if {
	count(approved_by) > 0
} else := ""

escalates(p) if {
	some e in p.escalate
	regex.match(e.re, input.tool)
	not granted(p)
}

granted(p) if {
	some re in p.grants
	regex.match(re, input.tool)
}

# An escalation goes to the escalating policy's approver; with none, the
# call is refused.
escalation := {
	"decision": "escalate",
	"layer": layer,
	"refused_by": null,
	"violation": null,
	"policy": escalating,
	"approver": p.approver,
	"reason": sprintf("the delegation policy %q escalates the call to %s", [escalating, p.approver]),
	"charges": charges,
} if {
	p := policies[escalating]
	p.approver != null
} else := refusal({"policy": escalating, "violation": "no_approver"}, layer)

# charges are what an allowed call charges, and what an escalated one will
# charge once approved: every charged bucket and the ledger of every policy
# with a call budget, in the chain and the tool's own.
charges := {
	"buckets": [c | some name in checked; some c in bucket_charges(policies[name])],
	"ledgers": [{"policy": name, "max_sessions": policies[name].budget.max_sessions} |
		some name in checked
		policies[name].budget != null
	],
}

checked := array.concat(input.chain, [n | n := input.tool_policy])
