package ask

import (
	"context"
	"fmt"
	"sync"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// An Ask is a call the policy resolved to ask, as the authorizer chain
// sees it.
type Ask struct {
	Call     facts.Call
	Decision runtime.Decision
	// Session identifies the session (and, for a forwarded ask, the
	// subagent's); UserMessage the current user message, which bounds how
	// long an approval may be reused.
	Session     string
	UserMessage string
	// Forwarded names the subagent session a forwarded ask came from.
	Forwarded string
	// Runs is, when the deciding unit is a wrapper (xargs, sudo, bash -c),
	// the command that will actually run: a prompt fact.
	Runs string
}

// New builds the ask a decision of e puts to the authorizer chain, with
// the command a deciding wrapper runs (a prompt fact). The caller sets
// Session and UserMessage.
func New(e *runtime.Engine, call facts.Call, d runtime.Decision) Ask {
	ask := Ask{Call: call, Decision: d}
	if d.Surface != "bash" {
		return ask
	}
	for _, c := range e.Facts(call).Checks {
		if c.Surface == "bash" && c.Value == d.Value && c.At == d.At && c.Runs != "" {
			ask.Runs = c.Runs
			break
		}
	}
	return ask
}

// A Verdict is a link's answer: allow, deny or defer, with an optional
// reason (a deny's teaching reason, a reviewer's note for the human).
type Verdict struct {
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
	// By names the link or terminal that answered.
	By string `json:"by"`
}

// An Authorizer is one link of the chain.
type Authorizer interface {
	Authorize(ctx context.Context, ask Ask) (Verdict, error)
}

// AuthorizerFunc adapts a function to Authorizer.
type AuthorizerFunc func(ctx context.Context, ask Ask) (Verdict, error)

// Authorize calls f.
func (f AuthorizerFunc) Authorize(ctx context.Context, ask Ask) (Verdict, error) { return f(ctx, ask) }

// HeadlessDeny is the terminal of a session no one can answer: it denies.
var HeadlessDeny = AuthorizerFunc(func(context.Context, Ask) (Verdict, error) {
	return Verdict{Action: "deny", Reason: "no one can answer this ask (a headless session), so it is denied"}, nil
})

// Chain is the authorizer chain (the spec's "Authorizer chain"): the links
// named by authorizerChain, in that order, then the terminal, which always
// decides. Registering a link grants it nothing until the policy names it,
// and a named link that is not registered is skipped with a warning: the
// ask still reaches the terminal. It is safe for concurrent use.
type Chain struct {
	order    []string
	terminal Authorizer
	warn     func(format string, args ...any)

	mu     sync.RWMutex
	links  map[string]Authorizer
	warned map[string]bool
}

// NewChain builds the chain of the policy's authorizerChain, ending at
// terminal (nil: HeadlessDeny). warn receives the chain's warnings.
func NewChain(order []string, terminal Authorizer, warn func(format string, args ...any)) *Chain {
	if terminal == nil {
		terminal = HeadlessDeny
	}
	if warn == nil {
		warn = func(string, ...any) {}
	}
	return &Chain{order: append([]string(nil), order...), terminal: terminal, warn: warn,
		links: map[string]Authorizer{}, warned: map[string]bool{}}
}

// PolicyChain returns the authorizer chain the authorizerChain of e's
// policy names, ending at terminal (nil: HeadlessDeny).
func PolicyChain(e *runtime.Engine, terminal Authorizer, warn func(format string, args ...any)) *Chain {
	return NewChain(e.Knobs().AuthorizerChain, terminal, warn)
}

// Register registers a link by name. Its place in the chain is the
// policy's, not the order of registration; a name the policy does not
// list is never consulted.
func (c *Chain) Register(name string, a Authorizer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.links[name] = a
}

// Resolve answers an ask: each named link in the policy's order until one
// allows or denies, then the terminal. A link that fails, or answers
// anything but allow, deny or defer, defers (absence of a judge means more
// prompting, never less); a terminal that does not decide, or a cancelled
// context, denies. A decision that is not an ask is answered as it stands:
// hard-guard and policy denies never reach the chain.
func (c *Chain) Resolve(ctx context.Context, ask Ask) Verdict {
	if ask.Decision.Action != "ask" {
		return Verdict{Action: string(ask.Decision.Action), By: "policy"}
	}
	for _, name := range c.order {
		c.mu.RLock()
		link, ok := c.links[name]
		c.mu.RUnlock()
		if !ok {
			c.warnOnce(name, "authorizer %q is named in authorizerChain but not registered; it is skipped", name)
			continue
		}
		if ctx.Err() != nil {
			return Verdict{Action: "deny", Reason: "the ask was cancelled", By: name}
		}
		v, err := link.Authorize(ctx, ask)
		if err != nil {
			c.warn("authorizer %q failed, so it defers: %v", name, err)
			continue
		}
		if v.Action == "allow" || v.Action == "deny" {
			v.By = name
			return v
		}
	}
	if ctx.Err() != nil {
		return Verdict{Action: "deny", Reason: "the ask was cancelled", By: "terminal"}
	}
	v, err := c.terminal.Authorize(ctx, ask)
	if err != nil || (v.Action != "allow" && v.Action != "deny") {
		reason := "the terminal authorizer did not decide, so the ask is denied"
		if err != nil {
			reason = fmt.Sprintf("the terminal authorizer failed (%v), so the ask is denied", err)
		}
		return Verdict{Action: "deny", Reason: reason, By: "terminal"}
	}
	v.By = "terminal"
	return v
}

func (c *Chain) warnOnce(name, format string, args ...any) {
	c.mu.Lock()
	seen := c.warned[name]
	c.warned[name] = true
	c.mu.Unlock()
	if !seen {
		c.warn(format, args...)
	}
}
