package delegate

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime"
)

// LeaseQuery is the decision of an argument lease check.
const LeaseQuery = "data.regate.lib.lease.decision"

// CapabilityEngine holds the capability leases agents hold and the caps on
// capability uses. Argument checks (step 4.5) are decided in Rego
// (regate.lib.lease) over the leases the agent holds when the call is made.
// It is safe for concurrent use.
type CapabilityEngine struct {
	query rego.PreparedEvalQuery
	mu    sync.Mutex
	held  map[string][]delegation.Lease // by agent
	caps  map[string]int                // capability → uses allowed
	used  map[string]int
}

// NewCapabilityEngine prepares the lease query. caps bounds the uses of a
// capability (delegate_to_agent bounds how many children a parent starts);
// a capability without a cap is unbounded.
func NewCapabilityEngine(ctx context.Context, caps map[string]int) (*CapabilityEngine, error) {
	q, err := runtime.PrepareLibrary(ctx, LeaseQuery, inmem.New())
	if err != nil {
		return nil, err
	}
	return &CapabilityEngine{query: q, held: map[string][]delegation.Lease{}, caps: caps, used: map[string]int{}}, nil
}

// Grant gives agent a lease; a lease with the same id is replaced.
func (e *CapabilityEngine) Grant(agent string, l delegation.Lease) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.held[agent] = append(slices.DeleteFunc(e.held[agent], func(h delegation.Lease) bool { return h.ID == l.ID }), l)
}

// Revoke takes lease id from agent.
func (e *CapabilityEngine) Revoke(agent, id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.held[agent] = slices.DeleteFunc(e.held[agent], func(h delegation.Lease) bool { return h.ID == id })
}

// Held returns the leases agent holds.
func (e *CapabilityEngine) Held(agent string) []delegation.Lease {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.held[agent])
}

// Use meters one use of capability and reports whether its cap allowed it.
func (e *CapabilityEngine) Use(capability string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if limit, ok := e.caps[capability]; ok && e.used[capability] >= limit {
		return false
	}
	e.used[capability]++
	return true
}

// ArgumentCall is an argument a lease-scoped tool is called with.
type ArgumentCall struct {
	// Agent is the calling agent; "" is none, which holds no lease.
	Agent      string
	Capability string
	// Value is the argument's value, or its default when the call left it
	// out. A value that is not a string is refused.
	Value any
}

// LeaseDecision is the answer of an argument check. A refusal never names
// the lease or its target.
type LeaseDecision struct {
	Decision      string `json:"decision"`
	Refusal       string `json:"refusal,omitempty"`
	ViolationType string `json:"violation_type,omitempty"`
	Message       string `json:"message,omitempty"`
}

// CheckArgument decides whether the argument falls within a lease the
// agent holds now, and meters the capability's use when it does (its cap
// can still refuse it).
func (e *CapabilityEngine) CheckArgument(ctx context.Context, call ArgumentCall) (LeaseDecision, error) {
	held := []any{}
	if call.Agent != "" {
		for _, l := range e.Held(call.Agent) {
			held = append(held, map[string]any{"capability": l.Capability, "re": l.Regex()})
		}
	}
	in := map[string]any{"agent": nil, "capability": call.Capability, "value": call.Value, "leases": held}
	if call.Agent != "" {
		in["agent"] = call.Agent
	}
	var d LeaseDecision
	if err := runtime.EvalLibrary(ctx, e.query, in, &d); err != nil {
		return LeaseDecision{}, err
	}
	switch d.Decision {
	case "allow":
		if !e.Use(call.Capability) {
			return LeaseDecision{Decision: "deny", Refusal: "capability_denied", ViolationType: "cap_exceeded",
				Message: "the capability's cap is used up"}, nil
		}
	case "deny":
	default:
		return LeaseDecision{}, fmt.Errorf("delegate: the lease check returned decision %q", d.Decision)
	}
	return d, nil
}
