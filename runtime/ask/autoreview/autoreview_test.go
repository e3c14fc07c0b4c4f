package autoreview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

func call(name, args string) ToolCall { return ToolCall{Name: name, Arguments: json.RawMessage(args)} }

// TestParseVerdict holds each row of the spec's verdict and failure rules.
func TestParseVerdict(t *testing.T) {
	for _, c := range []struct {
		name            string
		reply           Reply
		outcome, reason string
	}{
		{"approve", Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"the user asked for it"}`)}}, Approve, "the user asked for it"},
		{"reject", Reply{ToolCalls: []ToolCall{call("reject", `{"reason":"not asked for"}`)}}, Reject, "not asked for"},
		{"prose that is valid JSON", Reply{Text: `{"verdict":"approve","reason":"x"}`}, NoVerdict, ""},
		{"no reply at all", Reply{}, NoVerdict, ""},
		{"two calls", Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"a"}`), call("reject", `{"reason":"b"}`)}}, InvalidResponse, ""},
		{"unknown tool", Reply{ToolCalls: []ToolCall{call("allow", `{"reason":"a"}`)}}, InvalidResponse, ""},
		{"missing reason", Reply{ToolCalls: []ToolCall{call("approve", `{}`)}}, InvalidResponse, ""},
		{"empty reason", Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"  "}`)}}, InvalidResponse, ""},
		{"arguments not JSON", Reply{ToolCalls: []ToolCall{call("approve", `reason: yes`)}}, InvalidResponse, ""},
		{"truncated", Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"a"}`)}, StopReason: "length"}, Truncated, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			outcome, reason := ParseVerdict(c.reply)
			if outcome != c.outcome || reason != c.reason {
				t.Errorf("ParseVerdict = %q, %q; want %q, %q", outcome, reason, c.outcome, c.reason)
			}
		})
	}
}

// fakeProvider answers from a script of replies and errors, counting calls.
type fakeProvider struct {
	calls atomic.Int64
	reply func(n int64, req Request) (Reply, error)
}

func (f *fakeProvider) Complete(ctx context.Context, req Request) (Reply, error) {
	n := f.calls.Add(1)
	return f.reply(n, req)
}

func askFor(msg, cmd string) ask.Ask {
	return ask.Ask{
		Call:        facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}},
		Decision:    runtime.Decision{Action: "ask", Surface: "bash", Value: cmd, Matched: "*"},
		UserMessage: msg,
	}
}

func TestReviewOutcomes(t *testing.T) {
	approve := Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"fine"}`)}}
	for _, c := range []struct {
		name     string
		reply    func(n int64, req Request) (Reply, error)
		action   string
		outcome  string
		attempts int
	}{
		{"approve allows", func(int64, Request) (Reply, error) { return approve, nil }, "allow", Approve, 1},
		{"reject defers", func(int64, Request) (Reply, error) {
			return Reply{ToolCalls: []ToolCall{call("reject", `{"reason":"no"}`)}}, nil
		}, "defer", Reject, 1},
		{"a provider error is retried", func(n int64, _ Request) (Reply, error) {
			if n == 1 {
				return Reply{}, errors.New("502")
			}
			return approve, nil
		}, "allow", Approve, 2},
		{"provider errors past the attempts defer", func(int64, Request) (Reply, error) { return Reply{}, errors.New("500") }, "defer", ProviderError, 2},
		{"a malformed reply is not retried", func(int64, Request) (Reply, error) { return Reply{Text: "yes"}, nil }, "defer", NoVerdict, 1},
		{"a truncated reply is not retried", func(int64, Request) (Reply, error) { return Reply{StopReason: "length"}, nil }, "defer", Truncated, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(Config{Provider: &fakeProvider{reply: c.reply}, Model: "m", MaxAttempts: 2})
			v, res := r.Review(context.Background(), askFor("m1", "make"))
			if v.Action != c.action || res.Outcome != c.outcome || res.Attempts != c.attempts {
				t.Errorf("verdict %+v result %+v; want %s %s after %d attempts", v, res, c.action, c.outcome, c.attempts)
			}
		})
	}
}

func TestReviewBudgetAndCancel(t *testing.T) {
	slow := &fakeProvider{reply: func(int64, Request) (Reply, error) {
		time.Sleep(200 * time.Millisecond)
		return Reply{}, errors.New("late")
	}}
	r := New(Config{Provider: slow, Model: "m", Timeout: 50 * time.Millisecond, MaxAttempts: 5})
	if v, res := r.Review(context.Background(), askFor("m1", "make")); v.Action != "defer" || res.Outcome != Timeout {
		t.Errorf("past the budget: %+v %+v", v, res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v, res := r.Review(ctx, askFor("m1", "make")); v.Action != "deny" || res.Outcome != Cancelled {
		t.Errorf("cancelled: %+v %+v", v, res)
	}
	if v, res := New(Config{Misconfigured: "autoReview.provider is set without autoReview.model"}).Review(context.Background(), askFor("m", "x")); v.Action != "defer" || res.Outcome != NoModel {
		t.Errorf("misconfigured: %+v %+v", v, res)
	}
}

// 32 concurrent asks under -race; the allow cache serves the same action
// within a user message and never across messages; rejects are not cached.
func TestConcurrentAsksAndTheAllowCache(t *testing.T) {
	p := &fakeProvider{reply: func(_ int64, req Request) (Reply, error) {
		time.Sleep(time.Millisecond)
		return Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"ok"}`)}}, nil
	}}
	r := New(Config{Provider: p, Model: "m"})
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, _ := r.Review(context.Background(), askFor("m1", fmt.Sprintf("cmd %d", i%4))); v.Action != "allow" {
				t.Errorf("ask %d: %+v", i, v)
			}
		}()
	}
	wg.Wait()
	before := p.calls.Load()
	if _, res := r.Review(context.Background(), askFor("m1", "cmd 1")); !res.Cached || p.calls.Load() != before {
		t.Errorf("the same action in the same message was reviewed again: %+v", res)
	}
	if _, res := r.Review(context.Background(), askFor("m2", "cmd 1")); res.Cached || p.calls.Load() != before+1 {
		t.Errorf("an allow was served across user messages: %+v", res)
	}
	if _, res := r.Review(context.Background(), askFor("m1", "cmd 1")); res.Cached {
		t.Errorf("a new user message must forget the earlier one's allows: %+v", res)
	}
	rejecting := New(Config{Provider: &fakeProvider{reply: func(int64, Request) (Reply, error) {
		return Reply{ToolCalls: []ToolCall{call("reject", `{"reason":"no"}`)}}, nil
	}}, Model: "m"})
	rejecting.Review(context.Background(), askFor("m1", "x"))
	if _, res := rejecting.Review(context.Background(), askFor("m1", "x")); res.Cached {
		t.Error("a reject was cached")
	}
}
