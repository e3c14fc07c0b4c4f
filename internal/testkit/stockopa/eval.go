package stockopa

import (
	"context"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/opaprep"
)

// Eval evaluates the Data API path (for example
// "regate/lib/permission/decision") with input against the bundle of out,
// as `opa run --bundle` would, with stock OPA's rego package in this
// process: nothing of the embedded runtime (its caches, its input
// conversion). It builds no binary, so it runs in -short mode and under the
// race detector too.
func Eval(ctx context.Context, out *compiler.Output, path string, input any) (any, error) {
	b, err := out.Bundle()
	if err != nil {
		return nil, err
	}
	query := "data." + strings.ReplaceAll(strings.Trim(path, "/"), "/", ".")
	q, err := opaprep.Prepare(ctx, rego.New(rego.Query(query), rego.ParsedBundle("regate", b)))
	if err != nil {
		return nil, err
	}
	rs, err := q.Eval(ctx, rego.EvalInput(input))
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, fmt.Errorf("stockopa: %s is undefined for this input", query)
	}
	return rs[0].Expressions[0].Value, nil
}
