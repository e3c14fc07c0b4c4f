package ask

import (
	"context"
	"sync"
	"time"
)

// DefaultPickup is how long a forwarded ask waits for the parent session
// to take it from its inbox: a child whose parent is not draining its
// inbox gives up in about two seconds, whatever forwardingTimeoutMs says.
const DefaultPickup = 2 * time.Second

// An Inbox carries the asks of subagent sessions to their parent session,
// which answers them (the spec's permission forwarding). It is safe for
// concurrent use by any number of children.
type Inbox struct {
	asks   chan *forwardedAsk
	pickup time.Duration
}

type forwardedAsk struct {
	ctx   context.Context
	ask   Ask
	reply chan Verdict
}

// NewInbox returns a parent session's inbox. pickup bounds the wait for
// the parent to take an ask (0: DefaultPickup).
func NewInbox(pickup time.Duration) *Inbox {
	if pickup <= 0 {
		pickup = DefaultPickup
	}
	return &Inbox{asks: make(chan *forwardedAsk), pickup: pickup}
}

// Forwarder is the terminal of a subagent session: it forwards each ask to
// the parent's inbox, marked with the child's session, and waits up to
// timeout (forwardingTimeoutMs) for the answer. A parent that does not take
// the ask in time, or does not answer it, denies it.
func (in *Inbox) Forwarder(child string, timeout time.Duration) Authorizer {
	return AuthorizerFunc(func(ctx context.Context, ask Ask) (Verdict, error) {
		ask.Forwarded = child
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		f := &forwardedAsk{ctx: ctx, ask: ask, reply: make(chan Verdict, 1)}
		pickup := time.NewTimer(in.pickup)
		defer pickup.Stop()
		select {
		case in.asks <- f:
		case <-pickup.C:
			return Verdict{Action: "deny", Reason: "the parent session is not taking forwarded asks, so this one is denied"}, nil
		case <-ctx.Done():
			return forwardingEnded(ctx), nil
		}
		select {
		case v := <-f.reply:
			return v, nil
		case <-ctx.Done():
			return forwardingEnded(ctx), nil
		}
	})
}

func forwardingEnded(ctx context.Context) Verdict {
	if ctx.Err() == context.DeadlineExceeded {
		return Verdict{Action: "deny", Reason: "the parent session did not answer the forwarded ask within forwardingTimeoutMs, so it is denied"}
	}
	return Verdict{Action: "deny", Reason: "the forwarded ask was cancelled"}
}

// Serve takes forwarded asks until ctx ends and answers each on its own
// goroutine with answer (the parent's chain, whose terminal is usually a
// person), under the child's deadline. It returns when ctx ends and every
// answer it started has been delivered.
func (in *Inbox) Serve(ctx context.Context, answer func(context.Context, Ask) Verdict) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case f := <-in.asks:
			wg.Add(1)
			go func() {
				defer wg.Done()
				actx, cancel := context.WithCancel(f.ctx)
				defer cancel()
				stop := context.AfterFunc(ctx, cancel)
				defer stop()
				f.reply <- answer(actx, f.ask)
			}()
		}
	}
}
