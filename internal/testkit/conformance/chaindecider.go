package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/regate/regate/runtime/delegate"
)

// A ChainDecider is one entry point the ceiling cases run through: the Rego
// ceiling over named policies (RegoCeiling), the Go API's delegated runs
// (GoAPI), or regate serve (server's tests build one). Each maps the case's
// policy names to its own identities and back, so that decisions compare
// field by field.
type ChainDecider interface {
	// Decide decides a call for call.Chain (policy names, outermost first)
	// and call.ToolPolicy (a name, or ""). The decision's Policy is a name;
	// its Escalation is an id for Approve.
	Decide(ctx context.Context, call delegate.CeilingCall) (delegate.CeilingDecision, error)
	// Approve approves a pending escalation by approver, deciding its call
	// again at minute and at.
	Approve(ctx context.Context, escalation, approver string, minute int, at float64) (delegate.CeilingDecision, error)
	// Replace changes the named outermost policy (a root's, read as it is
	// now at every call) to policy, keeping its identity and state.
	Replace(ctx context.Context, name string, policy json.RawMessage) error
}

// ErrNotDelegated is a ChainDecider's answer for a chain it cannot enter
// because the subset prover refuses one of its children: the Go API and
// serve delegate only what is proven, so such a child makes no call.
var ErrNotDelegated = errors.New("conformance: the chain was not delegated")

// NewChainDecider builds a ChainDecider over a case's named policies.
type NewChainDecider func(ctx context.Context, id string, policies map[string]json.RawMessage) (ChainDecider, error)

// RunCeiling runs the ceiling cases of src (JSON Lines, as Run reads) and
// only those, through the deciders newDecider builds.
func RunCeiling(ctx context.Context, name string, src []byte, newDecider NewChainDecider) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var c delegationCase
		var h header
		if err := errors.Join(json.Unmarshal(raw, &c), json.Unmarshal(raw, &h)); err != nil {
			return out, fmt.Errorf("%s:%d:1: not a conformance case: %w", name, line, err)
		}
		if h.Suite != "delegation" || c.Op != "ceiling" {
			continue
		}
		r := Result{ID: c.ID, Suite: h.Suite, Passed: true}
		if err := runCeiling(ctx, c, newDecider); err != nil {
			r = Result{ID: c.ID, Suite: h.Suite, Want: "the expected ceiling outcome", Got: err.Error()}
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// RegoCeiling decides through a delegate.Ceiling over the compiled named
// policies: the Rego ceiling with the harness's names as the state's keys.
func RegoCeiling(ctx context.Context, id string, raw map[string]json.RawMessage) (ChainDecider, error) {
	_, out, err := compilePolicies(id, raw)
	if err != nil {
		return nil, err
	}
	c, err := delegate.NewCeiling(ctx, out)
	if err != nil {
		return nil, err
	}
	return &regoDecider{id: id, raw: raw, ceiling: c, pending: map[string]pendingCall{}}, nil
}

type regoDecider struct {
	id      string
	raw     map[string]json.RawMessage
	ceiling *delegate.Ceiling
	pending map[string]pendingCall
	n       int
}

// pendingCall is an escalated call, with its approvals so far, and the
// policy it escalated to.
type pendingCall struct {
	call   delegate.CeilingCall
	policy string
}

func (r *regoDecider) Decide(ctx context.Context, call delegate.CeilingCall) (delegate.CeilingDecision, error) {
	d, err := r.ceiling.Decide(ctx, call)
	if err != nil || d.Decision != "escalate" {
		return d, err
	}
	r.n++
	d.Escalation = "e" + strconv.Itoa(r.n)
	r.pending[d.Escalation] = pendingCall{call, d.Policy}
	return d, nil
}

// Approve decides the call again with the approval added, as a host holding
// only a Ceiling (or a stock OPA server) does.
func (r *regoDecider) Approve(ctx context.Context, escalation, approver string, minute int, at float64) (delegate.CeilingDecision, error) {
	p, ok := r.pending[escalation]
	if !ok {
		return delegate.CeilingDecision{Decision: "deny", Violation: "not_pending"}, nil
	}
	delete(r.pending, escalation)
	call := p.call
	call.Approvals = append(slices.Clone(call.Approvals), delegate.Approval{Policy: p.policy, Approver: approver})
	call.Minute, call.At = minute, at
	return r.Decide(ctx, call)
}

// Replace compiles the policies again with the new one and updates the
// ceiling: its state is keyed by name, so the policy keeps its buckets.
func (r *regoDecider) Replace(ctx context.Context, name string, policy json.RawMessage) error {
	raw := maps.Clone(r.raw)
	raw[name] = policy
	_, out, err := compilePolicies(r.id, raw)
	if err != nil {
		return err
	}
	r.raw = raw
	return r.ceiling.Update(ctx, out)
}
