package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

// argumentCall is the call of an argument check (FORMAT.md, op lease).
type argumentCall struct {
	AgentID    *string         `json:"agent_id"`
	Capability string          `json:"capability"`
	Arg        string          `json:"arg"`
	Value      json.RawMessage `json:"value"`
	Default    json.RawMessage `json:"default"`
}

func (c argumentCall) runtimeCall() (delegate.ArgumentCall, error) {
	raw := c.Value
	if raw == nil {
		raw = c.Default // an argument left out is checked at its default
	}
	var v any
	if raw != nil {
		if err := json.Unmarshal(raw, &v); err != nil {
			return delegate.ArgumentCall{}, err
		}
	}
	rc := delegate.ArgumentCall{Capability: c.Capability, Value: v}
	if c.AgentID != nil {
		rc.Agent = *c.AgentID
	}
	return rc, nil
}

func runLease(ctx context.Context, c delegationCase) error {
	var kind struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(c.Inputs, &kind); err != nil {
		return err
	}
	switch kind.Kind {
	case "argument":
		return runArgument(ctx, c)
	case "grant":
		return runGrant(c)
	case "entry":
		return runEntry(ctx, c)
	}
	return fmt.Errorf("lease kind %q is not implemented", kind.Kind)
}

func runArgument(ctx context.Context, c delegationCase) error {
	var in struct {
		Leases map[string][]delegation.Lease `json:"leases"`
		Call   argumentCall                  `json:"call"`
	}
	var want map[string]json.RawMessage
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	engine, err := engineWith(ctx, in.Leases, nil)
	if err != nil {
		return err
	}
	d, err := checkArgument(ctx, engine, in.Call)
	if err != nil {
		return err
	}
	return checkLeaseDecision(d, want)
}

func engineWith(ctx context.Context, leases map[string][]delegation.Lease, caps map[string]int) (*delegate.CapabilityEngine, error) {
	engine, err := delegate.NewCapabilityEngine(ctx, caps)
	if err != nil {
		return nil, err
	}
	for _, agent := range slices.Sorted(maps.Keys(leases)) {
		for _, l := range leases[agent] {
			engine.Grant(agent, l)
		}
	}
	return engine, nil
}

func checkArgument(ctx context.Context, engine *delegate.CapabilityEngine, call argumentCall) (delegate.LeaseDecision, error) {
	rc, err := call.runtimeCall()
	if err != nil {
		return delegate.LeaseDecision{}, err
	}
	return engine.CheckArgument(ctx, rc)
}

// checkLeaseDecision compares decision, refusal, violationType and
// messageNotContains (over the whole refusal, serialized).
func checkLeaseDecision(d delegate.LeaseDecision, want map[string]json.RawMessage) error {
	got := map[string]string{"decision": d.Decision, "refusal": d.Refusal, "violationType": d.ViolationType}
	if err := checkStrings(got, want, "decision", "refusal", "violationType"); err != nil {
		return err
	}
	if raw, ok := want["messageNotContains"]; ok {
		var hidden []string
		if err := json.Unmarshal(raw, &hidden); err != nil {
			return err
		}
		whole, _ := json.Marshal(d)
		for _, h := range hidden {
			if strings.Contains(string(whole), h) {
				return fmt.Errorf("the refusal %s shows %q", whole, h)
			}
		}
	}
	return nil
}

func runGrant(c delegationCase) error {
	var in struct {
		Parent []delegation.Lease `json:"parentLeases"`
		Child  []delegation.Lease `json:"childLeases"`
	}
	var want struct {
		Granted bool `json:"granted"`
	}
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	ps := delegation.LeaseProblems(in.Child, in.Parent)
	if got := len(ps) == 0; got != want.Granted {
		return fmt.Errorf("granted %v (%v); want %v", got, ps, want.Granted)
	}
	return nil
}

// entryStep is one step of a lease entry sequence.
type entryStep struct {
	Action        string                     `json:"action"`
	Lease         string                     `json:"lease"`
	Run           string                     `json:"run"`
	Parent        string                     `json:"parent"`
	Child         string                     `json:"child"`
	AgentID       string                     `json:"agent_id"`
	Level         int                        `json:"level"`
	Leases        []delegation.Lease         `json:"leases"`
	ParentAgentID string                     `json:"parent_agent_id"`
	Policy        string                     `json:"policy"`
	Set           map[string]json.RawMessage `json:"set"`
	Tool          string                     `json:"tool"`
	Call          argumentCall               `json:"call"`
	Expect        map[string]json.RawMessage `json:"expect"`
}

// entryCase is the state of one entry sequence.
type entryCase struct {
	policies map[string]*delegation.Policy
	runs     map[string]*delegate.Run
	leases   map[string]*delegate.Delegation
	children map[string]*delegate.ChildRun
	engine   *delegate.CapabilityEngine
	entered  int
}

func runEntry(ctx context.Context, c delegationCase) error {
	var in struct {
		Policies map[string]json.RawMessage    `json:"policies"`
		Leases   map[string][]delegation.Lease `json:"leases"`
		Caps     map[string]int                `json:"caps"`
		Steps    []entryStep                   `json:"steps"`
	}
	var want map[string]json.RawMessage
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	policies, _, err := compilePolicies(c.ID, in.Policies)
	if err != nil {
		return err
	}
	engine, err := engineWith(ctx, in.Leases, in.Caps)
	if err != nil {
		return err
	}
	e := &entryCase{policies: policies, runs: map[string]*delegate.Run{}, leases: map[string]*delegate.Delegation{},
		children: map[string]*delegate.ChildRun{}, engine: engine}
	for i, s := range in.Steps {
		got, err := e.step(ctx, s)
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", i, s.Action, err)
		}
		if err := checkOutcome(got, withoutKeys(s.Expect, "problemsContain")); err != nil {
			return fmt.Errorf("step %d (%s): %w", i, s.Action, err)
		}
		if raw, ok := s.Expect["problemsContain"]; ok {
			var subs []string
			if err := json.Unmarshal(raw, &subs); err != nil {
				return err
			}
			for _, sub := range subs {
				if !strings.Contains(fmt.Sprint(got["problems"]), sub) {
					return fmt.Errorf("step %d: no problem contains %q: %v", i, sub, got["problems"])
				}
			}
		}
	}
	return checkSummary(want, len(in.Steps), map[string]any{"entered": e.entered})
}

func withoutKeys(m map[string]json.RawMessage, keys ...string) map[string]json.RawMessage {
	out := maps.Clone(m)
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

func (e *entryCase) run(id string) *delegate.Run {
	if e.runs[id] == nil {
		e.runs[id] = delegate.NewRun(id)
	}
	return e.runs[id]
}

func (e *entryCase) step(ctx context.Context, s entryStep) (map[string]any, error) {
	ok := map[string]any{"ok": true}
	switch s.Action {
	case "delegate":
		parentAgent := s.ParentAgentID
		if parentAgent == "" {
			parentAgent = s.Parent
		}
		d, err := e.run(s.Run).Delegate(e.policies[s.Parent], e.policies[s.Child], delegate.DelegateOptions{
			AgentID: s.AgentID, Level: s.Level, Engine: e.engine, ParentAgentID: parentAgent, Leases: s.Leases,
		})
		var refused *delegate.RefusedError
		if errors.As(err, &refused) {
			return map[string]any{"refused": "DelegationRefused", "problems": refused.Error()}, nil
		}
		if err != nil {
			return nil, err
		}
		e.leases[s.Lease] = d
		return ok, nil
	case "mutate":
		return ok, e.mutate(s.Policy, s.Set)
	case "enter":
		d := e.leases[s.Lease]
		if d == nil {
			return map[string]any{"refused": true}, nil // never issued
		}
		child, err := d.Enter(e.run(s.Run), s.Level)
		if errors.Is(err, delegate.ErrEntryRefused) {
			return map[string]any{"refused": true}, nil
		}
		if err != nil {
			return nil, err
		}
		e.children[s.Lease] = child
		e.entered++
		return ok, nil
	case "exit":
		if child := e.children[s.Lease]; child != nil {
			child.Exit()
		}
		return ok, nil
	case "halt":
		e.run(s.Run).Halt()
		return ok, nil
	case "call":
		child := e.children[s.Lease]
		if child == nil {
			return map[string]any{"decision": "deny", "layer": nil}, nil // not entered: in no child run
		}
		d, err := child.Decide(ctx, delegate.CeilingCall{Tool: s.Tool, Minute: 12 * 60, Session: "main"})
		if err != nil {
			return nil, err
		}
		var layer any
		if d.Layer != "" {
			layer = d.Layer
		}
		return map[string]any{"decision": d.Decision, "layer": layer}, nil
	case "call_arg":
		d, err := checkArgument(ctx, e.engine, s.Call)
		if err != nil {
			return nil, err
		}
		return map[string]any{"decision": d.Decision, "violationType": d.ViolationType}, nil
	}
	return nil, fmt.Errorf("unknown action %q", s.Action)
}

// mutate changes fields of a policy object in place, as a host changing
// its policy after delegate would.
func (e *entryCase) mutate(name string, set map[string]json.RawMessage) error {
	p := e.policies[name]
	if p == nil {
		return fmt.Errorf("no policy %q", name)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	maps.Copy(fields, set)
	if b, err = json.Marshal(fields); err != nil {
		return err
	}
	changed, err := delegation.Decode(name, b)
	if err != nil {
		return err
	}
	*p = *changed
	return nil
}
