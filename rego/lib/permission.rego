# Package permission decides one tool call from the facts regate extracted
# (input) and the compiled rule sets (data.regate.rules.*).
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

import data.regate.lib.checks
import data.regate.lib.match
import data.regate.rules.agents
import data.regate.rules.hardguards
import data.regate.rules.policy

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
} else := assemble(yolo(floored(resolved.outcomes[resolved.top])))

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

# hard is the first hard-guard match, in check order. Without hard guards
# there is nothing to look up.
hard := hard_outcomes[0] if {
	hard_guards_exist
}

hard_guards_exist if count(hardguards.surfaces) > 0

hard_guards_exist if hardguards.fallback

hard_outcomes := array.concat(
	[o |
		some i, c in input.checks
		some f in c.forms
		rule := match.best(hardguards.surfaces[c.surface], f)
		o := {"action": "deny", "rule": rule, "layer": "hard-guard", "i": i}
	],
	[o | o := {"action": "deny", "rule": hardguards.fallback, "layer": "hard-guard", "i": 0}],
)

resolved := checks.resolve(input.checks, {
	"session": object.get(input, ["session", "approvals"], {}),
	"agent": object.get(active_agent, "surfaces", {}),
	"policy": policy.surfaces,
	"agent_fallback": object.get(active_agent, "fallback", null),
	"policy_fallback": policy_fallback,
})

default policy_fallback := null

policy_fallback := policy.fallback

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
