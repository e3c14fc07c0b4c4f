package delegate

import (
	"context"
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime"
)

// CeilingQuery is the decision of the delegation ceiling.
const CeilingQuery = "data.regate.lib.ceiling.decision"

// Ceiling decides the calls of delegated runs against compiled delegation
// policies (step 2.1, regate.lib.ceiling). It keeps the policies' rate
// buckets and call ledgers in a CeilingState; each decision loads the state
// of its chain, is decided in Rego, and charges the state only when the call
// is allowed. Decisions on one Ceiling are serialized, so that concurrent
// siblings never both spend a parent's last token.
type Ceiling struct {
	query rego.PreparedEvalQuery
	store storage.Store
	mu    sync.Mutex
	state CeilingState
}

// CeilingOption configures NewCeiling.
type CeilingOption func(*Ceiling)

// WithCeilingState keeps the buckets and ledgers in s instead of memory.
func WithCeilingState(s CeilingState) CeilingOption { return func(c *Ceiling) { c.state = s } }

// NewCeiling prepares the ceiling query over compiled delegation policies.
func NewCeiling(ctx context.Context, out *delegation.Output, opts ...CeilingOption) (*Ceiling, error) {
	store := inmem.NewFromObject(map[string]any{"regate": map[string]any{"delegation": out.Data}})
	q, err := runtime.PrepareLibrary(ctx, CeilingQuery, store, out.Module)
	if err != nil {
		return nil, err
	}
	c := &Ceiling{query: q, store: store, state: NewMemoryCeilingState()}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// Update replaces the compiled policies the ceiling decides with (a parent
// policy as it is now, a lease's frozen child), keeping the prepared query
// and the state.
func (c *Ceiling) Update(ctx context.Context, out *delegation.Output) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.update(ctx, out.Data)
}

func (c *Ceiling) update(ctx context.Context, data map[string]any) error {
	return storage.WriteOne(ctx, c.store, storage.ReplaceOp, storage.MustParsePath("/regate/delegation"), data)
}

// decideOver replaces the compiled policies and decides call on them in one
// step, so that the chains sharing a ceiling (and its state) never see each
// other's policies, and decisions on one state stay serialized.
func (c *Ceiling) decideOver(ctx context.Context, data map[string]any, call CeilingCall) (CeilingDecision, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.update(ctx, data); err != nil {
		return CeilingDecision{}, err
	}
	return c.decide(ctx, call)
}

// CeilingCall is one call of a delegated run.
type CeilingCall struct {
	// Chain names the delegation policies, outermost first, the child's
	// own last. ToolPolicy names the tool's own policy (step 2), if any.
	Chain      []string
	ToolPolicy string
	Tool       string
	// Agent is the calling agent's id; "" is none.
	Agent string
	Roles []string
	// Minute is the minute of the day (0-1439) time windows are read at;
	// At is the seconds since the run began, which drives refills and
	// max_wall_seconds.
	Minute int
	At     float64
	// Session is the run the call belongs to: it keys the call ledgers.
	Session string
	// UntrustedPrior counts the tool's invocations after untrusted output;
	// AuthorizedOnce is whether the child's own context holds an
	// authorize-once grant for it.
	UntrustedPrior int
	AuthorizedOnce bool
	// Approvals are the escalations of this call a human has approved:
	// deciding the call again with them turns it into an allow, charged
	// like any other, when no policy refuses it now (two-phase charging of
	// escalations). ChildRun.Approve fills them in.
	Approvals []Approval
}

// Approval is an approver's yes to a chain policy's escalation of a call.
// It approves only an escalation of that policy to that approver.
type Approval struct {
	Policy   string `json:"policy"`
	Approver string `json:"approver"`
}

// CeilingDecision is the ceiling's answer, as data.
type CeilingDecision struct {
	// Decision is allow, deny or escalate (before any approver answers).
	Decision string `json:"decision"`
	// Layer is delegation.Layer when a chain policy decided, "" when the
	// call was allowed or the tool's own policy refused it.
	Layer string `json:"layer,omitempty"`
	// RefusedBy is delegation.RefusedBy for a ceiling refusal.
	RefusedBy string `json:"refused_by,omitempty"`
	// Violation names the failed check: agent_required, role_required,
	// tool_denied, tool_not_allowed, time_restricted, rate_limited,
	// reauth_required, budget_exceeded, no_approver (or unknown_policy,
	// invalid_policy, no_decision when regate fails closed).
	Violation string `json:"violation,omitempty"`
	// Policy is the policy that refused or escalated.
	Policy string `json:"policy,omitempty"`
	// Approver is who an escalation goes to.
	Approver string `json:"approver,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Approved marks an allow that approvals of its escalations made.
	Approved bool `json:"approved,omitempty"`
	// Escalation identifies an escalation pending in a ChildRun, for
	// ChildRun.Approve; empty from a bare Ceiling.
	Escalation string `json:"escalation,omitempty"`
}

// ceilingResult is the Rego decision as it comes back.
type ceilingResult struct {
	CeilingDecision
	Charges struct {
		Buckets []struct {
			Policy string  `json:"policy"`
			Key    string  `json:"key"`
			Tokens float64 `json:"tokens"`
		} `json:"buckets"`
		Ledgers []struct {
			Policy      string `json:"policy"`
			MaxSessions *int64 `json:"max_sessions"`
		} `json:"ledgers"`
	} `json:"charges"`
}

// Decide decides one call and, when it is allowed, charges its buckets and
// ledgers. An escalation charges nothing: to approve it, decide the call
// again with the approval in call.Approvals, at the time it will run. An
// error means no decision: the host must block the call.
func (c *Ceiling) Decide(ctx context.Context, call CeilingCall) (CeilingDecision, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.decide(ctx, call)
}

func (c *Ceiling) decide(ctx context.Context, call CeilingCall) (CeilingDecision, error) {
	in := c.input(call)
	var r ceilingResult
	if err := runtime.EvalLibrary(ctx, c.query, in, &r); err != nil {
		return CeilingDecision{}, err
	}
	switch r.Decision {
	case "allow":
		for _, ch := range r.Charges.Buckets {
			c.state.SetBucket(ch.Policy, ch.Key, Bucket{Tokens: ch.Tokens, At: call.At})
		}
		for _, l := range r.Charges.Ledgers {
			var max int64
			if l.MaxSessions != nil {
				max = *l.MaxSessions
			}
			c.state.Count(l.Policy, call.Session, max)
		}
	case "deny", "escalate":
	default:
		return CeilingDecision{}, fmt.Errorf("delegate: the ceiling returned decision %q", r.Decision)
	}
	return r.CeilingDecision, nil
}

// Input returns the input document Decide would evaluate for call now (the
// chain's buckets and ledgers included): what a stock OPA server holding
// the library and the compiled policies decides on at
// /v1/data/regate/lib/ceiling/decision.
func (c *Ceiling) Input(call CeilingCall) map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.input(call)
}

func (c *Ceiling) input(call CeilingCall) map[string]any {
	names := append([]string(nil), call.Chain...)
	if call.ToolPolicy != "" {
		names = append(names, call.ToolPolicy)
	}
	state := map[string]any{}
	for _, name := range names {
		buckets := map[string]any{}
		for k, b := range c.state.Buckets(name) {
			buckets[k] = map[string]any{"tokens": b.Tokens, "at": b.At}
		}
		state[name] = map[string]any{"buckets": buckets, "calls": c.state.Calls(name, call.Session)}
	}
	in := map[string]any{
		"chain":           orNone(call.Chain),
		"tool":            call.Tool,
		"agent":           nil,
		"roles":           orNone(call.Roles),
		"minute":          call.Minute,
		"at":              call.At,
		"untrusted_prior": call.UntrustedPrior,
		"authorized_once": call.AuthorizedOnce,
		"state":           state,
	}
	if call.Agent != "" {
		in["agent"] = call.Agent
	}
	if call.ToolPolicy != "" {
		in["tool_policy"] = call.ToolPolicy
	}
	if len(call.Approvals) > 0 {
		approvals := make([]any, len(call.Approvals))
		for i, a := range call.Approvals {
			approvals[i] = map[string]any{"policy": a.Policy, "approver": a.Approver}
		}
		in["approvals"] = approvals
	}
	return in
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
