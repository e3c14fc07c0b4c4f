package delegate

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/regate/regate/compiler/delegation"
)

// A Run is an agent's run as delegation sees it, the root of a tree of
// delegated runs: its id, a halt latch its children share (a halted run
// cannot carry on through a child), and the ceiling state every chain
// beneath it shares. Its policies are keyed by identity (ceilingchain.go):
// children delegated from one parent object share that parent's buckets and
// ledger, and each lease's frozen child has its own.
type Run struct {
	ID     string
	halted atomic.Bool

	setup  sync.Once
	ids    policyIDs
	domain *ceilingDomain
}

// ready fills in what a Run built without NewRun lacks.
func (r *Run) ready() {
	r.setup.Do(func() {
		if r.ids.run == "" {
			r.ids.run = r.ID
		}
		if r.domain == nil {
			r.domain = newCeilingDomain(nil)
		}
	})
}

// A RunOption configures NewRun.
type RunOption func(*runOptions)

type runOptions struct{ state CeilingState }

// WithRunState keeps the run's buckets and ledgers in s instead of memory.
// Runs that share one state must have distinct ids: the state's keys are
// "<run id>/<n>".
func WithRunState(s CeilingState) RunOption { return func(o *runOptions) { o.state = s } }

// NewRun returns a run that is not halted, its ceiling state in memory
// unless an option says otherwise.
func NewRun(id string, opts ...RunOption) *Run {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	return &Run{ID: id, ids: policyIDs{run: id}, domain: newCeilingDomain(o.state)}
}

// PolicyID is the id the run keys a live policy object's state by (a
// parent handed to Delegate, a tool's own policy), the name a
// CeilingDecision's Policy gives it.
func (r *Run) PolicyID(p *delegation.Policy) string {
	r.ready()
	return r.ids.of(p)
}

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
	// Isolated opts this delegation out of the run's shared state: the
	// child and everything beneath it keep their own copy of every
	// ancestor's buckets and ledger, starting full and empty. Siblings then
	// no longer share their parent's rate limits and call budget, so
	// together they can spend more than the parent holds. Leave it false
	// unless each child is meant to have a whole parent budget of its own.
	Isolated bool
	// State keeps an isolated delegation's copy of the state.
	//
	// Deprecated: the state is the run's (WithRunState on NewRun) and is
	// shared by everything beneath it. A State set here isolates the
	// delegation as Isolated does, keeping its copy in State.
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

// A Delegation is a single-use lease on a child run: the chain above it
// (whose outermost link is the parent policy as it is now, read again at
// entry and at each call), the parent policy the child is proven within,
// and a frozen copy of the child's.
type Delegation struct {
	run    *Run
	above  *ChildRun // the delegating child run, nil for a child of the run itself
	chain  []chainLink
	parent *delegation.Policy
	child  chainLink
	domain *ceilingDomain
	opts   DelegateOptions

	mu    sync.Mutex
	spent bool
}

// Delegate refuses a child that is not within its parent, or child leases
// the parent's do not cover, with a *RefusedError; otherwise it issues a
// Delegation holding a frozen copy of child. The parent is the policy
// object of the run's own agent (the planner's): delegations from the same
// object share its buckets and ledger.
func (r *Run) Delegate(parent, child *delegation.Policy, o DelegateOptions) (*Delegation, error) {
	r.ready()
	return r.delegate(nil, []chainLink{r.ids.liveLink(parent)}, parent, child, o)
}

func (r *Run) delegate(above *ChildRun, chain []chainLink, parent, child *delegation.Policy, o DelegateOptions) (*Delegation, error) {
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
	link, err := frozenLink(r.ids.mint(), child)
	if err != nil {
		return nil, err
	}
	domain := r.domain
	if above != nil {
		domain = above.domain
	}
	if o.Isolated || o.State != nil {
		domain = newCeilingDomain(o.State)
	}
	return &Delegation{run: r, above: above, chain: chain, parent: parent, child: link, domain: domain, opts: o}, nil
}

// Enter starts the child's run. Entering spends the lease whatever comes of
// it; it is refused for a spent lease, another run or level, a halted run,
// a delegating child run that is no longer running, a frozen child no
// longer within the parent as it is now, and a used-up delegate_to_agent
// cap (metered only for an entry that passes the rest). A successful entry
// grants the child's leases.
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
	case d.above != nil && !d.above.Running():
		return nil, fmt.Errorf("%w: the delegating run is no longer running", ErrEntryRefused)
	case !d.child.policy.IsSubsetOf(d.parent):
		return nil, fmt.Errorf("%w: the child is no longer within its parent", ErrEntryRefused)
	case d.opts.Engine != nil && !d.opts.Engine.Use("delegate_to_agent"):
		return nil, fmt.Errorf("%w: the delegate_to_agent cap is used up", ErrEntryRefused)
	}
	for _, l := range d.opts.Leases {
		d.opts.Engine.Grant(d.opts.AgentID, l)
	}
	c := &ChildRun{d: d, chain: append(append([]chainLink(nil), d.chain...), d.child), domain: d.domain}
	c.running.Store(true)
	return c, nil
}
