package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/regate/regate/compiler/delegation"
)

// A Run is an agent's run as delegation sees it: its id and a halt latch
// that its children share, so that a halted run cannot carry on through a
// child.
type Run struct {
	ID     string
	halted atomic.Bool
}

// NewRun returns a run that is not halted.
func NewRun(id string) *Run { return &Run{ID: id} }

// Halt trips the run's halt latch.
func (r *Run) Halt() { r.halted.Store(true) }

// Halted reports whether the run was halted.
func (r *Run) Halted() bool { return r.halted.Load() }

// DelegateOptions are the arguments of Delegate besides the policies.
type DelegateOptions struct {
	// AgentID is the child's agent.
	AgentID string
	// Level is the level of delegation the lease is for; Enter at another
	// level is refused.
	Level int
	// Engine holds the capability leases. With one, entering meters the
	// parent's delegate_to_agent capability.
	Engine *CapabilityEngine
	// ParentAgentID is the agent whose leases are the parent's.
	ParentAgentID string
	// Leases are granted to AgentID for the child's run, each within one
	// the parent holds; granted at entry, revoked at exit.
	Leases []delegation.Lease
	// State keeps the ceiling's buckets and ledgers; siblings given the
	// same state share their parent's. Nil: the child's own, in memory.
	State CeilingState
}

// RefusedError is Delegate's refusal (DelegationRefused): the problems say
// what made the child wider than its parent.
type RefusedError struct {
	Problems []delegation.Problem
}

func (e *RefusedError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.String()
	}
	return "DelegationRefused: " + strings.Join(msgs, "; ")
}

// ErrEntryRefused is returned by Enter for a lease that is spent, entered
// from another run or level, into a halted run, whose frozen child is no
// longer within the parent, or whose delegate_to_agent cap is used up.
var ErrEntryRefused = errors.New("delegation lease entry refused")

// A Delegation is a single-use lease on a child run: the parent policy (the
// live object, read again at entry and at each call) and a frozen copy of
// the child's.
type Delegation struct {
	run    *Run
	parent *delegation.Policy
	child  *delegation.Policy
	opts   DelegateOptions

	mu    sync.Mutex
	spent bool
}

// Delegate refuses a child that is not within its parent, or child leases
// the parent's do not cover, with a *RefusedError; otherwise it issues a
// Delegation holding a frozen copy of child.
func (r *Run) Delegate(parent, child *delegation.Policy, o DelegateOptions) (*Delegation, error) {
	problems := delegation.SubsetProblems(child, parent)
	if len(o.Leases) > 0 {
		if o.Engine == nil {
			problems = append(problems, delegation.Problem{Field: "leases", Msg: "leases: no capability engine holds the parent's leases"})
		} else {
			problems = append(problems, delegation.LeaseProblems(o.Leases, o.Engine.Held(o.ParentAgentID))...)
		}
	}
	if len(problems) > 0 {
		return nil, &RefusedError{Problems: problems}
	}
	return &Delegation{run: r, parent: parent, child: child.Clone(), opts: o}, nil
}

// Enter starts the child's run. Entering spends the lease whatever comes of
// it; it is refused for a spent lease, another run or level, a halted run,
// a frozen child no longer within the parent as it is now, and a used-up
// delegate_to_agent cap (metered only for an entry that passes the rest).
// A successful entry grants the child's leases.
func (d *Delegation) Enter(run *Run, level int) (*ChildRun, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	wasSpent := d.spent
	d.spent = true
	switch {
	case wasSpent:
		return nil, fmt.Errorf("%w: the lease was already entered", ErrEntryRefused)
	case run != d.run || level != d.opts.Level:
		return nil, fmt.Errorf("%w: entered from another run or level", ErrEntryRefused)
	case run.Halted():
		return nil, fmt.Errorf("%w: the run is halted", ErrEntryRefused)
	case !d.child.IsSubsetOf(d.parent):
		return nil, fmt.Errorf("%w: the child is no longer within its parent", ErrEntryRefused)
	case d.opts.Engine != nil && !d.opts.Engine.Use("delegate_to_agent"):
		return nil, fmt.Errorf("%w: the delegate_to_agent cap is used up", ErrEntryRefused)
	}
	for _, l := range d.opts.Leases {
		d.opts.Engine.Grant(d.opts.AgentID, l)
	}
	c := &ChildRun{d: d}
	c.running.Store(true)
	return c, nil
}

// A ChildRun is an entered Delegation: the child's run.
type ChildRun struct {
	d       *Delegation
	running atomic.Bool

	mu      sync.Mutex
	ceiling *Ceiling
}

// Exit ends the child's run and revokes the leases granted for it.
func (c *ChildRun) Exit() {
	if !c.running.Swap(false) {
		return
	}
	for _, l := range c.d.opts.Leases {
		c.d.opts.Engine.Revoke(c.d.opts.AgentID, l.ID)
	}
}

// Running reports whether calls may be made in the run: entered, not
// exited, and the parent's run not halted.
func (c *ChildRun) Running() bool { return c.running.Load() && !c.d.run.Halted() }

// Decide decides a call of the child's run at the ceiling: the parent
// policy as it is now, then the frozen child. A call outside a running
// child is refused before any policy, with no layer. call.Chain and
// call.Agent are set here.
func (c *ChildRun) Decide(ctx context.Context, call CeilingCall) (CeilingDecision, error) {
	if !c.Running() {
		return CeilingDecision{Decision: "deny", Violation: "not_running", Reason: "the call is not in a running child run"}, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out, err := delegation.Compile(map[string]*delegation.Policy{"parent": c.d.parent.Clone(), "child": c.d.child})
	if err != nil {
		return CeilingDecision{}, err
	}
	if c.ceiling == nil {
		opts := []CeilingOption{}
		if c.d.opts.State != nil {
			opts = append(opts, WithCeilingState(c.d.opts.State))
		}
		if c.ceiling, err = NewCeiling(ctx, out, opts...); err != nil {
			return CeilingDecision{}, err
		}
	} else if err := c.ceiling.Update(ctx, out); err != nil {
		return CeilingDecision{}, err
	}
	call.Chain = []string{"parent", "child"}
	call.Agent = c.d.opts.AgentID
	return c.ceiling.Decide(ctx, call)
}
