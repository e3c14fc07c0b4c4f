// Package opaprep prepares OPA queries one at a time in this process.
//
// OPA v1.22's type checker merges rule types into type values that
// separate compilers share (ast/env.go's mergeTypes writes the dynamic
// properties of an object inside an Any in place), so two queries
// prepared at once race: `go test -race` caught an engine's profile
// library and a conformance test's permission library doing it. A
// preparation is a compile-time step (once per policy revision, never per
// decision), so serialising them costs nothing a decision sees. Evaluation
// does not type-check and needs no lock.
package opaprep

import (
	"context"
	"sync"

	"github.com/open-policy-agent/opa/v1/rego"
)

// compiling guards OPA's shared type values during preparation; it holds
// no state of regate's own.
var compiling sync.Mutex

// Prepare is r.PrepareForEval(ctx), with no other preparation running.
func Prepare(ctx context.Context, r *rego.Rego) (rego.PreparedEvalQuery, error) {
	compiling.Lock()
	defer compiling.Unlock()
	return r.PrepareForEval(ctx)
}
