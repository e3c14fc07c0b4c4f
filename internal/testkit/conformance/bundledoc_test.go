package conformance_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/internal/opaprep"
	regolib "github.com/regate/regate/rego"
	"github.com/regate/regate/runtime"
)

// bundleDocs decides as a stock OPA server holds a policy: the library and
// the generated modules as Rego text, the compiled rules as plain JSON (a
// bundle's data.json), the input document as JSON (what regate facts
// prints), through the public query runtime.Query. The embedded engine
// builds its input and data as AST values and asks the generated decision
// directly; the two must agree, message included. Policies are prepared
// once each, by hash; it is safe for concurrent use.
type bundleDocs struct {
	lib map[string]string
	mu  sync.Mutex
	q   map[string]*bundleQuery
}

type bundleQuery struct {
	once sync.Once
	q    rego.PreparedEvalQuery
	err  error
}

func newBundleDocs(t testing.TB) *bundleDocs {
	t.Helper()
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	return &bundleDocs{lib: lib, q: map[string]*bundleQuery{}}
}

func (b *bundleDocs) query(ctx context.Context, out *compiler.Output) (rego.PreparedEvalQuery, error) {
	b.mu.Lock()
	bq := b.q[out.Hash]
	if bq == nil {
		bq = &bundleQuery{}
		b.q[out.Hash] = bq
	}
	b.mu.Unlock()
	bq.once.Do(func() {
		data, err := plainData(out)
		if err != nil {
			bq.err = err
			return
		}
		opts := []func(*rego.Rego){rego.Query(runtime.Query), rego.Store(inmem.NewFromObject(data))}
		for _, p := range slices.Sorted(maps.Keys(b.lib)) {
			opts = append(opts, rego.Module(p, b.lib[p]))
		}
		for _, m := range out.Modules {
			opts = append(opts, rego.Module(m.Path, m.Text))
		}
		bq.q, bq.err = opaprep.Prepare(ctx, rego.New(opts...))
	})
	return bq.q, bq.err
}

// plainData is out's data as plain JSON values, as a bundle holds it.
func plainData(out *compiler.Output) (map[string]any, error) {
	v, err := ast.InterfaceToValue(out.Data)
	if err != nil {
		return nil, err
	}
	plain, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	m, _ := plain.(map[string]any)
	return m, nil
}

// decide decides the input document doc (plain JSON values) under out.
func (b *bundleDocs) decide(ctx context.Context, out *compiler.Output, doc map[string]any) (runtime.Decision, error) {
	q, err := b.query(ctx, out)
	if err != nil {
		return runtime.Decision{}, err
	}
	rs, err := q.Eval(ctx, rego.EvalInput(doc))
	if err != nil {
		return runtime.Decision{}, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return runtime.Decision{}, fmt.Errorf("%s is undefined", runtime.Query)
	}
	m, _ := rs[0].Expressions[0].Value.(map[string]any)
	str := func(k string) string { s, _ := m[k].(string); return s }
	yolo, _ := m["yolo"].(bool)
	return runtime.Decision{Action: action.Action(str("action")), Matched: str("matched"), Layer: str("layer"), Surface: str("surface"),
		Value: str("value"), Origin: str("origin"), At: str("at"), Pos: str("pos"), Reason: str("reason"), Floor: str("floor"),
		Yolo: yolo, Message: str("message")}, nil
}
