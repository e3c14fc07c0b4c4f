package runbudget

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrExhausted is returned when a nested run cannot start (no depth or no
// turns left) or a turn cannot be spent.
var ErrExhausted = errors.New("run budget exhausted")

// ErrNoBudget is returned by Nested and SpendTurn when the context carries
// no budget: a run outside any budget is refused, not unlimited.
var ErrNoBudget = errors.New("no run budget in the context")

// ErrInnerHardStop refuses an inner budget that sets HardStop: only the
// root chooses to end the whole run.
var ErrInnerHardStop = errors.New("hard_stop is the root's choice; an inner budget may not set it")

// Limits are what Open sets.
type Limits struct {
	// MaxDepth is the levels of nested run allowed below this one: 1 lets
	// the root's agent run agents, not those agents run more.
	MaxDepth int
	// MaxTurns is the turns the tree (or, for an inner budget, this part of
	// it) may take.
	MaxTurns int
	// HardStop makes exhaustion end the whole run: Tool returns the error
	// instead of a failed tool result. Root only.
	HardStop bool
}

// tree is what every run of one tree shares.
type tree struct {
	mu       sync.Mutex
	hardStop bool
}

// pool is a reserve of turns: the root's, or a share reserved from the pool
// above it, to which its unspent turns return.
type pool struct {
	left   int
	parent *pool
}

// A Run is one run of the tree: the root, an inner budget, a nested run or
// a delegation lease's level.
type Run struct {
	tree      *tree
	depthLeft int   // levels of nested run allowed below this run
	pool      *pool // the nearest share, this run's own or an ancestor's
	own       bool  // whether pool was reserved for this run
	closed    bool
}

type ctxKey struct{}

// FromContext returns the run the context carries, or nil.
func FromContext(ctx context.Context) *Run {
	r, _ := ctx.Value(ctxKey{}).(*Run)
	return r
}

// Open sets a budget. In a context without one it is the root of a new
// tree. Inside one it is an inner budget that can only tighten: it takes no
// level, its depth is clamped to what is left where it opens, and its turns
// are reserved from the nearest share (clamped to what that has left, which
// may be 0) and return to it when the inner budget is closed.
func Open(ctx context.Context, l Limits) (context.Context, *Run, error) {
	if l.MaxDepth < 0 || l.MaxTurns < 0 {
		return ctx, nil, fmt.Errorf("runbudget: negative limits %+v", l)
	}
	outer := FromContext(ctx)
	if outer == nil {
		r := &Run{tree: &tree{hardStop: l.HardStop}, depthLeft: l.MaxDepth, pool: &pool{left: l.MaxTurns}, own: true}
		return context.WithValue(ctx, ctxKey{}, r), r, nil
	}
	if l.HardStop {
		return ctx, nil, ErrInnerHardStop
	}
	outer.tree.mu.Lock()
	defer outer.tree.mu.Unlock()
	r := &Run{tree: outer.tree, depthLeft: min(l.MaxDepth, outer.depthLeft)}
	r.reserve(outer.pool, l.MaxTurns)
	return context.WithValue(ctx, ctxKey{}, r), r, nil
}

// A NestedOption sets a nested run's own limits.
type NestedOption func(*nestedOptions)

type nestedOptions struct {
	turns, depth *int
}

// Turns reserves a share of n turns for the nested run (at most what is
// left); its unspent part goes back when the run is closed. Without it the
// run spends from the nearest share as it goes.
func Turns(n int) NestedOption { return func(o *nestedOptions) { o.turns = &n } }

// Depth bounds the levels below the nested run further (a delegation
// lease's max_depth); it can only tighten.
func Depth(n int) NestedOption { return func(o *nestedOptions) { o.depth = &n } }

// Nested starts a nested run below the context's run: it takes one level
// and draws on the turns left. With no level or no turn left it returns
// ErrExhausted before the run starts.
func Nested(ctx context.Context, opts ...NestedOption) (context.Context, *Run, error) {
	parent := FromContext(ctx)
	if parent == nil {
		return ctx, nil, ErrNoBudget
	}
	var o nestedOptions
	for _, f := range opts {
		f(&o)
	}
	parent.tree.mu.Lock()
	defer parent.tree.mu.Unlock()
	if parent.closed || parent.depthLeft < 1 || parent.pool.left <= 0 {
		return ctx, nil, ErrExhausted
	}
	r := &Run{tree: parent.tree, depthLeft: parent.depthLeft - 1, pool: parent.pool}
	if o.depth != nil {
		r.depthLeft = max(0, min(r.depthLeft, *o.depth))
	}
	if o.turns != nil {
		r.reserve(parent.pool, max(0, *o.turns))
	}
	return context.WithValue(ctx, ctxKey{}, r), r, nil
}

// reserve takes a share of at most n turns from p. Callers hold the lock.
func (r *Run) reserve(p *pool, n int) {
	n = min(n, p.left)
	p.left -= n
	r.pool, r.own = &pool{left: n, parent: p}, true
}

// Spend spends n turns from the run's nearest share. Spending past what is
// left returns ErrExhausted and spends nothing, so the budget does not
// depend on the framework honouring TurnsLeft.
func (r *Run) Spend(n int) error {
	r.tree.mu.Lock()
	defer r.tree.mu.Unlock()
	if n < 0 || n > r.pool.left || r.closed {
		return ErrExhausted
	}
	r.pool.left -= n
	return nil
}

// TurnsLeft is what remains of the run's nearest share: pass it as the
// framework's own max_turns.
func (r *Run) TurnsLeft() int {
	r.tree.mu.Lock()
	defer r.tree.mu.Unlock()
	return r.pool.left
}

// Close ends the run: a reserved share's unspent turns go back to the share
// it was reserved from. It returns what that share (or, for a run without
// its own share, the share it drew on) has left. Closing twice is a no-op.
func (r *Run) Close() int {
	r.tree.mu.Lock()
	defer r.tree.mu.Unlock()
	if r.closed {
		return r.pool.left
	}
	r.closed = true
	if !r.own || r.pool.parent == nil {
		return r.pool.left
	}
	r.pool.parent.left += r.pool.left
	r.pool.left = 0
	return r.pool.parent.left
}

// SpendTurn spends one turn of the context's run.
func SpendTurn(ctx context.Context) error {
	r := FromContext(ctx)
	if r == nil {
		return ErrNoBudget
	}
	return r.Spend(1)
}

// Tool runs fn as a tool that runs an agent: in a nested run with opts,
// closed when fn returns. When the run cannot start, the exhaustion is the
// tool's failed result (Exhausted true, nil error), so the calling agent
// can finish with what it has; under a root with HardStop it is the error,
// which ends the run.
func Tool(ctx context.Context, fn func(ctx context.Context, r *Run) error, opts ...NestedOption) (exhausted bool, err error) {
	nctx, r, err := Nested(ctx, opts...)
	if errors.Is(err, ErrExhausted) {
		if root := FromContext(ctx); root != nil && root.tree.hardStop {
			return true, err
		}
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer r.Close()
	return false, fn(nctx, r)
}
