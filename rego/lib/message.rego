# Package message renders the message an agent is shown for a decision, in
# the form of docs/policy.md (R15): the tool, the command or value, the matched pattern
# as matched '<pattern>' (followed by ", approved for this session" when a
# session approval decided), and a custom reason as Reason: <reason>.
#
# response is the decision with its message: query it from an OPA server or
# with opa eval. regate's runtime builds the same text in Go
# (runtime/message.go), and a test holds the two to each other.
package regate.lib.message

import data.regate.lib.permission

d := permission.decision

response := object.union(d, {"message": message})

message := sprintf("[regate] tool '%s' is not registered in this session; it is blocked before any rule.", [input.tool]) if {
	d.layer == "registry"
} else := "[regate] regate reached no decision for this call; it is blocked." if {
	d.layer == "fault"
} else := sprintf("[regate] %s %s '%s' %s '%s'%s%s.%s", [subject, verbs[d.action], input.tool, object.get(nouns, d.surface, "with"), d.value, origin_note, matched_note, reason_note])

verbs := {"deny": "is not permitted to run", "ask": "needs approval to run", "allow": "may run"}

nouns := {"bash": "command", "path": "on path", "mcp": "on target", "skill": "skill"}

subject := sprintf("agent '%s'", [input.agent]) if {
	input.agent != ""
} else := "the agent"

origin_note := sprintf(" (%s)", [d.origin]) if {
	d.origin != ""
} else := ""

# A session approval is named as one: a person's approval let the call
# through, not the policy.
matched_note := sprintf(" (matched '%s', approved for this session)", [d.matched]) if {
	d.matched != ""
	d.layer == "session"
} else := sprintf(" (matched '%s')", [d.matched]) if {
	d.matched != ""
} else := " (no rule matched; the built-in fallback asks)"

reason_note := sprintf(" Reason: %s.", [trim_right(d.reason, ".")]) if {
	d.reason != ""
} else := ""
