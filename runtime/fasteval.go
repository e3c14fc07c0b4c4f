package runtime

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// fastEval are the evaluation options of the fast query,
// regate_decide_bound(input): one builtin call that reads no data and no
// rule. OPA would give every evaluation a virtual-document cache, a
// base-document cache and a goroutine watching the context for
// cancellation; the query has nothing to cache, and a single builtin call
// cannot be interrupted halfway, so the caches are empty stand-ins and the
// cancellation is one that never fires. The context is checked before the
// evaluation (DecideFacts) and after it (evalTerm) instead. This spares
// about ten allocations and a goroutine a decision.
var fastEval = [...]rego.EvalOption{
	rego.EvalVirtualCache(noVirtualCache{}),
	rego.EvalBaseCache(noBaseCache{}),
	rego.EvalExternalCancel(neverCancelled),
}

// neverCancelled is shared by every evaluation: nothing calls its Cancel.
var neverCancelled = topdown.NewCancel()

// noVirtualCache remembers nothing: every lookup misses, which is always
// a correct answer for a cache.
type noVirtualCache struct{}

func (noVirtualCache) Push()                         {}
func (noVirtualCache) Pop()                          {}
func (noVirtualCache) Get(ast.Ref) (*ast.Term, bool) { return nil, false }
func (noVirtualCache) Put(ast.Ref, *ast.Term)        {}
func (noVirtualCache) Keys() []ast.Ref               { return nil }

// noBaseCache remembers nothing either.
type noBaseCache struct{}

func (noBaseCache) Get(ast.Ref) ast.Value  { return nil }
func (noBaseCache) Put(ast.Ref, ast.Value) {}
