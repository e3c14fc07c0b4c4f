package delegation

import (
	"fmt"
	"slices"
)

// A Lease grants an agent a capability over a target glob, for argument
// checks (step 4.5): a call's argument must fall within the target of a
// lease its agent holds for the argument's capability.
type Lease struct {
	ID string `json:"lease_id"`
	// Capability is a label: write_file, network_egress, delegate_to_agent,
	// invoke_tool or sign_contract.
	Capability string `json:"capability"`
	// Categories are among filesystem_read, credential_access and
	// network_egress.
	Categories []string `json:"categories"`
	// Target is an fnmatch glob over the argument's value.
	Target string `json:"target"`
}

// Regex is the anchored regular expression of the lease's target.
func (l Lease) Regex() string { return regex(l.Target) }

// LeaseWithin reports whether child is within parent: the same capability,
// a target parent's covers (Within), and no category parent lacks.
func LeaseWithin(child, parent Lease) bool {
	if child.Capability != parent.Capability || !Within(child.Target, parent.Target) {
		return false
	}
	for _, c := range child.Categories {
		if !slices.Contains(parent.Categories, c) {
			return false
		}
	}
	return true
}

// LeaseProblems lists the child leases not within any parent lease; one
// such lease refuses the whole grant. The problem names "leases" and the
// lease id, never the targets.
func LeaseProblems(child, parent []Lease) []Problem {
	var ps problems
	for _, c := range child {
		if !slices.ContainsFunc(parent, func(p Lease) bool { return LeaseWithin(c, p) }) {
			ps.add(nil, "leases", c.ID, "leases: %s is not within a lease the parent holds", fmt.Sprintf("%q", c.ID))
		}
	}
	return ps.list
}
