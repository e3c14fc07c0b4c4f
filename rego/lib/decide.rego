# Package decide holds the parts of a permission decision that do not depend
# on the policy: the floors a check's shape puts on its outcome, the most
# restrictive pick, the session layer (approvals travel in the input) and the
# decision object with the agent's message. The compiler generates the rest
# for each policy (regate.gen.decision): the rule lookups, specialised to the
# policy's patterns so that OPA's rule index finds the candidates, and the
# decision rule that composes them with these helpers.
#
# An outcome is {"action", "sev", "rule", "layer", "i"}: the rule object that
# decided (or a sentinel standing for one), the action's severity (allow 0,
# ask 1, deny 2) and the index of the check it decided, so that the decision
# object is built once, at the end.
package regate.lib.decide

# top is the most restrictive of outcomes, the first in check order on a tie
# (R13); undefined when there is none.
top(os) := os[0] if {
	count(os) == 1
} else := os[i] if {
	s := max([o.sev | some o in os])
	i := min([j | some j, o in os; o.sev == s])
}

# session is the session layer's outcome for one spelling group: the most
# specific approval of the session that matches (R5). Approvals are compiled
# like rules and travel in input.session.approvals, since they change during
# a session.
session(i, c, ks, grp) := {"action": "allow", "sev": 0, "rule": r, "layer": "session", "i": i} if {
	r := counted(c, input.session.approvals[c.surface], ks, grp)
}

# best is the most specific rule of matcher m (compiler/matcher.go) that
# matches one of the spellings of a group, given the group's candidate keys
# ks (internal/matchkey): graph.reachable walks from the keys to the rank
# nodes filed under them, in one call whatever the number of keys, and the
# greatest node is the most specific rule. A key that files entries to
# confirm also reaches the node "~~" (compiler.ConfirmNode), greater than
# every rule's: then the entries are confirmed against the spellings.
# Undefined when no rule matches. (The generated lookup,
# regate.gen.decision.lookup, is the same walk, written for the kinds of
# entries the policy files.)
best(m, ks, grp) := r if {
	r := m.rules[max(graph.reachable(m.graph, ks))]
} else := m.rules[max(union({
	graph.reachable(m.graph, ks),
	{e[0] | some k in ks; some e in m.starts[k]; some f in grp; startswith(f, e[1])},
	{e[0] | some k in ks; some e in m.ends[k]; some f in grp; endswith(f, e[1])},
	{e[0] | some k in ks; some e in m.globs[k]; some f in grp; glob.match(e[1], null, f)},
}) - {"~~"})]

# counted is best, except that a bare name that exists is gated only by a
# rule that names it (R4).
counted(c, m, ks, grp) := r if {
	r := best(m, ks, grp)
	counts(c, r)
}

# counts: a bare name that exists is gated only by a rule that names it; the
# catch-all "*" alone does not count (R4).
counts(c, r) if not bare_catch_all(c, r)

bare_catch_all(c, r) if {
	c.bare
	r.catch_all
}

# most_specific is the rule of largest rank among rs (one layer's matches
# for the spellings of one group).
most_specific(rs) := rs[0] if {
	count(rs) == 1
} else := r if {
	m := max([x.rank | some x in rs])
	some r in rs
	r.rank == m
}

# outcome is a rule's outcome on check i in layer.
outcome(i, r, layer) := {"action": r.action, "sev": r.sev, "rule": r, "layer": layer, "i": i}

# error is the outcome of a path that could not be resolved: it asks.
error(i, c) := {"action": "ask", "sev": 1, "rule": sentinel("<unresolved-path>", "-", c.error), "layer": "facts", "i": i}

# strict_floor is the outcome of a check with a strict reason on a path no
# rule matched: it still asks (docs/strict.md).
strict_floor(i, c) := {"action": "ask", "sev": 1, "rule": sentinel("<strict-floor>", "-", c.strict), "layer": "floor", "i": i}

# sentinel is a rule a decision makes itself, standing for a floor.
sentinel(pattern, pos, reason) := {"pattern": pattern, "pos": pos, "reason": reason, "tail": tail(pattern, reason, "")}

wrapper_sentinels := {"opaque": "<opaque-bash-wrapper>", "indirection": "<indirection-bash-wrapper>"}

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
unit_floor(c, o) := {"action": "ask", "sev": 1, "rule": sentinel("<malformed-input>", "-", c.malformed), "layer": "floor", "i": o.i, "fault": true} if {
	c.malformed
	o.sev < 2
} else := {"action": "ask", "sev": 1, "rule": object.union(o.rule, sentinel(wrapper_sentinels[c.wrapper], o.rule.pos, object.get(o.rule, "reason", ""))), "layer": "floor", "i": o.i} if {
	o.sev == 0
	o.layer != "session"
	wrapper_sentinels[c.wrapper]
} else := {"action": "ask", "sev": 1, "rule": sentinel("<unparseable-bash-command>", o.rule.pos, object.get(c, "reason", "")), "layer": "floor", "i": o.i} if {
	c.unparseable
	o.sev < 2
	o.layer != "session"
} else := {"action": "ask", "sev": 1, "rule": sentinel("<strict-floor>", o.rule.pos, c.strict), "layer": "floor", "i": o.i} if {
	strict
	c.strict
	o.sev == 0
	o.layer != "session"
} else := o

# within_cap: the paths a recursive read of a folder reaches (facts'
# within, strict-only) ask where a rule denies one of them: the person named
# the folder, not the file, and decides (docs/strict.md). The ask keeps the
# rule that denied, with a reason naming the folder; yolo does not approve
# it (fault), since yolo never lifts a deny.
within_cap(c, o) := {"action": "ask", "sev": 1, "rule": object.union(o.rule, sentinel(o.rule.pattern, o.rule.pos, within_reason(c, o.rule))), "layer": o.layer, "i": o.i, "fault": true} if {
	c.within
	o.sev == 2
} else := o

within_reason(c, r) := sprintf("%s the folder %s reaches a path this rule denies: %s", [within_verb(c), c.within, r.reason]) if {
	object.get(r, "reason", "") != ""
} else := sprintf("%s the folder %s reaches a path this rule denies", [within_verb(c), c.within])

# within_verb: a folder whose entries the command deletes or changes (rm
# -r, chmod -R, find -delete: facts' changes) or one it reads.
within_verb(c) := "changing" if {
	c.changes
} else := "reading"

# entry is an outcome as the decision compares it: [severity, -index,
# layer, rule, flags], so that the largest entry is the most restrictive
# outcome and, on a tie, the first (R13); flags are "fault", "floor" and
# "yolo", plain when nothing floored the outcome.
entry(o) := [o.sev, 0 - o.i, o.layer, o.rule, object.union(plain, object.filter(o, ["fault", "floor"]))]

# tail is the end of the agent's message for a rule of pattern and reason
# decided in layer: the matched pattern (", approved for this session" when
# a session approval decided) and the reason (R15). The compiler writes the
# same into every rule it compiles (compiler.Tail), so that only the rules
# a decision makes itself (sentinel) render it here; a test holds the two
# equal.
tail(pattern, reason, layer) := concat("", [
	object.get({"": " (no rule matched; the built-in fallback asks)"}, pattern, sprintf(" (matched '%s'%s)", [pattern, object.get({"session": ", approved for this session"}, layer, "")])),
	".",
	object.get({"": ""}, reason, sprintf(" Reason: %s.", [trim_right(reason, ".")])),
])

plain := {"fault": false, "floor": "", "yolo": false}

# faulted: a rule file that failed to load makes every decision short of
# deny an ask that names the file, since the rules it held are unknown.
faulted(e, floors) := [1, e[1], "floor", floors[0], object.union(plain, {"fault": true})] if {
	e[0] < 2
} else := e

# shell_floor: a shell tool's decisionFloor raises an allow to ask and keeps
# the rule that decided (R15).
shell_floor(e) := [1, e[1], e[2], e[3], object.union(e[4], {"floor": "decisionFloor"})] if {
	e[0] == 0
	input.floor == "ask"
} else := e

# yolo auto-approves an ask, but never one raised by a rule file that failed
# to load or by a malformed call: that ask reports a fault, not a policy.
yolo(e) := [0, e[1], e[2], e[3], object.union(e[4], {"yolo": true})] if {
	e[0] == 1
	e[4].fault == false
} else := e

# unregistered is the decision on a tool the session did not register: it
# is blocked before any rule.
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
	"message": sprintf("[regate] tool '%s' is not registered in this session; it is blocked before any rule.", [input.tool]),
}

# assemble is the decision object of an entry, with the agent's message.
#
# The message the agent is shown (R15): the tool, the command or value, the
# matched pattern as matched '<pattern>' (followed by ", approved for this
# session" when a session approval decided), and a custom reason as
# Reason: <reason>. The end is the rule's tail, rendered when the rule
# was compiled; the origin is chosen by a lookup whose default is the
# note, and so is the subject ("the agent" or the agent's name), rather
# than by rules of their own, which costs fewer evaluation steps, as does
# writing the message here rather than in a function.
assemble(e) := {
	"action": ["allow", "ask", "deny"][s],
	"matched": r.pattern,
	"layer": e[2],
	"surface": surface,
	"value": value,
	"origin": origin,
	"at": object.get(c, "at", ""),
	"pos": r.pos,
	"reason": object.get(r, "reason", ""),
	"floor": e[4].floor,
	"yolo": e[4].yolo,
	"message": sprintf("[regate] %s %s '%s' %s '%s'%s%s", [
		object.get({"": "the agent"}, agent, sprintf("agent '%s'", [agent])),
		["may run", "needs approval to run", "is not permitted to run"][s],
		input.tool,
		object.get({"bash": "command", "path": "on path", "mcp": "on target", "skill": "skill"}, surface, "with"),
		value,
		object.get({"": ""}, origin, sprintf(" (%s)", [origin])),
		r.tail,
	]),
} if {
	s := e[0]
	c := input.checks[0 - e[1]]
	r := e[3]
	surface := c.surface
	value := c.value
	origin := object.get(c, "origin", "")
	agent := object.get(input, "agent", "")
}

# strict is the policy's "strict" (docs/strict.md), as the generated
# decision module states it.
default strict := false

strict := data.regate.gen.decision.strict

# keys are the candidate keys of group g of check c (internal/matchkey): as
# facts listed them in the document, or computed here the same way for a
# document that does not carry them, such as one written by hand for a test.
keys(c, g) := c.keys[g] if {
	c.keys
} else := {k | some f in c.forms[g]; some k in value_keys(c.surface, f)}

# value_keys are the keys of one value: the whole value, the empty prefix,
# the prefixes that end at a boundary of the surface's values and, for
# paths, the suffixes that start at the last "/", after it, or at a "." of
# the base name, and the infixes ".W." between two dots with no "/"
# between them and "/W/", each folder name; and the first character.
value_keys(s, f) := array.concat(
	array.concat(
		array.concat([concat("", ["=", f]), "<"], [concat("", ["^", substring(f, 0, 1)]) | f != ""]),
		prefix_keys(s, f),
	),
	suffix_keys(s, f),
)

prefix_keys("bash", f) := [concat("", ["<", substring(f, 0, p + 1)]) | some p in array.slice(indexof_n(f, " "), 0, 4)]

prefix_keys("mcp", f) := [concat("", ["<", substring(f, 0, p + 1)]) | some p in array.slice(indexof_n(f, ":"), 0, 2)]

prefix_keys("skill", _) := []

prefix_keys(s, f) := [concat("", ["<", substring(f, 0, p + 1)]) | some p in array.slice(indexof_n(f, "/"), 0, 12)] if {
	not s in {"bash", "mcp", "skill"}
}

suffix_keys(s, _) := [] if s in {"bash", "mcp", "skill"}

suffix_keys(s, f) := array.concat(
	array.concat(
		[concat("", [">", substring(f, b, -1)]) | b >= 0],
		[concat("", [">", substring(f, b + 1, -1)]) | b + 1 < count(f)],
	),
	array.concat(
		[concat("", [">", substring(f, d, -1)]) | some d in dots; d >= b + 2],
		array.concat(
			[concat("", ["|", w]) |
				some j, d in dots
				p := dots[j - 1]
				d > p + 1
				w := substring(f, p, (d - p) + 1)
				not contains(w, "/")
			],
			[concat("", ["|", substring(f, p, (d - p) + 1)]) |
				some j, d in slashes
				p := slashes[j - 1]
				d > p + 1
			],
		),
	),
) if {
	not s in {"bash", "mcp", "skill"}
	slashes := indexof_n(f, "/")
	b := last_or(slashes, -1)
	dots := indexof_n(f, ".")
}

last_or(xs, _) := xs[count(xs) - 1] if count(xs) > 0

last_or(xs, d) := d if count(xs) == 0
