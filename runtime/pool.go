package runtime

import (
	"context"
	"sync"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/regate/regate/compiler"
)

// Pool shares prepared queries between engines built from the same compiled
// policy (equal compiler.Output.Hash), so that a host that rebuilds its
// engine on every session, or a test suite that compiles the same rules many
// times, prepares each policy once. It is safe for concurrent use.
type Pool struct {
	mu       sync.Mutex
	prepared map[string]rego.PreparedEvalQuery
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{prepared: map[string]rego.PreparedEvalQuery{}} }

// WithPool makes New take the prepared query from p, preparing it there
// first when p does not hold it yet.
func WithPool(p *Pool) Option { return func(e *Engine) { e.pool = p } }

func (p *Pool) get(ctx context.Context, out *compiler.Output) (rego.PreparedEvalQuery, error) {
	key := out.Hash
	p.mu.Lock()
	defer p.mu.Unlock()
	if q, ok := p.prepared[key]; ok {
		return q, nil
	}
	q, err := prepareQuery(ctx, decisionQuery, out)
	if err != nil {
		return q, err
	}
	p.prepared[key] = q
	return q, nil
}

// Len reports how many policies the pool has prepared.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.prepared)
}
