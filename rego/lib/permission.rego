# Package permission decides one tool call from the facts regate extracted
# (input) and the compiled rule sets (data.regate.gen.*).
#
# The flow follows the spec's order: an unregistered tool is blocked; a
# matching hard guard denies; otherwise each check (a path token, the tool's
# own value, a bash unit) is resolved through the layers session approval,
# agent, policy and fallback, and the most restrictive result wins, the
# first in order on a tie (R13). Floors raise an allow to ask, and yolo mode
# approves what is left asking.
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

# decision is the whole outcome of the call.
default decision := {
	"action": "deny",
	"matched": "<no-decision>",
	"layer": "fault",
	"surface": "",
	"value": "",
	"origin": "",
	"pos": "-",
	"reason": "regate reached no decision for this call; it is blocked",
	"message": "[regate] regate reached no decision for this call; it is blocked.",
}

decision := unregistered if {
	input.unregistered
} else := with_message(hard) if {
	hard
} else := with_message(yolo(floored(pick(check_results))))

unregistered := {
	"action": "deny",
	"matched": "<unregistered-tool>",
	"layer": "registry",
	"surface": input.tool,
	"value": input.tool,
	"origin": "",
	"pos": "-",
	"reason": "",
	"message": sprintf("[regate] tool '%s' is not registered in this session; it is blocked before any rule.", [input.tool]),
}

# hard is the first hard-guard match, in check order.
hard := hard_results[0]

hard_results := array.concat(
	[r |
		some c in input.checks
		some f in c.forms
		rule := match.best(hardguards.surfaces[c.surface], f)
		r := result(c, rule, "hard-guard")
	],
	[r | r := result(input.checks[0], hardguards.fallback, "hard-guard")],
)

check_results := [r |
	some c in input.checks
	r := check_result(c)
]

# check_result resolves one check: each form of its value goes through the
# layers on its own, and the most restrictive form wins (R2), so a symlink
# cannot carry a value past a layer that would catch its target.
check_result(c) := unit_floor(c, layered_result(c))

layered_result(c) := pick(rs) if {
	rs := array.concat(
		[r | some f in c.forms; r := form_result(c, f)],
		[r | c.error; r := error_result(c)],
	)
	count(rs) > 0
} else := fallback_result(c) if c.surface != "path"

form_result(c, f) := result(c, r, "session") if {
	r := best(c, input.session.approvals[c.surface], f)
} else := result(c, r, "agent") if {
	r := best(c, active_agent.surfaces[c.surface], f)
} else := result(c, r, "policy") if {
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

# unit_floor applies what a unit's shape demands (the spec's fail-closed
# rules): a wrapper's allow becomes ask with its sentinel (R9), and a
# command that could not be split into units asks unless a rule denies its
# whole text (R8).
unit_floor(c, r) := object.union(r, {"action": "ask", "matched": wrapper_sentinels[c.wrapper], "layer": "floor"}) if {
	r.action == "allow"
	wrapper_sentinels[c.wrapper]
} else := object.union(r, {"action": "ask", "matched": "<unparseable-bash-command>", "layer": "floor", "reason": object.get(c, "reason", "")}) if {
	c.unparseable
	r.action != "deny"
} else := r

wrapper_sentinels := {"opaque": "<opaque-bash-wrapper>", "indirection": "<indirection-bash-wrapper>"}

# The universal fallback: the agent's "*", else the policy's "*", else the
# built-in ask. The path surface has none (R4).
fallback_result(c) := result(c, f, "agent") if {
	f := object.get(active_agent, "fallback", null)
	f != null
} else := result(c, policy.fallback, "policy") if {
	policy.fallback
} else := result(c, builtin_fallback, "fallback")

error_result(c) := result(c, {"pattern": "<unresolved-path>", "action": "ask", "pos": "-", "reason": c.error}, "facts")

result(c, rule, layer) := {
	"action": rule.action,
	"matched": rule.pattern,
	"layer": layer,
	"surface": c.surface,
	"value": c.value,
	"origin": object.get(c, "origin", ""),
	"at": object.get(c, "at", ""),
	"pos": rule.pos,
	"reason": object.get(rule, "reason", ""),
}

# pick is the most restrictive result, the first in order on a tie.
pick(rs) := rs[i] if {
	top := max({severity[r.action] | some r in rs})
	i := min({j | some j, r in rs; severity[r.action] == top})
}

# Floors raise an allow to ask. A rule file that failed to load makes every
# decision short of deny an ask that names the file, since the rules it held
# are unknown; a shell tool's decisionFloor keeps the rule that decided (R15).
fault_floors := array.concat(array.concat(policy_floors, hardguard_floors), object.get(active_agent, "floors", []))

default policy_floors := []

policy_floors := policy.floors

default hardguard_floors := []

hardguard_floors := hardguards.floors

floored(d) := object.union(d, {
	"action": "ask",
	"matched": f.pattern,
	"layer": "floor",
	"pos": f.pos,
	"reason": f.reason,
	"fault": true,
}) if {
	d.action != "deny"
	f := fault_floors[0]
} else := object.union(d, {"action": "ask", "floor": "decisionFloor"}) if {
	d.action == "allow"
	input.floor == "ask"
} else := d

# yolo auto-approves an ask, but never one raised by a rule file that failed
# to load: that ask reports a fault, not a policy.
yolo(d) := object.union(d, {"action": "allow", "yolo": true}) if {
	policy.yolo
	d.action == "ask"
	not d.fault
} else := d

with_message(d) := object.union(d, {"message": message(d)})

message(d) := sprintf("[regate] %s is not permitted to run '%s' %s '%s'%s%s.%s", args(d)) if {
	d.action == "deny"
} else := sprintf("[regate] %s needs approval to run '%s' %s '%s'%s%s.%s", args(d)) if {
	d.action == "ask"
} else := sprintf("[regate] %s may run '%s' %s '%s'%s%s.%s", args(d))

args(d) := [subject, input.tool, object.get(nouns, d.surface, "with"), d.value, origin_note(d), matched_note(d), reason_note(d)]

subject := sprintf("agent '%s'", [input.agent]) if {
	input.agent != ""
} else := "the agent"

nouns := {"bash": "command", "path": "on path", "mcp": "on target", "skill": "skill"}

origin_note(d) := sprintf(" (%s)", [d.origin]) if {
	d.origin != ""
} else := ""

matched_note(d) := sprintf(" (matched '%s')", [d.matched]) if {
	d.matched != ""
} else := " (no rule matched; the built-in fallback asks)"

reason_note(d) := sprintf(" Reason: %s.", [trim_right(d.reason, ".")]) if {
	d.reason != ""
} else := ""
