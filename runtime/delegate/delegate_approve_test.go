package delegate_test

import (
	"context"
	"testing"

	"github.com/regate/regate/runtime/delegate"
)

// TestApproveChargesAnEscalation: an escalation charges nothing until it
// is approved; the approval decides the call again at its own time and
// charges it as an allowed call; an approval is single-use, one from
// another approver approves nothing, and a stale one (the bucket spent
// meanwhile) is refused.
func TestApproveChargesAnEscalation(t *testing.T) {
	ctx := context.Background()
	planner := `{"rate_limits": {"*": "2/hour"}, "escalate_tools": {"wire_*": "money"}, "approver": "treasury"}`
	type step struct {
		tool     string // a call, or
		approve  int    // the 1-based step whose escalation is approved
		approver string
		want     string
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"approved, then charged", []step{
			{tool: "wire_1", want: "escalate"},
			{tool: "read_a", want: "allow"},
			{tool: "read_b", want: "allow"}, // the escalation took no token
			{tool: "wire_2", want: "deny rate_limited"},
		}},
		{"an approval spends a token", []step{
			{tool: "wire_1", want: "escalate"},
			{approve: 1, approver: "treasury", want: "allow approved"},
			{tool: "read_a", want: "allow"},
			{tool: "read_b", want: "deny rate_limited"},
		}},
		{"single-use", []step{
			{tool: "wire_1", want: "escalate"},
			{approve: 1, approver: "treasury", want: "allow approved"},
			{approve: 1, approver: "treasury", want: "deny not_pending"},
			{tool: "read_a", want: "allow"},
			{tool: "read_b", want: "deny rate_limited"}, // the second approval charged nothing
		}},
		{"stale: the bucket was spent meanwhile", []step{
			{tool: "wire_1", want: "escalate"},
			{tool: "read_a", want: "allow"},
			{tool: "read_b", want: "allow"},
			{approve: 1, approver: "treasury", want: "deny rate_limited"},
		}},
		{"another approver approves nothing", []step{
			{tool: "wire_1", want: "escalate"},
			{approve: 1, approver: "mallory", want: "escalate"},
			{approve: 2, approver: "treasury", want: "allow approved"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := delegate.NewRun("r")
			p := policy(t, planner)
			child := enter(t, run, p, nil, delegate.DelegateOptions{AgentID: "c"})
			escalations := map[int]string{}
			for i, s := range tt.steps {
				var d delegate.CeilingDecision
				var err error
				if s.tool != "" {
					d, err = child.Decide(ctx, delegate.CeilingCall{Tool: s.tool, Minute: 600, Session: "main"})
				} else {
					d, err = child.Approve(ctx, delegate.EscalationApproval{Escalation: escalations[s.approve], Approver: s.approver, Minute: 600})
				}
				if err != nil {
					t.Fatal(err)
				}
				if d.Decision == "escalate" {
					escalations[i+1] = d.Escalation
					if d.Escalation == "" || d.Policy != run.PolicyID(p) || d.Approver != "treasury" {
						t.Errorf("step %d: %+v; want a pending escalation to treasury by the planner", i+1, d)
					}
				}
				got := summary(d)
				if d.Approved {
					got += " approved"
				}
				if got != s.want {
					t.Errorf("step %d: %s; want %s", i+1, got, s.want)
				}
			}
		})
	}
}

// TestPendingEscalationsAreBounded: a child run keeps its most recent
// escalations; the approval of one dropped is refused.
func TestPendingEscalationsAreBounded(t *testing.T) {
	ctx := context.Background()
	run := delegate.NewRun("r")
	child := enter(t, run, policy(t, `{"escalate_tools": {"*": "all"}, "approver": "ops"}`), nil, delegate.DelegateOptions{})
	var ids []string
	for range 65 {
		d, err := child.Decide(ctx, delegate.CeilingCall{Tool: "t", Minute: 600})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.Escalation)
	}
	for i, want := range map[int]string{0: "deny not_pending", 1: "allow", 64: "allow"} {
		d, err := child.Approve(ctx, delegate.EscalationApproval{Escalation: ids[i], Approver: "ops", Minute: 600})
		if err != nil {
			t.Fatal(err)
		}
		if summary(d) != want {
			t.Errorf("escalation %d: %s; want %s", i, summary(d), want)
		}
	}
	child.Exit()
	if d, _ := child.Approve(ctx, delegate.EscalationApproval{Escalation: ids[2], Approver: "ops"}); summary(d) != "deny not_running" {
		t.Errorf("an approval after exit: %s; want not_running", summary(d))
	}
}
