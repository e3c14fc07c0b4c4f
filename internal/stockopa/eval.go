package stockopa

import (
	"context"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/regate/regate/compiler"
)

// Eval evaluates the Data API path (for example
// "regate/lib/permission/decision") with input against the bundle of out,
// as `opa run --bundle` would, with stock OPA's rego package in this
// process: the pure Rego library, none of the embedded runtime's Go
// builtins. It builds no binary, so it runs in -short mode and under the
// race detector too.
func Eval(ctx context.Context, out *compiler.Output, path string, input any) (any, error) {
	b, err := out.Bundle()
	if err != nil {
		return nil, err
	}
	query := "data." + strings.ReplaceAll(strings.Trim(path, "/"), "/", ".")
	rs, err := rego.New(rego.Query(query), rego.ParsedBundle("regate", b), rego.Input(input)).Eval(ctx)
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, fmt.Errorf("stockopa: %s is undefined for this input", query)
	}
	return rs[0].Expressions[0].Value, nil
}
