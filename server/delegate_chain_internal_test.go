package server

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/internal/testkit/conformance"
	"github.com/regate/regate/runtime/delegate"
)

// The three-level chain: a planner, a middle child and its sibling, and a
// grandchild under the middle one. Every child is proven within its parent,
// so the Go API and serve delegate them as written.
var chainPolicies = map[string]string{
	"planner": `{"allowed_tools": ["read_*", "wire_*", "write_*"], "rate_limits": {"*": "4/hour"},
		"escalate_tools": {"wire_*": "money moves"}, "approver": "treasury", "amplification_budget": {"max_calls_per_run": 7}}`,
	"mid": `{"allowed_tools": ["read_*", "wire_*"], "rate_limits": {"*": "4/hour"},
		"escalate_tools": {"wire_*": "money moves"}, "approver": "treasury", "amplification_budget": {"max_calls_per_run": 7}}`,
	"sibling": `{"allowed_tools": ["read_*"], "rate_limits": {"*": "4/hour"},
		"escalate_tools": {"wire_*": "money moves"}, "approver": "treasury", "amplification_budget": {"max_calls_per_run": 7}}`,
	"leaf": `{"allowed_tools": ["read_*", "wire_*"], "rate_limits": {"*": "3/hour"},
		"escalate_tools": {"wire_*": "money moves"}, "amplification_budget": {"max_calls_per_run": 7}}`,
}

// The planner tightened after the delegations: a rule neither child repeats.
const tightenedPlanner = `{"allowed_tools": ["read_*", "wire_*", "write_*"], "denied_tools": ["read_secret*"],
	"rate_limits": {"*": "4/hour"}, "escalate_tools": {"wire_*": "money moves"}, "approver": "treasury",
	"amplification_budget": {"max_calls_per_run": 7}}`

var (
	leafChain    = []string{"planner", "mid", "leaf"}
	siblingChain = []string{"planner", "sibling"}
)

// chainStep is a call, the approval of an earlier step's escalation, or
// the planner's replacement; want is "decision violation policy" ("-" for
// empty), plus " approved" for an approved allow.
type chainStep struct {
	chain   []string
	tool    string
	at      float64
	approve int // the step whose escalation treasury approves, 1-based
	replace bool
	want    string
}

// 4/hour is a token every 900 s; the planner's bucket is shared by the
// middle child, its sibling and the grandchild.
var chainSteps = []chainStep{
	{chain: leafChain, tool: "read_a", want: "allow - -"},
	{chain: siblingChain, tool: "read_b", want: "allow - -"},
	{chain: siblingChain, tool: "read_c", want: "allow - -"},                        // the planner has 1 token left
	{chain: leafChain, tool: "wire_1", want: "escalate - planner"},                  // charged nothing yet
	{chain: siblingChain, tool: "read_d", want: "allow - -"},                        // the sibling spends the last one
	{approve: 4, at: 10, want: "deny rate_limited planner"},                         // a stale approval is checked again
	{chain: leafChain, tool: "read_e", at: 10, want: "deny rate_limited planner"},   // the mid's and leaf's own buckets have tokens
	{chain: leafChain, tool: "wire_3", at: 1000, want: "escalate - planner"},        // 1.1 tokens refilled
	{approve: 8, at: 1000, want: "allow - - approved"},                              // charged now
	{chain: leafChain, tool: "read_x", at: 1000, want: "deny rate_limited planner"}, // the approval spent the token
	{replace: true},
	{chain: leafChain, tool: "read_secret_x", at: 2000, want: "deny tool_denied planner"}, // the planner's new rule
	{chain: leafChain, tool: "read_f", at: 2000, want: "allow - -"},
	{chain: siblingChain, tool: "read_g", at: 5000, want: "allow - -"},                    // the planner's 7th call of the run
	{chain: siblingChain, tool: "read_h", at: 5000, want: "deny budget_exceeded planner"}, // the approved call counts; the sibling's own budget has room
}

// TestThreeLevelChainDecidesAlikeEverywhere drives one three-level chain
// (planner → mid → leaf, and mid's sibling) through the Rego ceiling over
// named policies, the Go API and regate serve with the same calls: rates
// over time, siblings sharing the planner's bucket and call budget, an
// escalation approved stale (refused) and one approved and charged, and a
// grandchild refused by a rule the planner gained after the delegations,
// which the middle policy does not repeat. Each path must reach every
// expected decision.
func TestThreeLevelChainDecidesAlikeEverywhere(t *testing.T) {
	raw := map[string]json.RawMessage{}
	policies := map[string]*delegation.Policy{}
	for name, src := range chainPolicies {
		raw[name] = json.RawMessage(src)
		p, err := delegation.Decode(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		policies[name] = p
	}
	for child, parent := range map[string]string{"mid": "planner", "sibling": "planner", "leaf": "mid"} {
		if ps := delegation.SubsetProblems(policies[child], policies[parent]); len(ps) > 0 {
			t.Fatalf("%s is not proven within %s: %v", child, parent, ps)
		}
	}
	clock := &fakeClock{}
	ts := delegationServer(t, clock)
	for _, path := range []struct {
		name string
		new  conformance.NewChainDecider
	}{
		{"rego", conformance.RegoCeiling},
		{"go-api", conformance.GoAPI},
		{"serve", newServeDecider(ts, clock)},
	} {
		t.Run(path.name, func(t *testing.T) {
			ctx := context.Background()
			d, err := path.new(ctx, "chain", raw)
			if err != nil {
				t.Fatal(err)
			}
			escalations := map[int]string{}
			for i, s := range chainSteps {
				var got delegate.CeilingDecision
				switch {
				case s.replace:
					if err := d.Replace(ctx, "planner", json.RawMessage(tightenedPlanner)); err != nil {
						t.Fatal(err)
					}
					continue
				case s.approve > 0:
					got, err = d.Approve(ctx, escalations[s.approve], "treasury", 600, s.at)
				default:
					got, err = d.Decide(ctx, delegate.CeilingCall{
						Chain: s.chain, Tool: s.tool, Agent: s.chain[len(s.chain)-1], Minute: 600, At: s.at, Session: "main",
					})
				}
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				if got.Decision == "escalate" {
					escalations[i+1] = got.Escalation
					if got.Approver != "treasury" || got.Layer != delegation.Layer {
						t.Errorf("step %d: escalated to %q at layer %q; want treasury at %s", i+1, got.Approver, got.Layer, delegation.Layer)
					}
				}
				if summary := chainSummary(got); summary != s.want {
					t.Errorf("step %d (%s at %gs): %s; want %s", i+1, s.tool, s.at, summary, s.want)
				}
			}
		})
	}
}

func chainSummary(d delegate.CeilingDecision) string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	s := fmt.Sprintf("%s %s %s", d.Decision, dash(d.Violation), dash(d.Policy))
	if d.Approved {
		s += " approved"
	}
	return s
}
