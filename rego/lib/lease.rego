# Package lease decides an argument lease check (step 4.5): the value of a
# call's argument must fall within the target of a lease the call's agent
# holds for the argument's capability.
#
# input:
#   agent       the call's agent (null: none, and no agent holds no lease)
#   capability  the argument's capability label, such as "write_file"
#   value       the argument's value (the default when the call left it out)
#   leases      the leases the agent holds now: [{"capability", "re"}],
#               re the target glob as an anchored regular expression
#
# The value is matched as written (fnmatchcase: "*" crosses "/"); a value
# that is not a string, holds a NUL or has a ".." segment (percent-encoded
# included) is refused whatever the target. A refusal never names the
# target or the lease.
package regate.lib.lease

default decision := {
	"decision": "deny",
	"refusal": "capability_denied",
	"violation_type": "lease_scope",
	"message": "the argument is outside every lease the agent holds for this capability",
}

decision := {"decision": "allow"} if {
	is_string(input.value)
	not unsafe(input.value)
	input.agent != null
	some l in input.leases
	l.capability == input.capability
	regex.match(l.re, input.value)
}

unsafe(v) if contains(v, "\u0000")

unsafe(v) if {
	some seg in split(v, "/")
	lower(seg) in {"..", "%2e%2e", "%2e.", ".%2e"}
}
