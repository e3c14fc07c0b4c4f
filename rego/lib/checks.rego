# Package checks resolves every check of a call to its outcome: the first
# layer (session approval, agent, policy) with a matching rule for each
# spelling group, the most restrictive group (R2), the fallback when nothing
# matched (none for the path surface, R4), and the floors a unit's shape
# demands (wrappers, R9; unparseable commands, R8).
#
# An outcome is {"action", "rule", "layer", "i"}: the rule object that
# decided (or a sentinel standing for one) and the index of the check; a
# path check no rule matched is null. The embedded runtime's regate_decide
# follows this file in Go (runtime/fastresolve.go); a test holds the two to
# the same decisions on every conformance case and a workload.
package regate.lib.checks

import data.regate.lib.match

severity := {"allow": 0, "ask": 1, "deny": 2}

builtin_fallback := {"pattern": "", "action": "ask", "pos": "-"}

wrapper_sentinels := {"opaque": "<opaque-bash-wrapper>", "indirection": "<indirection-bash-wrapper>"}

# resolve returns {"outcomes": one outcome (or null) per check, in order,
# "top": the index of the most restrictive outcome, the first on a tie}.
# ctx holds the layers' matchers by surface ("session", "agent", "policy"),
# the fallbacks ("agent_fallback", "policy_fallback", null when absent) and
# "strict": a check marked strict_only has no outcome without it, one
# marked spec_only none with it; a deny of a check marked within (the paths
# a recursive read reaches) is capped at ask.
# top is undefined when no check has an outcome.
resolve(checks, ctx) := {"outcomes": os, "top": top} if {
	os := [o |
		some i, c in checks
		o := outcome(i, c, ctx)
	]
	top := pick_index(os)
} else := {"outcomes": []}

# pick_index is the index of the most restrictive non-null outcome.
pick_index(os) := i if {
	top := max({severity[o.action] | some o in os; o != null})
	i := min({j | some j, o in os; o != null; severity[o.action] == top})
}

outcome(i, c, ctx) := null if {
	c.strict_only
	not ctx.strict
} else := null if {
	# A word the program's argument model reads as a pattern or a string:
	# strict mode decides the roles instead (docs/strict.md).
	c.spec_only
	ctx.strict
} else := within_cap(c, unit_floor(c, layered(i, c, ctx), ctx)) if {
	layered(i, c, ctx)
} else := {"action": "ask", "rule": {"pattern": "<strict-floor>", "pos": "-", "reason": c.strict}, "layer": "floor", "i": i} if {
	# A strict reason on a path no rule matched still asks.
	ctx.strict
	c.strict
} else := null

# layered: each spelling group goes through the layers on its own, and the
# most restrictive group wins (R2), so a symlink cannot carry a value past a
# layer that would catch its target.
layered(i, c, ctx) := pick(os) if {
	os := array.concat(
		[o | some f in c.forms; o := form_outcome(i, c, f, ctx)],
		[o | c.error; o := {"action": "ask", "rule": {"pattern": "<unresolved-path>", "pos": "-", "reason": c.error}, "layer": "facts", "i": i}],
	)
	count(os) > 0
} else := fallback_outcome(i, ctx) if {
	# A path nothing matched is decided by the path surface alone; a bare
	# value (a command's base name beside its path spelling) only by a rule
	# that names it; a file a bash command reads (role "read") by the read
	# rules alone.
	c.surface != "path"
	not c.bare
	not c.role
}

form_outcome(i, c, f, ctx) := {"action": r.action, "rule": r, "layer": "session", "i": i} if {
	r := best(c, ctx.session[c.surface], f)
} else := {"action": r.action, "rule": r, "layer": "agent", "i": i} if {
	r := best(c, ctx.agent[c.surface], f)
} else := {"action": r.action, "rule": r, "layer": "policy", "i": i} if {
	r := best(c, ctx.policy[c.surface], f)
}

# best is the most specific rule for one group. A bare name that exists is
# gated only by a rule that names it: the catch-all "*" alone does not count.
best(c, m, f) := r if {
	r := match.best(m, f)
	not bare_catch_all(c, r)
}

bare_catch_all(c, r) if {
	c.bare
	r.catch_all
}

# The universal fallback: the agent's "*", else the policy's "*", else the
# built-in ask.
fallback_outcome(i, ctx) := {"action": ctx.agent_fallback.action, "rule": ctx.agent_fallback, "layer": "agent", "i": i} if {
	ctx.agent_fallback != null
} else := {"action": ctx.policy_fallback.action, "rule": ctx.policy_fallback, "layer": "policy", "i": i} if {
	ctx.policy_fallback != null
} else := {"action": "ask", "rule": builtin_fallback, "layer": "fallback", "i": i}

# unit_floor: a path-bearing argument regate could not read as a path
# (facts' malformed) asks unless a rule denies the call: it reports a fault
# in the call, not a policy, so neither a session approval nor yolo lifts it
# (docs/decisions.md); a wrapper's allow becomes ask with its sentinel (R9); a
# command that could not be split into units asks unless a rule denies its
# whole text (R8); in strict mode, a check with a strict reason (inline
# code, an argument that runs code, …) asks too (docs/strict.md). The floors
# stand in for a person's look at the command, so an approval that person
# gave for the session lifts them, as it lifts an ordinary deny (R5); what a
# wrapper runs is still decided on its own.
unit_floor(c, o, ctx) := {"action": "ask", "rule": {"pattern": "<malformed-input>", "pos": "-", "reason": c.malformed}, "layer": "floor", "i": o.i, "fault": true} if {
	c.malformed
	o.action != "deny"
} else := {"action": "ask", "rule": object.union(o.rule, {"pattern": wrapper_sentinels[c.wrapper]}), "layer": "floor", "i": o.i} if {
	o.action == "allow"
	o.layer != "session"
	wrapper_sentinels[c.wrapper]
} else := {"action": "ask", "rule": {"pattern": "<unparseable-bash-command>", "pos": o.rule.pos, "reason": object.get(c, "reason", "")}, "layer": "floor", "i": o.i} if {
	c.unparseable
	o.action != "deny"
	o.layer != "session"
} else := {"action": "ask", "rule": {"pattern": "<strict-floor>", "pos": o.rule.pos, "reason": c.strict}, "layer": "floor", "i": o.i} if {
	ctx.strict
	c.strict
	o.action == "allow"
	o.layer != "session"
} else := o

# within_cap: the paths a recursive read of a folder reaches (facts'
# within, strict-only) ask where a rule denies one of them: the person named
# the folder, not the file, and decides (docs/strict.md). The ask keeps the
# rule that denied, with a reason naming the folder; yolo does not approve
# it (fault), since yolo never lifts a deny.
within_cap(c, o) := {"action": "ask", "rule": object.union(o.rule, {"reason": within_reason(c, o.rule)}), "layer": o.layer, "i": o.i, "fault": true} if {
	c.within
	o.action == "deny"
} else := o

within_reason(c, r) := sprintf("reading the folder %s reaches a path this rule denies: %s", [c.within, r.reason]) if {
	object.get(r, "reason", "") != ""
} else := sprintf("reading the folder %s reaches a path this rule denies", [c.within])

# pick is the most restrictive outcome, the first in order on a tie.
pick(os) := os[0] if {
	count(os) == 1
} else := os[i] if {
	top := max({severity[o.action] | some o in os})
	i := min({j | some j, o in os; severity[o.action] == top})
}
