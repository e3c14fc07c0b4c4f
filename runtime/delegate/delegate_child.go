package delegate

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/regate/regate/compiler/delegation"
)

// A ChildRun is an entered Delegation: the child's run. Its chain is the
// chain it was delegated under plus its own frozen policy; each of its
// calls is decided against every policy of the chain, at any depth, and a
// ChildRun can delegate further (a grandchild's chain is this chain plus
// the grandchild).
type ChildRun struct {
	d       *Delegation
	chain   []chainLink
	domain  *ceilingDomain
	running atomic.Bool

	mu      sync.Mutex
	pending pendingEscalations
}

// Exit ends the child's run and revokes the leases granted for it. The
// runs delegated from it stop with it: a child run never outlives the run
// that delegated it.
func (c *ChildRun) Exit() {
	if !c.running.Swap(false) {
		return
	}
	for _, l := range c.d.opts.Leases {
		c.d.opts.Engine.Revoke(c.d.opts.AgentID, l.ID)
	}
}

// Running reports whether calls may be made in the run: entered, not
// exited, the run that delegated it still running, and the root run not
// halted.
func (c *ChildRun) Running() bool {
	return c.running.Load() && !c.d.run.Halted() && (c.d.above == nil || c.d.above.Running())
}

// Chain is the ids of the run's chain, outermost (the root's parent
// policy) first and the run's own last: the names a CeilingDecision's
// Policy uses.
func (c *ChildRun) Chain() []string { return linkIDs(c.chain) }

// Delegate delegates further: the grandchild is proven within this run's
// frozen policy, and its calls are held to this run's whole chain and its
// own policy. The parent agent whose leases cover the grandchild's is this
// run's agent unless o.ParentAgentID says otherwise. Enter the lease with
// the root run, at o.Level.
func (c *ChildRun) Delegate(child *delegation.Policy, o DelegateOptions) (*Delegation, error) {
	if !c.Running() {
		return nil, &RefusedError{Problems: []delegation.Problem{{Msg: "the delegating run is not running"}}}
	}
	if o.ParentAgentID == "" {
		o.ParentAgentID = c.d.opts.AgentID
	}
	return c.d.run.delegate(c, c.chain, c.d.child.policy, child, o)
}

// A DecideOption sets how ChildRun.Decide decides one call.
type DecideOption func(*decideOptions)

type decideOptions struct{ tool *delegation.Policy }

// WithToolPolicy decides the call against the tool's own policy (step 2)
// after the chain. The policy object is keyed by identity in the run, as a
// parent is: its buckets and ledger are shared by every call that names it.
func WithToolPolicy(p *delegation.Policy) DecideOption {
	return func(o *decideOptions) { o.tool = p }
}

// Decide decides a call of the child's run at the ceiling: every policy of
// its chain, the root's parent as it is now, then each frozen child down to
// this run's own, then the tool's own policy if one is given. A call
// outside a running child is refused before any policy, with no layer.
// call.Chain, call.ToolPolicy and call.Agent (the delegation's agent) are
// set here, and call.Approvals ignored: an escalation is approved through
// Approve. An escalation comes back with an Escalation id for Approve.
func (c *ChildRun) Decide(ctx context.Context, call CeilingCall, opts ...DecideOption) (CeilingDecision, error) {
	var o decideOptions
	for _, opt := range opts {
		opt(&o)
	}
	call.Approvals = nil
	return c.decide(ctx, call, o.tool)
}

// decide decides call (with whatever approvals it carries) and registers an
// escalation as pending.
func (c *ChildRun) decide(ctx context.Context, call CeilingCall, tool *delegation.Policy) (CeilingDecision, error) {
	if !c.Running() {
		return notRunning(), nil
	}
	call.Agent = c.d.opts.AgentID
	var toolLink *chainLink
	if tool != nil {
		l := c.d.run.ids.liveLink(tool)
		toolLink = &l
	}
	d, err := c.domain.decide(ctx, c.chain, toolLink, call)
	if err != nil || d.Decision != "escalate" {
		return d, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	d.Escalation = c.pending.add(c.chain[len(c.chain)-1].id, call, tool, d)
	return d, nil
}

func notRunning() CeilingDecision {
	return CeilingDecision{Decision: "deny", Violation: "not_running", Reason: "the call is not in a running child run"}
}
