package delegate

import (
	"context"
	"fmt"
	"slices"

	"github.com/regate/regate/compiler/delegation"
)

// Escalations are charged when they are approved, in two phases:
//
//  1. Decide returns escalate and charges nothing (a call that may never
//     run spends no parent's token). The decision names the escalating
//     policy and its approver, and carries an Escalation id; the ChildRun
//     keeps the call pending.
//  2. Approve records the approver's yes and decides the call again, at the
//     time given (when the call will run) and on the state as it is then,
//     with the approval as input. It comes back an allow, charged exactly
//     as an allowed call is, only when no policy of the chain refuses it
//     now: a stale approval (a bucket spent meanwhile, a budget used up, a
//     window closed) is refused and charges nothing. It is never committed
//     blindly from what was computed when the call escalated.
//
// An approval approves one policy's escalation to that policy's approver.
// When a further policy of the chain escalates the same call, Approve
// returns that escalation, pending under a new id, carrying the approvals
// so far. A pending escalation is approved at most once; a ChildRun keeps
// at most maxPending of them, dropping the oldest, whose approval is then
// refused (it fails closed: the host asks again).

// maxPending bounds the escalations a child run keeps waiting.
const maxPending = 64

// EscalationApproval is an approver's yes to a pending escalation.
type EscalationApproval struct {
	// Escalation is the id the escalate decision carried.
	Escalation string
	// Approver is who approved: it must be the approver the escalation
	// went to, or it approves nothing and the call escalates again.
	Approver string
	// Minute and At are when the approved call runs (as CeilingCall's):
	// rates, windows and the call budget are read then.
	Minute int
	At     float64
}

// Approve records an approval of an escalation this child run returned and
// decides the call again with it (see above): allow and charged, deny and
// charged nothing, or escalate to the chain's next approver. An id that is
// not pending (approved already, dropped, or never returned here) is
// refused with violation not_pending and no layer.
func (c *ChildRun) Approve(ctx context.Context, a EscalationApproval) (CeilingDecision, error) {
	c.mu.Lock()
	p, ok := c.pending.take(a.Escalation)
	c.mu.Unlock()
	if !ok {
		return CeilingDecision{
			Decision: "deny", Violation: "not_pending",
			Reason: fmt.Sprintf("no pending escalation %q: approved already, dropped, or not this run's", a.Escalation),
		}, nil
	}
	call := p.call
	call.Minute, call.At = a.Minute, a.At
	call.Approvals = append(slices.Clone(call.Approvals), Approval{Policy: p.policy, Approver: a.Approver})
	return c.decide(ctx, call, p.tool)
}

// pendingEscalation is a call waiting for its approver.
type pendingEscalation struct {
	id     string
	call   CeilingCall // with the approvals given so far
	tool   *delegation.Policy
	policy string // the escalating policy
}

// pendingEscalations are a child run's escalations waiting, oldest first.
// Callers hold the ChildRun's lock.
type pendingEscalations struct {
	list []pendingEscalation
	n    uint64
}

func (ps *pendingEscalations) add(owner string, call CeilingCall, tool *delegation.Policy, d CeilingDecision) string {
	ps.n++
	id := fmt.Sprintf("%s/e%d", owner, ps.n)
	call.Approvals = slices.Clone(call.Approvals)
	ps.list = append(ps.list, pendingEscalation{id: id, call: call, tool: tool, policy: d.Policy})
	if len(ps.list) > maxPending {
		ps.list = slices.Delete(ps.list, 0, len(ps.list)-maxPending)
	}
	return id
}

func (ps *pendingEscalations) take(id string) (pendingEscalation, bool) {
	i := slices.IndexFunc(ps.list, func(p pendingEscalation) bool { return p.id == id })
	if i < 0 {
		return pendingEscalation{}, false
	}
	p := ps.list[i]
	ps.list = slices.Delete(ps.list, i, i+1)
	return p, true
}
