package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

// ceilingCall is a call of the ceiling op (FORMAT.md, op ceiling).
type ceilingCall struct {
	Tool                 string         `json:"tool"`
	AgentID              *string        `json:"agent_id"`
	Roles                []string       `json:"roles"`
	Time                 *string        `json:"time"`
	At                   float64        `json:"at"`
	Session              *string        `json:"session"`
	UntrustedPrior       map[string]int `json:"untrusted_prior"`
	AuthorizedOnce       []string       `json:"authorized_once"`
	ParentAuthorizedOnce []string       `json:"parent_authorized_once"` // never applies to the child
}

func (c ceilingCall) runtimeCall(chain []string, toolPolicy string) (delegate.CeilingCall, error) {
	clock := "12:00"
	if c.Time != nil {
		clock = *c.Time
	}
	minute, err := delegation.ParseClock(clock)
	if err != nil {
		return delegate.CeilingCall{}, err
	}
	session := "main"
	if c.Session != nil {
		session = *c.Session
	}
	rc := delegate.CeilingCall{
		Chain: chain, ToolPolicy: toolPolicy, Tool: c.Tool, Roles: c.Roles, Minute: minute, At: c.At,
		Session: session, UntrustedPrior: c.UntrustedPrior[c.Tool], AuthorizedOnce: slices.Contains(c.AuthorizedOnce, c.Tool),
	}
	if c.AgentID != nil {
		rc.Agent = *c.AgentID
	}
	return rc, nil
}

// compilePolicies decodes and compiles a case's named policies.
func compilePolicies(id string, raw map[string]json.RawMessage) (map[string]*delegation.Policy, *delegation.Output, error) {
	policies := map[string]*delegation.Policy{}
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		p, err := policyOf(id+"/"+name, raw[name])
		if err != nil {
			return nil, nil, err
		}
		policies[name] = p
	}
	out, err := delegation.Compile(policies)
	return policies, out, err
}

// ceilingInputs are a ceiling case's inputs: one call, or steps.
type ceilingInputs struct {
	Policies   map[string]json.RawMessage `json:"policies"`
	Chain      []string                   `json:"chain"`
	ToolPolicy string                     `json:"toolPolicy"`
	Call       *ceilingCall               `json:"call"`
	Steps      []struct {
		Action string                     `json:"action"`
		Chain  []string                   `json:"chain"`
		Call   ceilingCall                `json:"call"`
		Expect map[string]json.RawMessage `json:"expect"`
	} `json:"steps"`
}

// runCeiling runs a ceiling case through the deciders newDecider builds:
// the Rego ceiling over named policies by default (runDelegation), the Go
// API or regate serve through RunCeiling.
func runCeiling(ctx context.Context, c delegationCase, newDecider NewChainDecider) error {
	var in ceilingInputs
	var want map[string]json.RawMessage
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	for name, raw := range in.Policies {
		if len(raw) == 0 || string(raw) == "null" {
			in.Policies[name] = json.RawMessage("{}")
		}
	}
	decider, err := newDecider(ctx, c.ID, in.Policies)
	if err != nil {
		return err
	}
	decide := func(call ceilingCall, chain []string) (delegate.CeilingDecision, bool, error) {
		rc, err := call.runtimeCall(chain, in.ToolPolicy)
		if err != nil {
			return delegate.CeilingDecision{}, false, err
		}
		d, err := decider.Decide(ctx, rc)
		if errors.Is(err, ErrNotDelegated) {
			return delegate.CeilingDecision{Decision: "deny"}, true, nil
		}
		return d, false, err
	}
	if in.Call != nil {
		d, notDelegated, err := decide(*in.Call, in.Chain)
		if err != nil {
			return err
		}
		return checkCeiling(d, want, notDelegated)
	}
	counts := map[string]int{}
	for i, s := range in.Steps {
		if s.Action != "call" {
			return fmt.Errorf("step %d: unknown action %q", i, s.Action)
		}
		d, notDelegated, err := decide(s.Call, s.Chain)
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		if err := checkCeiling(d, s.Expect, notDelegated); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		counts[d.Decision]++
	}
	return checkSummary(want, len(in.Steps), map[string]any{"counts": counts})
}

// checkCeiling compares the keys of want with a ceiling decision; null
// asserts empty. A chain the entry point would not delegate (the prover
// refused it) runs no call: only a refusal is expected of it.
func checkCeiling(d delegate.CeilingDecision, want map[string]json.RawMessage, notDelegated bool) error {
	if notDelegated {
		return checkStrings(map[string]string{"decision": d.Decision}, want, "decision")
	}
	got := map[string]string{
		"decision": d.Decision, "layer": d.Layer, "refusedBy": d.RefusedBy, "violation": d.Violation, "approver": d.Approver,
	}
	return checkStrings(got, want, "decision", "layer", "refusedBy", "violation", "approver")
}

// checkStrings compares the named keys present in want (a string, or null
// for empty) with got.
func checkStrings(got map[string]string, want map[string]json.RawMessage, keys ...string) error {
	for _, k := range keys {
		raw, ok := want[k]
		if !ok {
			continue
		}
		var w *string
		if err := json.Unmarshal(raw, &w); err != nil {
			return fmt.Errorf("expect.%s: %w", k, err)
		}
		if (w == nil && got[k] != "") || (w != nil && got[k] != *w) {
			return fmt.Errorf("%s is %q; want %s (decision %v)", k, got[k], raw, got)
		}
	}
	return nil
}

// checkSummary compares a sequence's case-level expect: the number of
// steps, and each summary key present ("counts" maps compared exactly, a
// zero the same as absent).
func checkSummary(want map[string]json.RawMessage, steps int, got map[string]any) error {
	if raw, ok := want["steps"]; ok {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil || n != steps {
			return fmt.Errorf("%d steps; want %s", steps, raw)
		}
	}
	for k, v := range got {
		raw, ok := want[k]
		if !ok {
			continue
		}
		if counts, isCounts := v.(map[string]int); isCounts {
			var w map[string]int
			if err := json.Unmarshal(raw, &w); err != nil {
				return err
			}
			maps.DeleteFunc(w, func(_ string, n int) bool { return n == 0 })
			if !maps.Equal(w, counts) {
				return fmt.Errorf("%s %v; want %v", k, counts, w)
			}
			continue
		}
		var w any
		if err := json.Unmarshal(raw, &w); err != nil {
			return err
		}
		b, _ := json.Marshal(v)
		var g any
		_ = json.Unmarshal(b, &g)
		if !sameJSON(g, w) {
			return fmt.Errorf("%s is %s; want %s", k, b, raw)
		}
	}
	return nil
}
