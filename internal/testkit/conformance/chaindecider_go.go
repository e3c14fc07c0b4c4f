package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

// GoAPI decides through the Go API a host embeds: one delegate.Run per case,
// whose parent is the chain's outermost policy object, a Delegation entered
// for each child (Run.Delegate, then ChildRun.Delegate for every further
// level) and ChildRun.Decide for the calls. A chain is entered once per
// path and agent: the calls of one child run share its frozen policy's
// buckets, and every child delegated from one policy object shares that
// object's. Each child is the case's, completed by ProvenChild when the
// prover does not accept it as written.
func GoAPI(ctx context.Context, id string, raw map[string]json.RawMessage) (ChainDecider, error) {
	policies, _, err := compilePolicies(id, raw)
	if err != nil {
		return nil, err
	}
	return &goDecider{
		policies: policies, run: delegate.NewRun(id), runs: map[string]*delegate.ChildRun{},
		escalations: map[string]*delegate.ChildRun{}, names: map[string]string{}, proven: map[string]*delegation.Policy{},
	}, nil
}

type goDecider struct {
	policies    map[string]*delegation.Policy
	run         *delegate.Run
	runs        map[string]*delegate.ChildRun // by path and agent
	escalations map[string]*delegate.ChildRun // the run each pending escalation is in
	names       map[string]string             // the case's name of each policy id
	proven      map[string]*delegation.Policy // the child delegated for each path (ProvenChild)
}

// child returns the entered child run of chain for agent, delegating and
// entering every level on the way that is not entered yet. The agent of a
// level above the last is the level's policy name.
func (g *goDecider) child(chain []string, agent string) (*delegate.ChildRun, error) {
	if len(chain) < 2 {
		return nil, fmt.Errorf("a chain of %d policies delegates nothing", len(chain))
	}
	key := strings.Join(chain, "\x00") + "\x01" + agent
	if c, ok := g.runs[key]; ok {
		return c, nil
	}
	policy, parent := g.policies[chain[len(chain)-1]], g.policies[chain[0]]
	if policy == nil || parent == nil {
		return nil, fmt.Errorf("no policy for the chain %q", chain)
	}
	opts := delegate.DelegateOptions{AgentID: agent, Level: len(chain) - 2}
	var above *delegate.ChildRun
	if len(chain) > 2 {
		var err error
		if above, err = g.child(chain[:len(chain)-1], chain[len(chain)-2]); err != nil {
			return nil, err
		}
		parent = g.proven[strings.Join(chain[:len(chain)-1], "\x00")]
	}
	policy = ProvenChild(policy, parent)
	g.proven[strings.Join(chain, "\x00")] = policy
	var lease *delegate.Delegation
	var err error
	if above == nil {
		lease, err = g.run.Delegate(parent, policy, opts)
	} else {
		lease, err = above.Delegate(policy, opts)
	}
	var refused *delegate.RefusedError
	if errors.As(err, &refused) {
		return nil, fmt.Errorf("%w: %v", ErrNotDelegated, refused)
	}
	if err != nil {
		return nil, err
	}
	c, err := lease.Enter(g.run, opts.Level)
	if err != nil {
		return nil, err
	}
	g.runs[key] = c
	ids := c.Chain()
	g.names[ids[0]] = chain[0]
	g.names[ids[len(ids)-1]] = chain[len(chain)-1]
	return c, nil
}

func (g *goDecider) Decide(ctx context.Context, call delegate.CeilingCall) (delegate.CeilingDecision, error) {
	c, err := g.child(call.Chain, call.Agent)
	if err != nil {
		return delegate.CeilingDecision{}, err
	}
	var opts []delegate.DecideOption
	if call.ToolPolicy != "" {
		tool := g.policies[call.ToolPolicy]
		if tool == nil {
			return delegate.CeilingDecision{}, fmt.Errorf("no policy %q", call.ToolPolicy)
		}
		opts = append(opts, delegate.WithToolPolicy(tool))
		g.names[g.run.PolicyID(tool)] = call.ToolPolicy
	}
	d, err := c.Decide(ctx, call, opts...)
	return g.named(c, d), err
}

func (g *goDecider) Approve(ctx context.Context, escalation, approver string, minute int, at float64) (delegate.CeilingDecision, error) {
	c := g.escalations[escalation]
	if c == nil {
		return delegate.CeilingDecision{Decision: "deny", Violation: "not_pending"}, nil
	}
	delete(g.escalations, escalation)
	d, err := c.Approve(ctx, delegate.EscalationApproval{Escalation: escalation, Approver: approver, Minute: minute, At: at})
	return g.named(c, d), err
}

// named maps the decision's policy id back to the case's name, and
// remembers where an escalation is pending.
func (g *goDecider) named(c *delegate.ChildRun, d delegate.CeilingDecision) delegate.CeilingDecision {
	if d.Escalation != "" {
		g.escalations[d.Escalation] = c
	}
	if n, ok := g.names[d.Policy]; ok {
		d.Policy = n
	}
	return d
}

// Replace changes the policy object in place, as a host tightening its
// planner does: the run reads it as it is now, under the same identity.
func (g *goDecider) Replace(_ context.Context, name string, policy json.RawMessage) error {
	p := g.policies[name]
	if p == nil {
		return fmt.Errorf("no policy %q", name)
	}
	changed, err := policyOf(name, policy)
	if err != nil {
		return err
	}
	*p = *changed
	return nil
}
