package ask_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

// answering is a Prompter that answers a and remembers the prompts.
type answering struct {
	a       ask.Answer
	err     error
	mu      sync.Mutex
	prompts []ask.Prompt
}

func (p *answering) Prompt(_ context.Context, _ ask.Ask, pr ask.Prompt) (ask.Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.prompts = append(p.prompts, pr)
	return p.a, p.err
}

const askPolicy = `{"permission": {"*": "allow", "bash": {"*": "ask", "git status": "allow", "rm *": "deny"}},
  "authorizerChain": ["judge"], "promptMaxRows": 6, "promptFieldMaxWidth": 80}`

// newEngine compiles policy and returns an engine on an empty virtual
// file system, its working directory /home/u/repo.
func newEngine(t testing.TB, policy string, opts ...runtime.Option) *runtime.Engine {
	t.Helper()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(policy)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
		t.Fatal(fatal)
	}
	opts = append([]runtime.Option{runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{})}, opts...)
	e, err := runtime.New(context.Background(), out, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func bashCall(cmd string) facts.Call {
	return facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
}

// TestInteractiveTerminal: only an explicit approval allows; "approve for
// this session" approves exactly the value asked about; everything else
// denies.
func TestInteractiveTerminal(t *testing.T) {
	for _, c := range []struct {
		name    string
		answer  ask.Answer
		err     error
		cmd     string
		want    string
		reason  string
		session bool // a second identical call is allowed without a prompt
	}{
		{"approve once", ask.Answer{Choice: ask.ApproveOnce}, nil, "make", "allow", "approved once", false},
		{"approve for the session", ask.Answer{Choice: ask.ApproveSession}, nil, "make deploy", "allow", "for this session", true},
		{"a value with * is approved once only", ask.Answer{Choice: ask.ApproveSession}, nil, "ls *.go", "allow", "cannot be approved for the session", false},
		{"a value with ? is approved once only", ask.Answer{Choice: ask.ApproveSession}, nil, "ls a?c", "allow", "cannot be approved for the session", false},
		{"deny", ask.Answer{Choice: ask.Deny}, nil, "make", "deny", "denied by the user", false},
		{"deny with a reason, on one line", ask.Answer{Choice: ask.Deny, Reason: "use\nmake test"}, nil, "make", "deny", "use make test", false},
		{"an unknown choice denies", ask.Answer{Choice: "yes please"}, nil, "make", "deny", "no answer regate knows", false},
		{"a failing prompt denies", ask.Answer{Choice: ask.ApproveOnce}, errors.New("tty gone"), "make", "deny", "tty gone", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, askPolicy)
			p := &answering{a: c.answer, err: c.err}
			chain := ask.PolicyChain(e, ask.NewInteractive(e, p), nil)
			ctx := context.Background()
			d, err := e.Decide(ctx, bashCall(c.cmd))
			if err != nil || d.Action != "ask" {
				t.Fatalf("decide: %+v, %v", d, err)
			}
			v := chain.Resolve(ctx, ask.New(e, bashCall(c.cmd), d))
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
	p := ask.PrompterFunc(func(context.Context, ask.Ask, ask.Prompt) (ask.Answer, error) {
		cancel() // the person closed the dialog while it was open
		return ask.Answer{Choice: ask.ApproveOnce}, nil
	})
	d, _ := e.Decide(ctx, bashCall("make"))
	if v := ask.PolicyChain(e, ask.NewInteractive(e, p), nil).Resolve(ctx, ask.New(e, bashCall("make"), d)); v.Action != "deny" {
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
	a := ask.New(e, call, d)
	if a.Runs != "rm -f" {
		t.Fatalf("runs %q; want rm -f (decision %+v)", a.Runs, d)
	}
	p := ask.BuildPrompt(a, "", 24, 400)
	if got := keys(p); got != "agent,tool,rule,command,runs,from" {
		t.Errorf("prompt lines %s", got)
	}
	if plain := ask.New(e, bashCall("make"), runtime.Decision{Action: "ask", Surface: "bash", Value: "make", At: "1:1"}); plain.Runs != "" {
		t.Errorf("a plain command has no wrapped command: %q", plain.Runs)
	}
}

// TestYoloNeverReachesTheChain: yoloMode answers the ask in the decision
// itself, so no link and no terminal is consulted; a deny stays a deny.
func TestYoloNeverReachesTheChain(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "allow", "bash": {"*": "ask", "rm *": "deny"}}, "yoloMode": true, "authorizerChain": ["judge"]}`)
	consulted := false
	chain := ask.PolicyChain(e, ask.AuthorizerFunc(func(context.Context, ask.Ask) (ask.Verdict, error) {
		consulted = true
		return ask.Verdict{Action: "deny"}, nil
	}), nil)
	chain.Register("judge", ask.AuthorizerFunc(func(context.Context, ask.Ask) (ask.Verdict, error) {
		consulted = true
		return ask.Verdict{Action: "deny"}, nil
	}))
	ctx := context.Background()
	for cmd, want := range map[string]string{"make": "allow", "rm -rf x": "deny"} {
		d, _ := e.Decide(ctx, bashCall(cmd))
		if v := chain.Resolve(ctx, ask.New(e, bashCall(cmd), d)); v.Action != want || v.By != "policy" {
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
	forwarded := ask.Ask{Call: bashCall("make"), Decision: runtime.Decision{Action: "ask", Surface: "bash", Value: "make"}}
	t.Run("the parent answers", func(t *testing.T) {
		in := ask.NewInbox(time.Second)
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		var seen ask.Ask
		go in.Serve(ctx, func(_ context.Context, a ask.Ask) ask.Verdict {
			seen = a
			return ask.Verdict{Action: "allow", Reason: "parent said yes"}
		})
		chain := ask.NewChain(nil, in.Forwarder("child-7", time.Minute), nil)
		if v := chain.Resolve(context.Background(), forwarded); v.Action != "allow" || v.Reason != "parent said yes" {
			t.Errorf("verdict %+v", v)
		}
		if seen.Forwarded != "child-7" {
			t.Errorf("the parent saw %+v", seen)
		}
	})
	t.Run("no parent draining the inbox", func(t *testing.T) {
		in := ask.NewInbox(50 * time.Millisecond)
		v := ask.NewChain(nil, in.Forwarder("c", time.Minute), nil).Resolve(context.Background(), forwarded)
		if v.Action != "deny" || !strings.Contains(v.Reason, "not taking") {
			t.Errorf("verdict %+v", v)
		}
	})
	t.Run("the parent never answers", func(t *testing.T) {
		in := ask.NewInbox(time.Second)
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		cancelled := make(chan struct{})
		go in.Serve(ctx, func(actx context.Context, _ ask.Ask) ask.Verdict {
			<-actx.Done() // the person walked away; the child's deadline ends it
			close(cancelled)
			return ask.Verdict{Action: "allow"}
		})
		v := ask.NewChain(nil, in.Forwarder("c", 100*time.Millisecond), nil).Resolve(context.Background(), forwarded)
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
	in := ask.NewInbox(5 * time.Second)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go in.Serve(ctx, func(_ context.Context, a ask.Ask) ask.Verdict {
		return ask.Verdict{Action: "deny", Reason: "for " + a.Forwarded}
	})
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			child := fmt.Sprintf("child-%d", i)
			v := ask.NewChain(nil, in.Forwarder(child, time.Minute), nil).Resolve(context.Background(),
				ask.Ask{Decision: runtime.Decision{Action: "ask"}})
			if v.Reason != "for "+child {
				t.Errorf("%s got %+v", child, v)
			}
		}()
	}
	wg.Wait()
}
