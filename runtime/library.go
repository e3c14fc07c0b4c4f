package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/opaprep"
)

// The deciders beside the Engine (package delegate's ceiling and lease
// checks, package profile's resolution) ask regate's Rego library queries
// of their own. PrepareLibrary and EvalLibrary are what they share with
// the Engine: the library loaded and pruned the same way, and a result
// that is not exactly one value read as ErrNoDecision, a fault.

// PrepareLibrary prepares query over regate's Rego library (the modules
// query can reach), the extra modules and store, once; evaluate it with
// EvalLibrary.
func PrepareLibrary(ctx context.Context, query string, store storage.Store, extra ...compiler.Module) (rego.PreparedEvalQuery, error) {
	lib, err := queryModules(query, extra)
	if err != nil {
		return rego.PreparedEvalQuery{}, err
	}
	opts := append([]func(*rego.Rego){rego.Query(query), rego.Store(store)}, moduleOptions(lib, extra)...)
	q, err := opaprep.Prepare(ctx, rego.New(opts...))
	if err != nil {
		return rego.PreparedEvalQuery{}, fmt.Errorf("runtime: prepare %s: %w", query, err)
	}
	return q, nil
}

// EvalLibrary evaluates q on input and decodes its one result into out
// (through JSON, so out's tags name the result's members). No result, or
// more than one, is ErrNoDecision.
func EvalLibrary(ctx context.Context, q rego.PreparedEvalQuery, input any, out any) error {
	rs, err := q.Eval(ctx, rego.EvalInput(input))
	if err != nil {
		return fmt.Errorf("runtime: evaluate: %w", err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return ErrNoDecision
	}
	b, err := json.Marshal(rs[0].Expressions[0].Value)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
