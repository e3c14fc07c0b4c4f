package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// answering is a Prompter that answers a and remembers the prompts.
type answering struct {
	a       runtime.Answer
	err     error
	mu      sync.Mutex
	prompts []runtime.Prompt
}

func (p *answering) Prompt(_ context.Context, _ runtime.Ask, pr runtime.Prompt) (runtime.Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.prompts = append(p.prompts, pr)
	return p.a, p.err
}

const askPolicy = `{"permission": {"*": "allow", "bash": {"*": "ask", "git status": "allow", "rm *": "deny"}},
  "authorizerChain": ["judge"], "promptMaxRows": 6, "promptFieldMaxWidth": 80}`

func bashCall(cmd string) facts.Call {
	return facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
}

// TestInteractiveTerminal: only an explicit approval allows; "approve for
// this session" approves exactly the value asked about; everything else
// denies.
func TestInteractiveTerminal(t *testing.T) {
	for _, c := range []struct {
		name    string
		answer  runtime.Answer
		err     error
		cmd     string
		want    string
		reason  string
		session bool // a second identical call is allowed without a prompt
	}{
		{"approve once", runtime.Answer{Choice: runtime.ApproveOnce}, nil, "make", "allow", "approved once", false},
		{"approve for the session", runtime.Answer{Choice: runtime.ApproveSession}, nil, "make deploy", "allow", "for this session", true},
		{"a value with * is approved once only", runtime.Answer{Choice: runtime.ApproveSession}, nil, "ls *.go", "allow", "cannot be approved for the session", false},
		{"a value with ? is approved once only", runtime.Answer{Choice: runtime.ApproveSession}, nil, "ls a?c", "allow", "cannot be approved for the session", false},
		{"deny", runtime.Answer{Choice: runtime.Deny}, nil, "make", "deny", "denied by the user", false},
		{"deny with a reason, on one line", runtime.Answer{Choice: runtime.Deny, Reason: "use\nmake test"}, nil, "make", "deny", "use make test", false},
		{"an unknown choice denies", runtime.Answer{Choice: "yes please"}, nil, "make", "deny", "no answer regate knows", false},
		{"a failing prompt denies", runtime.Answer{Choice: runtime.ApproveOnce}, errors.New("tty gone"), "make", "deny", "tty gone", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, askPolicy)
			p := &answering{a: c.answer, err: c.err}
			chain := e.Chain(e.NewInteractive(p), nil)
			ctx := context.Background()
			d, err := e.Decide(ctx, bashCall(c.cmd))
			if err != nil || d.Action != "ask" {
				t.Fatalf("decide: %+v, %v", d, err)
			}
			v := chain.Resolve(ctx, e.Ask(bashCall(c.cmd), d))
			if v.Action != c.want || v.By != "terminal" || !strings.Contains(v.Reason, c.reason) {
				t.Errorf("verdict %+v; want %s with %q", v, c.want, c.reason)
			}
			if len(p.prompts) != 1 || len(p.prompts[0].Lines) == 0 {
				t.Fatalf("prompts: %+v", p.prompts)
			}
			again, _ := e.Decide(ctx, bashCall(c.cmd))
			if got := again.Action == "allow" && again.Layer == "session"; got != c.session {
				t.Errorf("the next identical call: %+v (session approval expected: %v)", again, c.session)
			}
			if c.session {
				if other, _ := e.Decide(ctx, bashCall(c.cmd+" --force")); other.Action != "ask" {
					t.Errorf("a session approval admitted a different command: %+v", other)
				}
			}
		})
	}
}

func TestInteractiveCancelledDenies(t *testing.T) {
	e := newEngine(t, askPolicy)
	ctx, cancel := context.WithCancel(context.Background())
	p := runtime.PrompterFunc(func(context.Context, runtime.Ask, runtime.Prompt) (runtime.Answer, error) {
		cancel() // the person closed the dialog while it was open
		return runtime.Answer{Choice: runtime.ApproveOnce}, nil
	})
	d, _ := e.Decide(ctx, bashCall("make"))
	if v := e.Chain(e.NewInteractive(p), nil).Resolve(ctx, e.Ask(bashCall("make"), d)); v.Action != "deny" {
		t.Errorf("a cancelled prompt: %+v", v)
	}
}

// TestWrappedCommandIsAFact: a wrapper's ask shows the command that will
// actually run, as a fact, under the policy's budgets.
func TestWrappedCommandIsAFact(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "allow", "bash": {"*": "allow"}}, "promptMaxRows": 24}`)
	call := bashCall("find . -name '*.o' | xargs rm -f")
	d, err := e.Decide(context.Background(), call)
	if err != nil || d.Action != "ask" {
		t.Fatalf("decide: %+v, %v", d, err)
	}
	ask := e.Ask(call, d)
	if ask.Runs != "rm -f" {
		t.Fatalf("runs %q; want rm -f (decision %+v)", ask.Runs, d)
	}
	p := runtime.BuildPrompt(ask, "", 24, 400)
	if got := keys(p); got != "agent,tool,rule,command,runs,from" {
		t.Errorf("prompt lines %s", got)
	}
	if plain := e.Ask(bashCall("make"), runtime.Decision{Action: "ask", Surface: "bash", Value: "make", At: "1:1"}); plain.Runs != "" {
		t.Errorf("a plain command has no wrapped command: %q", plain.Runs)
	}
}

// TestYoloNeverReachesTheChain: yoloMode answers the ask in the decision
// itself, so no link and no terminal is consulted; a deny stays a deny.
func TestYoloNeverReachesTheChain(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "allow", "bash": {"*": "ask", "rm *": "deny"}}, "yoloMode": true, "authorizerChain": ["judge"]}`)
	consulted := false
	chain := e.Chain(runtime.AuthorizerFunc(func(context.Context, runtime.Ask) (runtime.Verdict, error) {
		consulted = true
		return runtime.Verdict{Action: "deny"}, nil
	}), nil)
	chain.Register("judge", runtime.AuthorizerFunc(func(context.Context, runtime.Ask) (runtime.Verdict, error) {
		consulted = true
		return runtime.Verdict{Action: "deny"}, nil
	}))
	ctx := context.Background()
	for cmd, want := range map[string]string{"make": "allow", "rm -rf x": "deny"} {
		d, _ := e.Decide(ctx, bashCall(cmd))
		if v := chain.Resolve(ctx, e.Ask(bashCall(cmd), d)); v.Action != want || v.By != "policy" {
			t.Errorf("%s under yolo: %+v", cmd, v)
		}
	}
	if consulted {
		t.Error("yolo mode consulted the chain")
	}
}

// TestForwarding: a subagent's ask goes to the parent, whose chain answers
// it marked with the child's session; a parent that does not take it, or
// does not answer, denies it; cancelling the child cancels the parent's
// prompt.
func TestForwarding(t *testing.T) {
	ask := runtime.Ask{Call: bashCall("make"), Decision: runtime.Decision{Action: "ask", Surface: "bash", Value: "make"}}
	t.Run("the parent answers", func(t *testing.T) {
		in := runtime.NewInbox(time.Second)
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		var seen runtime.Ask
		go in.Serve(ctx, func(_ context.Context, a runtime.Ask) runtime.Verdict {
			seen = a
			return runtime.Verdict{Action: "allow", Reason: "parent said yes"}
		})
		chain := runtime.NewChain(nil, in.Forwarder("child-7", time.Minute), nil)
		if v := chain.Resolve(context.Background(), ask); v.Action != "allow" || v.Reason != "parent said yes" {
			t.Errorf("verdict %+v", v)
		}
		if seen.Forwarded != "child-7" {
			t.Errorf("the parent saw %+v", seen)
		}
	})
	t.Run("no parent draining the inbox", func(t *testing.T) {
		in := runtime.NewInbox(50 * time.Millisecond)
		v := runtime.NewChain(nil, in.Forwarder("c", time.Minute), nil).Resolve(context.Background(), ask)
		if v.Action != "deny" || !strings.Contains(v.Reason, "not taking") {
			t.Errorf("verdict %+v", v)
		}
	})
	t.Run("the parent never answers", func(t *testing.T) {
		in := runtime.NewInbox(time.Second)
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		cancelled := make(chan struct{})
		go in.Serve(ctx, func(actx context.Context, _ runtime.Ask) runtime.Verdict {
			<-actx.Done() // the person walked away; the child's deadline ends it
			close(cancelled)
			return runtime.Verdict{Action: "allow"}
		})
		v := runtime.NewChain(nil, in.Forwarder("c", 100*time.Millisecond), nil).Resolve(context.Background(), ask)
		if v.Action != "deny" || !strings.Contains(v.Reason, "forwardingTimeoutMs") {
			t.Errorf("verdict %+v", v)
		}
		select {
		case <-cancelled:
		case <-time.After(5 * time.Second):
			t.Error("the parent's prompt outlived the child's deadline")
		}
	})
}

// TestForwardingConcurrent: many children share one parent's inbox and each
// gets its own answer.
func TestForwardingConcurrent(t *testing.T) {
	in := runtime.NewInbox(5 * time.Second)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go in.Serve(ctx, func(_ context.Context, a runtime.Ask) runtime.Verdict {
		return runtime.Verdict{Action: "deny", Reason: "for " + a.Forwarded}
	})
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			child := fmt.Sprintf("child-%d", i)
			v := runtime.NewChain(nil, in.Forwarder(child, time.Minute), nil).Resolve(context.Background(),
				runtime.Ask{Decision: runtime.Decision{Action: "ask"}})
			if v.Reason != "for "+child {
				t.Errorf("%s got %+v", child, v)
			}
		}()
	}
	wg.Wait()
}
