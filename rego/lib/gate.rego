# Package gate decides one tool call from its facts and the compiled rule
# sets, as a function of both: decide(inp, rules), where rules is
# data.regate.rules (the policy, the hard guards and the agents, each
# optional), and the active agent is inp.agent.
#
# The flow is the order of docs/policy.md, "How a call is decided": an
# unregistered tool is blocked; a matching hard guard denies; otherwise each
# check (a path token, the tool's own value, a bash unit) is resolved
# through the layers session approval, agent, policy and fallback, and the
# most restrictive result wins, the first in order on a tie (R13). Floors raise an allow to ask, and yolo mode
# approves what is left asking. In strict mode (the policy's "strict"),
# strict-only checks count and strict reasons floor (docs/strict.md).
#
# Internally an outcome is {"action", "rule", "layer", "i"}: the rule object
# that decided (or a sentinel standing for one) and the index of the check it
# decided, so that the decision object is built once, at the end. decide is
# undefined when no check has an outcome.
#
# The embedded runtime answers decide with a Go builtin that follows this
# file (rego/fast/gate.rego); a test holds the two to the same decisions on
# every conformance case and a workload.
package regate.lib.gate

import data.regate.lib.checks
import data.regate.lib.match

decide(inp, rules) := decide_sets(inp, {
	"policy": object.get(rules, "policy", {}),
	"hardguards": object.get(rules, "hardguards", {}),
	"agent": object.get(rules, ["agents", "agents", object.get(inp, "agent", "")], {}),
})

# decide_sets decides with the active agent's rules picked: sets holds
# "policy", "hardguards" and "agent" ({} when absent).
decide_sets(inp, rules) := unregistered(inp) if {
	inp.unregistered
} else := assemble(inp, h) if {
	h := hard_guard(inp, rules.hardguards, strict(rules))
} else := assemble(inp, yolo(rules.policy, floored(inp, rules, r.outcomes[r.top]))) if {
	r := checks.resolve(inp.checks, layers(inp, rules))
}

unregistered(inp) := {
	"action": "deny",
	"matched": "<unregistered-tool>",
	"layer": "registry",
	"surface": inp.tool,
	"value": inp.tool,
	"origin": "",
	"at": "",
	"pos": "-",
	"reason": "",
	"floor": "",
	"yolo": false,
}

assemble(inp, o) := {
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
	c := inp.checks[o.i]
}

# hard_guard is the first hard-guard match, in check order; the hard
# guards' "*" (deny) answers for the first check when nothing else matched.
# Without hard guards there is nothing to look up.
hard_guard(inp, hg, strict) := os[0] if {
	hard_guards_exist(hg)
	os := array.concat(
		[o |
			some i, c in inp.checks
			decided(c, strict)
			some f in c.forms
			rule := match.best(hg.surfaces[c.surface], f)
			o := {"action": "deny", "rule": rule, "layer": "hard-guard", "i": i}
		],
		[o | o := {"action": "deny", "rule": hg.fallback, "layer": "hard-guard", "i": 0}],
	)
}

# decided: a strict-only check counts only in strict mode.
decided(c, _) if not c.strict_only

decided(c, true) if c.strict_only

# strict is the policy's "strict" (docs/strict.md).
strict(rules) := object.get(rules.policy, "strict", false) == true

hard_guards_exist(hg) if count(hg.surfaces) > 0

hard_guards_exist(hg) if hg.fallback

layers(inp, rules) := {
	"session": object.get(inp, ["session", "approvals"], {}),
	"agent": object.get(rules.agent, "surfaces", {}),
	"policy": object.get(rules.policy, "surfaces", {}),
	"agent_fallback": object.get(rules.agent, "fallback", null),
	"policy_fallback": object.get(rules.policy, "fallback", null),
	"strict": strict(rules),
}

# Floors raise an allow to ask. A rule file that failed to load makes every
# decision short of deny an ask that names the file, since the rules it held
# are unknown; a shell tool's decisionFloor keeps the rule that decided (R15).
floored(inp, rules, o) := {"action": "ask", "rule": f, "layer": "floor", "i": o.i, "fault": true} if {
	o.action != "deny"
	f := fault_floors(rules)[0]
} else := object.union(o, {"action": "ask", "floor": "decisionFloor"}) if {
	o.action == "allow"
	inp.floor == "ask"
} else := o

fault_floors(rules) := array.concat(
	array.concat(object.get(rules.policy, "floors", []), object.get(rules.hardguards, "floors", [])),
	object.get(rules.agent, "floors", []),
)

# yolo auto-approves an ask, but never one raised by a rule file that failed
# to load or by a malformed call (checks.unit_floor): that ask reports a
# fault, not a policy.
yolo(policy, o) := object.union(o, {"action": "allow", "yolo": true}) if {
	policy.yolo
	o.action == "ask"
	not o.fault
} else := o
