# Package permission decides one tool call from the facts regate extracted
# (input) and the compiled rule sets (data.regate.gen.*).
#
# The flow follows the spec's order: an unregistered tool is blocked; a
# matching hard guard denies; otherwise each check (a path token, the tool's
# own value, a bash unit) is resolved through the layers session approval,
# agent, policy and fallback, and the most restrictive result wins, the
# first in order on a tie (R13). Floors raise an allow to ask, and yolo mode
# approves what is left asking.
#
# Internally an outcome is {"action", "rule", "layer", "i"}: the rule object
# that decided (or a sentinel standing for one) and the index of the check it
# decided, so that the decision object is built once, at the end.
package regate.lib.permission

import data.regate.gen.agents
import data.regate.gen.hardguards
import data.regate.gen.policy
import data.regate.lib.match

severity := {"allow": 0, "ask": 1, "deny": 2}

builtin_fallback := {"pattern": "", "action": "ask", "pos": "-"}

# The active agent's compiled frontmatter, empty when no agent is active or
# the agent has no file.
default active_agent := {}

active_agent := agents.agents[input.agent]

# decision is the whole outcome of the call, as data.
default decision := {
	"action": "deny",
	"matched": "<no-decision>",
	"layer": "fault",
	"surface": "",
	"value": "",
	"origin": "",
	"at": "",
	"pos": "-",
	"reason": "regate reached no decision for this call; it is blocked",
	"floor": "",
	"yolo": false,
}

decision := unregistered if {
	input.unregistered
} else := assemble(hard) if {
	hard
} else := assemble(yolo(floored(pick(outcomes))))

unregistered := {
	"action": "deny",
	"matched": "<unregistered-tool>",
	"layer": "registry",
	"surface": input.tool,
	"value": input.tool,
	"origin": "",
	"at": "",
	"pos": "-",
	"reason": "",
	"floor": "",
	"yolo": false,
}

assemble(o) := {
	"action": o.action,
	"matched": o.rule.pattern,
	"layer": o.layer,
	"surface": c.surface,
	"value": c.value,
	"origin": object.get(c, "origin", ""),
	"at": object.get(c, "at", ""),
	"pos": o.rule.pos,
	"reason": object.get(o.rule, "reason", ""),
	"floor": object.get(o, "floor", ""),
	"yolo": object.get(o, "yolo", false),
} if {
	c := input.checks[o.i]
}

# hard is the first hard-guard match, in check order.
hard := hard_outcomes[0]

hard_outcomes := array.concat(
	[o |
		some i, c in input.checks
		some f in c.forms
		rule := match.best(hardguards.surfaces[c.surface], f)
		o := {"action": "deny", "rule": rule, "layer": "hard-guard", "i": i}
	],
	[o | o := {"action": "deny", "rule": hardguards.fallback, "layer": "hard-guard", "i": 0}],
)

outcomes := [o |
	some i, c in input.checks
	o := unit_floor(c, layered(i, c))
]

# layered resolves one check: each form of its value goes through the layers
# on its own, and the most restrictive form wins (R2), so a symlink cannot
# carry a value past a layer that would catch its target.
layered(i, c) := pick(os) if {
	os := array.concat(
		[o | some f in c.forms; o := form_outcome(i, c, f)],
		[o | c.error; o := {"action": "ask", "rule": {"pattern": "<unresolved-path>", "pos": "-", "reason": c.error}, "layer": "facts", "i": i}],
	)
	count(os) > 0
} else := fallback_outcome(i) if c.surface != "path"

form_outcome(i, c, f) := {"action": r.action, "rule": r, "layer": "session", "i": i} if {
	r := best(c, input.session.approvals[c.surface], f)
} else := {"action": r.action, "rule": r, "layer": "agent", "i": i} if {
	r := best(c, active_agent.surfaces[c.surface], f)
} else := {"action": r.action, "rule": r, "layer": "policy", "i": i} if {
	r := best(c, policy.surfaces[c.surface], f)
}

# best is the most specific rule for one form of a check. A bare name that
# exists is gated only by a rule that names it: the catch-all "*" alone does
# not count for it.
best(c, m, f) := r if {
	r := match.best(m, f)
	not bare_catch_all(c, r)
}

bare_catch_all(c, r) if {
	c.bare
	r.catch_all
}

# The universal fallback: the agent's "*", else the policy's "*", else the
# built-in ask. The path surface has none (R4).
fallback_outcome(i) := {"action": f.action, "rule": f, "layer": "agent", "i": i} if {
	f := object.get(active_agent, "fallback", null)
	f != null
} else := {"action": policy.fallback.action, "rule": policy.fallback, "layer": "policy", "i": i} if {
	policy.fallback
} else := {"action": "ask", "rule": builtin_fallback, "layer": "fallback", "i": i}

# unit_floor applies what a unit's shape demands (the spec's fail-closed
# rules): a wrapper's allow becomes ask with its sentinel (R9), and a
# command that could not be split into units asks unless a rule denies its
# whole text (R8). The floors stand in for a person's look at the command,
# so an approval that person gave for the session lifts them, as it lifts
# an ordinary deny (R5); what a wrapper runs is still decided on its own.
unit_floor(c, o) := {"action": "ask", "rule": object.union(o.rule, {"pattern": wrapper_sentinels[c.wrapper]}), "layer": "floor", "i": o.i} if {
	o.action == "allow"
	o.layer != "session"
	wrapper_sentinels[c.wrapper]
} else := {"action": "ask", "rule": {"pattern": "<unparseable-bash-command>", "pos": o.rule.pos, "reason": object.get(c, "reason", "")}, "layer": "floor", "i": o.i} if {
	c.unparseable
	o.action != "deny"
	o.layer != "session"
} else := o

wrapper_sentinels := {"opaque": "<opaque-bash-wrapper>", "indirection": "<indirection-bash-wrapper>"}

# pick is the most restrictive outcome, the first in order on a tie.
pick(os) := os[0] if {
	count(os) == 1
} else := os[i] if {
	top := max({severity[o.action] | some o in os})
	i := min({j | some j, o in os; severity[o.action] == top})
}

# Floors raise an allow to ask. A rule file that failed to load makes every
# decision short of deny an ask that names the file, since the rules it held
# are unknown; a shell tool's decisionFloor keeps the rule that decided (R15).
fault_floors := array.concat(array.concat(policy_floors, hardguard_floors), object.get(active_agent, "floors", []))

default policy_floors := []

policy_floors := policy.floors

default hardguard_floors := []

hardguard_floors := hardguards.floors

floored(o) := {"action": "ask", "rule": f, "layer": "floor", "i": o.i, "fault": true} if {
	o.action != "deny"
	f := fault_floors[0]
} else := object.union(o, {"action": "ask", "floor": "decisionFloor"}) if {
	o.action == "allow"
	input.floor == "ask"
} else := o

# yolo auto-approves an ask, but never one raised by a rule file that failed
# to load: that ask reports a fault, not a policy.
yolo(o) := object.union(o, {"action": "allow", "yolo": true}) if {
	policy.yolo
	o.action == "ask"
	not o.fault
} else := o
