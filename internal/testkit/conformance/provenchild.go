package conformance

import (
	"github.com/regate/regate/compiler/delegation"
)

// ProvenChild is the child a host would hand the Go API or regate serve for
// a case's child policy. Both delegate only a child the subset prover
// accepts, and most ceiling cases write children that leave their parent's
// limits out ({} under a rate-limited planner), because the Rego ceiling
// over named policies holds any chain. A child the prover accepts is kept
// as written. Any other becomes what Narrow makes of it (the child's lists,
// rates and budget requested from the parent, each part dropped when it
// would widen; every other field the parent's), with each remaining field
// of the child grafted back when the result stays proven within the parent.
//
// The chain decides the same either way: the parent is checked first, so
// where the completion gives the child a parent's value (a limit, a
// window, a rule), the parent refuses or escalates every call that value
// would, and the child's copy of a bucket or ledger is charged for no more
// calls than the parent's. The conformance cases hold this: they pass
// through the Go API and serve with the completed children.
func ProvenChild(child, parent *delegation.Policy) *delegation.Policy {
	if len(delegation.SubsetProblems(child, parent)) == 0 {
		return child
	}
	parts := []func(*delegation.Request){
		func(r *delegation.Request) {
			if !child.AdmitsEveryTool() {
				r.AllowedTools = append([]string{}, child.AllowedTools...)
			}
		},
		func(r *delegation.Request) { r.DeniedTools = child.DeniedTools },
		func(r *delegation.Request) {
			if len(child.RateLimits) > 0 {
				r.RateLimits = child.RateLimits
			}
		},
		func(r *delegation.Request) { r.CallBudget = child.CallBudget },
	}
	var req delegation.Request
	for _, part := range parts {
		try := req
		part(&try)
		if _, err := parent.Narrow(try); err == nil {
			req = try
		}
	}
	n, err := parent.Narrow(req)
	if err != nil {
		return parent.Clone()
	}
	for _, graft := range childFields {
		try := n.Clone()
		graft(try, child)
		if len(delegation.SubsetProblems(try, parent)) == 0 {
			n = try
		}
	}
	return n
}

// childFields graft one field of a child onto a policy, or the fields that
// decide together: the escalation rules, their approver and their standing
// grants are one (a child's "no approver" grafted alone onto the parent's
// rules would refuse what the parent's grants pre-approve).
var childFields = []func(dst, src *delegation.Policy){
	func(d, s *delegation.Policy) { d.TimeRestrictions = s.TimeRestrictions },
	func(d, s *delegation.Policy) { d.RequireAgentID = s.RequireAgentID },
	func(d, s *delegation.Policy) { d.AllowedRoles = s.AllowedRoles },
	func(d, s *delegation.Policy) { d.Reauth, d.ReauthThreshold = s.Reauth, s.ReauthThreshold },
	func(d, s *delegation.Policy) {
		d.EscalateTools, d.Approver, d.StandingGrants = s.EscalateTools, s.Approver, s.StandingGrants
		d.EscalationChannel, d.EscalationLedger = s.EscalationChannel, s.EscalationLedger
	},
	func(d, s *delegation.Policy) { d.RateLimitMode = s.RateLimitMode },
	func(d, s *delegation.Policy) { d.RateLimitScope = s.RateLimitScope },
}
